// Report rendering offscreen: figures as SVG, the self-contained HTML page, the PDF read back by
// poppler (pdftotext, pdftoppm, pdfinfo from scripts/install-deps: tables whole, figures as vector
// charts with nice ticks), the axes' nice steps, the MIG layout inside its rect, format names.
#include "report/render/report_render.hpp"
#include "report/deploy_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <QColor>
#include <QImage>
#include <QPainter>

#include "report/render/chart_kit.hpp"
#include "report/render/figure_painter.hpp"
#include "report/render/mig_layout_figure.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"
#include "test/test_util.hpp"
#include "test/unit/report/day_night_fixture.hpp"

namespace slicewise::render {
namespace {

namespace fs = std::filesystem;

report::RoiReport report_of(const std::string& result_file) {
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/" + result_file);
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return report::build_roi_report(result, report::cost_result(result, result.input, table, result.input.pricing.option),
                                  &table);
}

report::RoiReport seed_report() { return report_of("seed-report.json"); }

const report::Figure& figure_named(const std::vector<report::Figure>& figures, const std::string& id) {
  for (const auto& f : figures) {
    if (f.id == id) return f;
  }
  throw std::runtime_error("no figure " + id);
}

using slicewise::test::have_tool;
using slicewise::test::quoted;
using slicewise::test::run;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\f\r");
  return first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(" \t\f\r") - first + 1);
}

std::set<std::string> tokens_of(const std::vector<std::string>& lines) {
  std::set<std::string> tokens;
  for (const auto& line : lines) {
    std::istringstream in(line);
    for (std::string token; in >> token;) tokens.insert(token);
  }
  return tokens;
}

/// The text of every <text> element of an SVG, entities decoded.
std::vector<std::string> svg_texts(const std::string& svg) {
  std::vector<std::string> texts;
  for (auto at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    const auto start = svg.find('>', at) + 1;
    std::string text = svg.substr(start, svg.find("</text>", start) - start);
    for (const auto& [entity, plain] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
      for (auto e = text.find(entity); e != std::string::npos; e = text.find(entity, e + 1))
        text.replace(e, std::string(entity).size(), plain);
    }
    texts.push_back(trimmed(text));
  }
  return texts;
}

/// Texts that are plain numbers as the axes write them ("0", "5,000", "0.25"), with their values.
std::vector<std::pair<std::string, double>> tick_labels(const std::vector<std::string>& texts) {
  static const std::regex number(R"(-?[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?)");
  std::vector<std::pair<std::string, double>> ticks;
  for (const auto& text : texts) {
    if (!std::regex_match(text, number)) continue;
    std::string digits = text;
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    ticks.emplace_back(text, std::stod(digits));
  }
  std::sort(ticks.begin(), ticks.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return ticks;
}

/// Ticks a nice step apart: consecutive ones differ by one step of 1, 2 or 5 × 10^k, each a
/// multiple of it.
void expect_nice_ticks(const std::vector<std::pair<std::string, double>>& ticks, const std::string& what) {
  ASSERT_GE(ticks.size(), 3u) << what;
  const double step = ticks[1].second - ticks[0].second;
  ASSERT_GT(step, 0.0) << what;
  const double power = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double mantissa = step / power;
  EXPECT_TRUE(std::abs(mantissa - 1.0) < 1e-6 || std::abs(mantissa - 2.0) < 1e-6 || std::abs(mantissa - 5.0) < 1e-6)
      << what << ": step " << step;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(ticks[i].second, ticks[0].second + step * static_cast<double>(i), 1e-6 * step)
        << what << " " << ticks[i].first;
    EXPECT_NEAR(ticks[i].second / step, std::round(ticks[i].second / step), 1e-6) << what << " " << ticks[i].first;
  }
}

/// A folder under the system temp directory, removed with the fixture.
class ReportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sw_render_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

/// `text` with the ligatures DejaVu Sans sets ("ﬁ", "ﬂ") written as their letters, as a reader's
/// search finds them.
std::string without_ligatures(std::string text) {
  for (const auto& [ligature, letters] :
       {std::pair<std::string, std::string>{"\xEF\xAC\x81", "fi"}, {"\xEF\xAC\x82", "fl"}}) {
    for (auto at = text.find(ligature); at != std::string::npos; at = text.find(ligature, at)) {
      text.replace(at, ligature.size(), letters);
    }
  }
  return text;
}

