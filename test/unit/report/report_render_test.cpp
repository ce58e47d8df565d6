// Report rendering offscreen: figures as SVG, the self-contained HTML page, format names.
#include "report/render/report_render.hpp"

#include <gtest/gtest.h>

#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"
#include "test/test_util.hpp"

namespace slicewise::render {
namespace {

report::RoiReport seed_report() {
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return report::build_roi_report(result,
                                  report::cost_result(result, result.input, table, result.input.pricing.option));
}

TEST(ReportRender, FiguresAreSvgWithTheirTitlesAndSeries) {
  const auto r = seed_report();
  for (const auto& f : report::report_figures(r)) {
    const auto svg = figure_svg(r, f, 600, 400);
    EXPECT_NE(svg.find("<svg"), std::string::npos) << f.id;
    EXPECT_GT(svg.size(), 3000u) << f.id;
    if (f.id != "latency-cdf") {
      EXPECT_NE(svg.find("time_slicing"), std::string::npos) << f.id;
    }
  }
}

TEST(ReportRender, HtmlIsOneSelfContainedPage) {
  const auto html = report_html(seed_report());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* text : {"<figure id=\"figure-cost\"><svg", "<figure id=\"figure-utilization\"><svg",
                           "<td>time_slicing (recommended)</td>", "Executive summary", "Methodology"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  EXPECT_EQ(html.find("src=\""), std::string::npos);  // nothing loaded from elsewhere
  EXPECT_EQ(html.find("<?xml"), std::string::npos);   // SVG prologs stripped
}

TEST(ReportRender, AHostileStrategyNameNeverBecomesMarkup) {
  // The baseline's name went unescaped into the <title> of the savings chart: a live <script>.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const std::string hostile = "</title><script>alert(1)</script>";
  for (auto* name : {&result.strategies[0].name, &result.input.strategies[0].name}) *name = hostile;
  result.strategies[1].name = result.input.strategies[1].name = "<img src=x onerror=alert(2)>";
  result.input.tenants[0].name = result.strategies[0].tenants[0].name = result.strategies[1].tenants[0].name =
      "<b>tenant</b>";
  result.scenario = result.input.name = "<i>scenario</i>";
  result.input.description = "<iframe src=x></iframe> & more";
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  auto costs = report::cost_result(result, result.input, table, result.input.pricing.option);
  costs.strategies[1].lines[0].instance_type = "<svg onload=alert(3)>";
  const auto r = report::build_roi_report(result, costs);
  const auto html = report_html(r);
  const auto md = report::roi_report_markdown(r, report::report_figures(r));
  for (const auto* text : {&html, &md}) {
    for (const char* markup : {"<script", "<img", "<b>tenant", "<i>scenario", "<iframe", "<svg onload"}) {
      EXPECT_EQ(text->find(markup), std::string::npos) << markup << (text == &md ? " in Markdown" : " in HTML");
    }
  }
  EXPECT_NE(html.find("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);  // shown, as text
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>tenant"), std::string::npos);
  for (const auto& f : report::report_figures(r)) {
    const auto svg = figure_svg(r, f, 600, 400);
    EXPECT_EQ(svg.find("<script"), std::string::npos) << f.id;
    EXPECT_EQ(svg.find("<img"), std::string::npos) << f.id;
  }
}

TEST(ReportRender, FormatNames) {
  EXPECT_EQ(report_format_from(".PDF", "--out"), ReportFormat::pdf);
  EXPECT_EQ(report_format_from("markdown", "--format"), ReportFormat::markdown);
  EXPECT_EQ(test::error_of([] { report_format_from(".docx", "--out r.docx"); }),
            "--out r.docx: unknown report format \".docx\"; expected md|html|pdf|xlsx");
}

}  // namespace
}  // namespace slicewise::render