/// The PDF's pages as text (pdftotext -layout), one string per page, ligatures as letters.
std::vector<std::string> pdf_pages(const fs::path& pdf) {
  const std::string info = run("pdfinfo " + quoted(pdf));
  std::smatch match;
  const std::regex pages_line(R"(Pages:\s+([0-9]+))");
  std::vector<std::string> pages;
  if (!std::regex_search(info, match, pages_line)) return pages;
  const int count = std::stoi(match[1]);
  for (int n = 1; n <= count; ++n) {
    pages.push_back(without_ligatures(
        run("pdftotext -layout -f " + std::to_string(n) + " -l " + std::to_string(n) + " " + quoted(pdf) + " -")));
  }
  return pages;
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

TEST(NiceTicks, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_EQ(nice_step(7.58625, 5), 2.0);  // 1.9 per interval
  EXPECT_EQ(nice_step(8.0, 5), 2.0);      // exactly 2 per interval stays 2
  EXPECT_EQ(nice_step(12.3, 5), 5.0);     // 3.075 per interval
  EXPECT_EQ(nice_step(100.0, 6), 20.0);
  EXPECT_EQ(nice_step(0.9, 10), 0.1);
  EXPECT_EQ(nice_step(0.0042, 5), 0.002);
  EXPECT_EQ(nice_step(20089.6, 6), 5000.0);
  EXPECT_EQ(nice_step(1000.0, 2), 1000.0);
  EXPECT_EQ(nice_step(0.0, 5), 1.0);
}

TEST(NiceTicks, RangesRoundOutToMultiplesWithinTheTickLimit) {
  const auto a = nice_ticks(0.0, 7.58625, 5);
  EXPECT_EQ(a.low, 0.0);
  EXPECT_EQ(a.high, 8.0);
  EXPECT_EQ(a.step, 2.0);
  EXPECT_EQ(a.count(), 5);
  EXPECT_EQ(a.decimals, 0);
  // 1..8.6 at a step of 2 rounds out to 0..10, six ticks: the step grows to 5.
  const auto b = nice_ticks(1.0, 8.6, 5);
  EXPECT_EQ(b.low, 0.0);
  EXPECT_EQ(b.high, 10.0);
  EXPECT_EQ(b.step, 5.0);
  EXPECT_EQ(b.count(), 3);
  const auto c = nice_ticks(-3200.0, 15067.2, 6);
  EXPECT_EQ(c.low, -5000.0);
  EXPECT_EQ(c.high, 20000.0);
  EXPECT_EQ(c.step, 5000.0);
  EXPECT_EQ(c.count(), 6);
  const auto d = nice_ticks(0.0, 0.0042, 5);
  EXPECT_EQ(d.high, 0.006);
  EXPECT_EQ(d.step, 0.002);
  EXPECT_EQ(d.decimals, 3);
  const auto e = nice_ticks(0.3, 0.72, 6);  // 0.3 / 0.1 is 2.9999999999999996 in doubles
  EXPECT_EQ(e.low, 0.3);
  EXPECT_EQ(e.high, 0.8);
  EXPECT_EQ(e.step, 0.1);
  EXPECT_EQ(e.decimals, 1);
  const auto flat = nice_ticks(0.0, 0.0, 6);
  EXPECT_EQ(flat.low, 0.0);
  EXPECT_EQ(flat.high, 1.0);
  EXPECT_EQ(tick_label(25000.0, 0), "25,000");
  EXPECT_EQ(tick_label(-5000.0, 0), "-5,000");
  EXPECT_EQ(tick_label(0.05, 2), "0.05");
}

TEST(ReportRender, MoneyAxesTickAtNiceStepsAndBarsShowDollars) {
  const auto r = seed_report();
  const auto figures = report::report_figures(r);
  const auto texts = svg_texts(figure_svg(r, figure_named(figures, "cost"), 900, 480));
  const auto ticks = tick_labels(texts);
  expect_nice_ticks(ticks, "cost axis");
  EXPECT_EQ(ticks.front().first, "0");
  EXPECT_GE(ticks.back().second, r.strategies[0].monthly_usd);  // 3,273.44: the axis reaches the highest bar
  EXPECT_LE(ticks.back().second, 2.0 * r.strategies[0].monthly_usd);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "USD per month"), texts.end());
  for (const auto& s : r.strategies) {
    const auto bar = report::format_usd(s.monthly_usd, 0);  // "$3,273", "$1,758"
    EXPECT_NE(std::find(texts.begin(), texts.end(), bar), texts.end()) << bar;
  }
  // The utilisation's time axis and percentages tick nicely too.
  const auto busy = tick_labels(svg_texts(figure_svg(r, figure_named(figures, "utilization"), 900, 480)));
  EXPECT_NE(std::find_if(busy.begin(), busy.end(), [](const auto& t) { return t.first == "100"; }), busy.end());
}

TEST_F(ReportFiles, EveryPdfPageKeepsItsDrawingInsideItsMargins) {
  // A 13-tenant fleet: page 4 ended "4 / 9" and then drew the top of the next page's latency CDF
  // in the bottom margin (Qt Charts replaces the painter's clip with its plot area). The pages are
  // rendered and every pixel of the 15 mm margins must be white, but for the page number.
  if (!have_tool("pdftoppm")) GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed";
  const auto r = report_of("fleet-13-tenants.json");
  const auto pdf = dir_ / "fleet.pdf";
  write_report(r, ReportFormat::pdf, pdf);
  run("pdftoppm -r 36 -gray -png " + quoted(pdf) + " " + quoted(dir_ / "page"));
  int pages = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (entry.path().extension() != ".png") continue;
    ++pages;
    const QImage image(QString::fromStdString(entry.path().string()));
    ASSERT_FALSE(image.isNull()) << entry.path();
    const int margin = static_cast<int>(15.0 / 25.4 * 36.0) - 1;  // 15 mm at 36 dpi, less a pixel
    int ink = 0;
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        const bool in_margin = x < margin || y < margin || x >= image.width() - margin || y >= image.height() - margin;
        if (in_margin && qGray(image.pixel(x, y)) < 200) ++ink;
      }
    }
    EXPECT_EQ(ink, 0) << entry.path().filename();
  }
  EXPECT_GE(pages, 8);
  // The latency CDFs come six tenants to a figure, so each panel keeps legible axes.
  std::string text;
  for (const auto& page : pdf_pages(pdf)) text += page;
  EXPECT_NE(text.find("Latency CDF per tenant (1 of 3)"), std::string::npos);
  EXPECT_NE(text.find("Latency CDF per tenant (3 of 3)"), std::string::npos);
  EXPECT_NE(text.find("latency, s"), std::string::npos);
}

TEST_F(ReportFiles, PdfHoldsEverySectionToItsLastLine) {
  // Qt lays a document out lazily: the blocks after the appendix's page break once kept a height
  // of 0 and never reached the PDF (the methodology too, in a longer report).
  if (!have_tool("pdftotext") || !have_tool("pdfinfo")) GTEST_SKIP() << "poppler-utils is not installed";
  const auto r = report_of("mixed-mig-h100.json");
  ASSERT_FALSE(r.deploy_configs.empty());
  const auto pdf = dir_ / "roi.pdf";
  write_report(r, ReportFormat::pdf, pdf);
  std::string text;
  for (const auto& page : pdf_pages(pdf)) text += page;
  for (const char* section :
       {"Executive summary", "Strategies", "Tenants", "Energy", "Figures", "Assumptions and provenance", "Methodology",
        "Appendix: where the workload figures come from", "Appendix: deployable configs"}) {
    EXPECT_NE(text.find(section), std::string::npos) << section;
  }
  // The appendix lists the files and what each does; their text is not in the PDF.
  for (const auto& file : r.deploy_configs) {
    EXPECT_NE(text.find(file.name), std::string::npos) << file.name;
    EXPECT_NE(text.find(report::config_file_purpose(file.name).substr(0, 30)), std::string::npos) << file.name;
  }
  EXPECT_EQ(text.find("apiVersion"), std::string::npos);
  EXPECT_NE(text.find("Generated by slicewise."), std::string::npos);
}

TEST_F(ReportFiles, PdfTablesKeepAmountsWholeAndHeaderWordsUnsplit) {
  if (!have_tool("pdftotext")) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
  const auto r = seed_report();
  const auto pdf = dir_ / "roi.pdf";
  write_report(r, ReportFormat::pdf, pdf);
  const auto lines = lines_of(run("pdftotext -layout " + quoted(pdf) + " -"));
  // The tables' pages: from the strategies' heading to the figures'.
  const auto heading = [&](const std::string& title) {
    return std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return trimmed(l) == title; });
  };
  const auto begin = heading("Strategies"), end = heading("Figures");
  ASSERT_NE(begin, lines.end());
  ASSERT_NE(end, lines.end());
  const std::vector<std::string> region(begin, end);
  std::string text;
  for (const auto& line : region) text += line + "\n";
  std::vector<std::string> amounts;
  for (const auto& s : r.strategies) {
    amounts.push_back(report::format_usd(s.monthly_usd));
    amounts.push_back(report::format_usd(s.monthly_savings_usd));
  }
  for (const auto& t : r.tenants) amounts.push_back(report::format_usd(t.monthly_chargeback_usd));
  for (const auto& amount : amounts) EXPECT_NE(text.find(amount), std::string::npos) << amount << " is not whole";
  const auto tokens = tokens_of(region);
  static const std::regex whole_amount(R"(-?\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2})");
  for (const auto& token : tokens) {
    if (token.rfind("$", 0) == 0 && token.size() > 1 && token[1] != '/') {
      EXPECT_TRUE(std::regex_match(token, whole_amount)) << token << " is part of an amount";
    }
  }
  // Every header word whole; no token a piece of one ("strateg", "violatio").
  std::set<std::string> header_words;
  for (const auto& t : report::report_tables(r)) {
    if (t.id != "strategies" && t.id != "tenants") continue;
    for (const auto& column : t.columns) {
      std::istringstream words(column);
      for (std::string word; words >> word;) header_words.insert(word);
    }
  }
  for (const auto& word : header_words) EXPECT_TRUE(tokens.count(word)) << "header word \"" << word << "\" is split";
  for (const auto& token : tokens) {
    if (token.size() < 3 || header_words.count(token)) continue;
    for (const auto& word : header_words) {
      EXPECT_FALSE(word.size() > token.size() && word.rfind(token, 0) == 0)
          << "\"" << token << "\" is a piece of the header word \"" << word << "\"";
    }
  }
}

TEST_F(ReportFiles, PdfFiguresAreVectorChartsWithNiceTickLabels) {
  if (!have_tool("pdftotext") || !have_tool("pdftoppm") || !have_tool("pdfinfo"))
    GTEST_SKIP() << "poppler-utils (pdftotext, pdftoppm, pdfinfo) is not installed";
  const auto r = seed_report();
  const auto pdf = dir_ / "roi.pdf";
  write_report(r, ReportFormat::pdf, pdf);
  const auto pages = pdf_pages(pdf);
  ASSERT_FALSE(pages.empty());
  std::size_t page = 0;
  while (page < pages.size() && pages[page].find("Monthly cost per strategy") == std::string::npos) ++page;
  ASSERT_LT(page, pages.size()) << "no page holds the cost figure";
  // The chart's labels are text on the page: the axis ticks (as the SVG has them) and the bars' values.
  const auto tokens = tokens_of(lines_of(pages[page]));
  const auto ticks = tick_labels(svg_texts(figure_svg(r, figure_named(report::report_figures(r), "cost"), 900, 480)));
  expect_nice_ticks(ticks, "cost axis");
  for (const auto& [label, value] : ticks)
    EXPECT_TRUE(tokens.count(label)) << "tick " << label << " on page " << page + 1;
  for (const auto& s : r.strategies) EXPECT_TRUE(tokens.count(report::format_usd(s.monthly_usd, 0))) << s.name;
  // And the bars are drawn: the first series colour over a good part of the page.
  const auto png = dir_ / "page";
  run("pdftoppm -r 50 -png -singlefile -f " + std::to_string(page + 1) + " -l " + std::to_string(page + 1) + " " +
      quoted(pdf) + " " + quoted(png));
  const QImage image(QString::fromStdString(png.string() + ".png"));
  ASSERT_FALSE(image.isNull());
  const QColor bar = series_colour(0);
  int bar_pixels = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - bar.red()) <= 8 && std::abs(c.green() - bar.green()) <= 8 &&
          std::abs(c.blue() - bar.blue()) <= 8)
        ++bar_pixels;
    }
  }
  EXPECT_GT(bar_pixels, 500);
  // The executive summary says where its figures come from, in the PDF too.
  EXPECT_NE(pages[0].find("Where these figures come from"), std::string::npos);
}

TEST(ReportRender, TheMigLayoutStaysInsideItsRect) {
  const auto r = report_of("mixed-mig-h100.json");
  const auto figures = report::report_figures(r);
  const auto& figure = figure_named(figures, "mig-layout");
  for (const int width : {900, 420}) {
    const int height = figure_height(r, figure);
    const QRectF target(40, 40, width, height);
    const auto layout = mig_layout_geometry(r, target);
    ASSERT_EQ(layout.rows.size(), 2u);  // mig and mig_time_slicing, one H100 each
    for (const auto& row : layout.rows) {
      EXPECT_TRUE(target.contains(row.label)) << width;
      ASSERT_EQ(row.memory_slots.size(), 8u);
      const QRectF span = row.memory_slots.front().united(row.memory_slots.back());
      EXPECT_TRUE(target.contains(span)) << width;
      for (const auto& box : row.boxes) {
        EXPECT_TRUE(span.contains(box.rect)) << width << " " << box.text.toStdString();
        EXPECT_GT(box.rect.width(), 0.0);
      }
    }
    // Drawn into an image with a white margin around the target: nothing lands outside it.
    QImage image(width + 80, height + 80, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    draw_figure(r, figure, painter, target);
    painter.end();
    int outside = 0, inside = 0;
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        const bool white = image.pixel(x, y) == qRgb(255, 255, 255);
        if (target.contains(QPointF(x + 0.5, y + 0.5))) inside += white ? 0 : 1;
        else outside += white ? 0 : 1;
      }
    }
    EXPECT_EQ(outside, 0) << width;
    EXPECT_GT(inside, 1000) << width;
  }
}

TEST(ReportRender, SevenStrategiesLongNamesShowWholeUnderTheBars) {
  // Seven strategies named as a sweep or the advisor names them: at a figure's least width in the
  // GUI (720 px) Qt Charts shortened them to fit their categories ("mig_time_sl..."); the labels
  // turn instead.
  auto r = report_of("mixed-mig-h100.json");
  const std::vector<std::string> names = {"dedicated-baseline",  "time_slicing-x10",    "mps-50pct-threads",
                                          "mig-3g.40gb+2g.20gb", "mig_time_slicing-x4", "hami-25pct-cores",
                                          "vgpu-best-effort-8q"};
  while (r.strategies.size() < names.size()) r.strategies.push_back(r.strategies.back());
  for (std::size_t i = 0; i < names.size(); ++i) r.strategies[i].name = names[i];
  const auto figures = report::report_figures(r);
  for (const char* id : {"cost", "savings"}) {
    const auto& figure = figure_named(figures, id);
    for (const int width : {kFigureWidth, 720}) {
      QImage image(width, figure_height(r, figure), QImage::Format_ARGB32);
      QPainter painter(&image);
      const FigureDrawn drawn = draw_figure(r, figure, painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
      EXPECT_EQ(drawn.shortened_labels, 0) << id << " at " << width << " px";
    }
  }
}

TEST(ReportRender, TheSummarySaysWhereItsFiguresComeFrom) {
  const auto html = report_html(seed_report());
  EXPECT_NE(html.find("<h3>Where these figures come from</h3>"), std::string::npos);
  EXPECT_NE(html.find("<li>Seed: 42</li>"), std::string::npos);
  EXPECT_NE(html.find("<li>time_slicing: fleet as given (1 GPU)</li>"), std::string::npos);
  EXPECT_NE(html.find("<li>g6e.2xlarge: $2.24208/h on-demand, aws us-east-1, price retrieved 2026-11-22; its source "
                      "gives no snapshot date"),
            std::string::npos);
  // Amounts never wrap in the HTML either, and wide tables scroll in their wrapper.
  EXPECT_NE(html.find("td.num { white-space: nowrap; }"), std::string::npos);
  EXPECT_NE(html.find("<div class=\"table-wrap\"><table>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">$1,515.25</td>"), std::string::npos);
}

TEST(ReportRender, ASweepsSavingsAreLinesAgainstTheSweptNumber) {
  auto r = seed_report();
  report::SweepSection sweep;
  sweep.name = "users";
  sweep.axes = {"users"};
  sweep.strategies = {"dedicated", "time_slicing"};
  sweep.detail_point = "p0000";
  for (int i = 0; i < 8; ++i) {
    report::SweepSection::Row row;
    row.point = "p000" + std::to_string(i);
    row.labels = {std::to_string(2 * (i + 1))};
    row.savings_usd = {0.0, 1500.0 - 100.0 * i};
    row.sla_met = {i < 6, i < 6};
    sweep.rows.push_back(row);
  }
  report::add_sweep(r, sweep);
  const auto texts = svg_texts(figure_svg(r, figure_named(report::report_figures(r), "sweep-savings"), 900, 480));
  EXPECT_NE(std::find(texts.begin(), texts.end(), "users"), texts.end());  // the x axis' title
  for (const char* tick : {"2", "4", "6", "8", "10", "12", "14", "16"})
    EXPECT_NE(std::find(texts.begin(), texts.end(), tick), texts.end()) << tick;
  const bool noted = std::any_of(texts.begin(), texts.end(),
                                 [](const std::string& t) { return t.find("hollow markers") != std::string::npos; });
  EXPECT_TRUE(noted);  // two points miss an SLA
}

/// The mixed MIG result with faults at the Llama 3 GPU failure rate (each strategy's record filled
/// by hand: every tenant 99.877 % available), a long measured source for llm-8b's workload, and a
/// fifth strategy, mig-day-night, re-partitioning the static mig's GPU between a day and a night
/// layout: every section the report can have.
report::RoiReport faults_and_schedule_report() {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/mixed-mig-h100.json");
  result.input.faults = scenario::FaultSpec{};
  result.input.tenants[0].workload.source =
      "dcgm-prometheus: dcgm-exporter-h100.prom, 4 busy samples of 4; gpu_duty_frac 0.700 ± 0.100, "
      "sm_occupancy_frac 0.800 ± 0.000, mem_bw_frac 0.500 ± 0.000, memory_gib max 41.000";
  test::add_day_night_strategy(result, 0);
  for (auto& s : result.strategies) {
    scenario::FaultRecord record;
    record.expected = {{"gpu_failure", 0.0088 * s.num_gpus_used, 1.0, 1.0, 3630.0}};
    record.expected_blast_radius = 1.0;
    for (const auto& t : s.tenants) record.tenants.push_back({t.name, 0.0088, 0.9, 0.9987654});
    s.faults = record;
  }
  scenario::FaultEvent repartition;
  repartition.at_s = 900.0;
  repartition.kind = "repartition";
  repartition.outage_s = 60.0;
  result.strategies.back().faults->events = {repartition};
  result.strategies.back().faults->num_repartitions = 1;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return report::build_roi_report(result, report::cost_result(result, result.input, table, result.input.pricing.option),
                                  &table);
}

TEST(ReportRender, HtmlHasTheAvailabilityScheduleAndWorkloadSections) {
  const auto html = report_html(faults_and_schedule_report());
  for (const char* text :
       {"<h2>Availability and blast radius</h2>\n<p>Fault rates: GPU failures 1.21e-5 per GPU-hour",
        "<h3>Faults per strategy</h3>", "<h3>Availability per tenant</h3>", "<td class=\"num\">99.877</td>",
        "<li>mig: MIG instances are hardware partitions", "<h2>MIG layout schedule</h2>", "<h3>Phases</h3>",
        "<td>llm-8b 7g.80gb; waiting: vision-resnet50, notebook-alice, notebook-bob</td>",
        "<h2>Appendix: where the workload figures come from</h2>", "<td>given in the scenario</td>",
        "memory_gib max 41.000</td>"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  // The sections come after the report's tables and before the figures.
  EXPECT_LT(html.find("<h2>Energy</h2>"), html.find("<h2>Availability and blast radius</h2>"));
  EXPECT_LT(html.find("<h2>MIG layout schedule</h2>"), html.find("<h2>Figures</h2>"));
  // Without faults or a schedule, neither section.
  const auto plain = report_html(seed_report());
  EXPECT_EQ(plain.find("Availability and blast radius"), std::string::npos);
  EXPECT_EQ(plain.find("MIG layout schedule"), std::string::npos);
  EXPECT_NE(plain.find("<h2>Appendix: where the workload figures come from</h2>"), std::string::npos);
}

TEST_F(ReportFiles, PdfHasTheAvailabilityScheduleAndWorkloadSectionsWithTheirValues) {
  if (!have_tool("pdftotext") || !have_tool("pdfinfo")) GTEST_SKIP() << "poppler-utils is not installed";
  const auto pdf = dir_ / "roi.pdf";
  write_report(faults_and_schedule_report(), ReportFormat::pdf, pdf);
  std::string text;
  for (const auto& page : pdf_pages(pdf)) text += page;
  for (const char* value : {"Availability and blast radius", "Faults per strategy", "Availability per tenant", "99.877",
                            "MIG layout schedule", "20:30", "7g.80gb", "Appendix: where the workload figures come from",
                            "given in the scenario"}) {
    EXPECT_NE(text.find(value), std::string::npos) << value;
  }
  // The long source wraps within the page instead of running past its edge in one line.
  const auto lines = lines_of(text);
  const auto first = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("exporter-h100.prom,") != std::string::npos;  // Qt may break after "dcgm-"
  });
  ASSERT_NE(first, lines.end());
  EXPECT_EQ(first->find("41.000"), std::string::npos) << *first;
  EXPECT_TRUE(tokens_of(lines).count("41.000"));
}

TEST(ReportRender, TheMigLayoutHasARowPerPhaseOfASchedule) {
  const auto r = faults_and_schedule_report();
  const auto figures = report::report_figures(r);
  const auto& figure = figure_named(figures, "mig-layout");
  EXPECT_EQ(figure.caption,
            "Instances per GPU on the memory slices they occupy, with their tenants; under a layout schedule, a row "
            "per phase and GPU.");
  // mig, mig_time_slicing, and mig-day-night's day and night layouts of its one GPU.
  EXPECT_EQ(figure_height(r, figure), 60 + 90 * 4);
  const auto layout = mig_layout_geometry(r, QRectF(0, 0, 900, figure_height(r, figure)));
  ASSERT_EQ(layout.rows.size(), 4u);
  EXPECT_EQ(layout.rows[2].label_text.toStdString(), "mig-day-night, day\ngpu0 (H100-SXM-80GB)");
  EXPECT_EQ(layout.rows[2].boxes.size(), 4u);
  EXPECT_EQ(layout.rows[3].label_text.toStdString(), "mig-day-night, night\ngpu0 (H100-SXM-80GB)");
  ASSERT_EQ(layout.rows[3].boxes.size(), 1u);
  EXPECT_EQ(layout.rows[3].boxes[0].text.toStdString(), "7g.80gb\nllm-8b");
}

TEST(ReportRender, FormatNames) {
  EXPECT_EQ(report_format_from(".PDF", "--out"), ReportFormat::pdf);
  EXPECT_EQ(report_format_from("markdown", "--format"), ReportFormat::markdown);
  EXPECT_EQ(test::error_of([] { report_format_from(".docx", "--out r.docx"); }),
            "--out r.docx: unknown report format \".docx\"; expected md|html|pdf|xlsx");
}

}  // namespace
}  // namespace slicewise::render
