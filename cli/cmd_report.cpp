// `slicewise report RESULT.json|SWEEP_DIR --format md|html|pdf|xlsx --out FILE` (docs/reports.md).
#include <algorithm>
#include <limits>
#include <map>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/sweep_folder.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "pricing/roi.hpp"
#include "report/costing.hpp"
#include "report/render/report_render.hpp"
#include "report/roi_report.hpp"
#include "report/sweep_results.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;

CLI::App* setup_report(CLI::App& app, ReportOptions& options) {
  auto* sub = app.add_subcommand("report", "Write the ROI report of a result or a sweep folder (md, html, pdf, xlsx)");
  sub->add_option("input", options.input, "Result JSON (simulate --out) or sweep folder (sweep --out)")->required();
  sub->add_option("--out", options.out, "Report file to write")->required();
  plain_choices(sub->add_option("--format", options.format, "Report format"), {"md", "html", "pdf", "xlsx"},
                "from the extension of --out");
  sub->add_option("--point", options.point, "Sweep folder: the point to detail (default: the first that ran)");
  add_chargeback_option(*sub, options.chargeback);
  return sub;
}

namespace {

/// Prices a result with the price table its scenario names (relative paths against `scenario_file`),
/// tenants charged by `chargeback`.
report::RoiReport priced_report(const scenario::SimResult& result, const fs::path& scenario_file,
                                const std::string& chargeback) {
  auto scenario = result.input;
  scenario.source_file = scenario_file;
  const auto table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  const auto model = pricing::chargeback_model_named(chargeback).value_or(pricing::ChargebackModel::reservation);
  return report::build_roi_report(result, report::cost_result(result, scenario, table, scenario.pricing.option, model),
                                  &table);
}

/// The point to detail: `wanted`, or else the first that finished. Throws ConfigError when there
/// is no such point.
const report::SweepPointRecord& detail_point(const report::SweepTable& table, const fs::path& folder,
                                             const std::string& wanted) {
  std::vector<std::string> ids;
  const report::SweepPointRecord* detail = nullptr;
  for (const auto& point : table.points) {
    ids.push_back(point.id);
    if (!detail && point.error.empty() && (wanted.empty() || point.id == wanted)) detail = &point;
  }
  if (detail) return *detail;
  if (!wanted.empty()) {
    throw ConfigError("--point", "",
                      "no finished point \"" + wanted + "\" in " + folder.string() + "; it has " +
                          (ids.empty() ? std::string("none") : join(ids, "|")) + did_you_mean_suffix(wanted, ids));
  }
  throw ConfigError(folder.string(), "", "no point of this sweep has finished yet; run `slicewise sweep` first");
}

/// A point's row of the sweep section: its savings and SLA verdict per strategy of `strategies`.
report::SweepSection::Row sweep_row(const report::SweepPointRecord& point, const std::vector<std::string>& strategies) {
  report::SweepSection::Row row;
  row.point = point.id;
  row.labels = point.labels;
  row.failed = !point.error.empty();
  for (const auto& name : strategies) {
    const report::StrategySummary* found = nullptr;
    for (const auto& s : point.strategies) {
      if (s.name == name) found = &s;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    row.savings_usd.push_back(found ? found->monthly_savings_usd : nan);
    row.sla_met.push_back(found && found->sla_met);
    row.monthly_usd.push_back(found ? found->monthly_usd : nan);
    row.num_gpus.push_back(found ? found->num_gpus : 0);
  }
  if (const int best = report::recommend(point.strategies); best >= 0) {
    row.recommended = point.strategies[static_cast<std::size_t>(best)].name;
  }
  return row;
}

report::RoiReport sweep_report(const fs::path& folder, const std::string& wanted, const std::string& chargeback) {
  const auto manifest = read_manifest(folder);
  std::map<std::size_t, report::SweepPointRecord> points;
  read_points(folder, manifest.at("fingerprint").get<std::string>(), manifest.at("num_points").get<std::size_t>(),
              points);
  const auto table = table_of(manifest, points);
  const auto& detail = detail_point(table, folder, wanted);
  const auto file = point_file(folder, detail.id).string();
  const auto document = read_json_file(file);
  if (!document.is_object() || !document.contains("result")) {
    throw ConfigError(file, "/", "missing required key \"result\" (a finished point keeps its full result there)");
  }
  const auto result = scenario::result_from_json(document.at("result"), file, "/result");
  auto roi = priced_report(result, manifest.value("base_file", std::string()), chargeback);

  report::SweepSection section;
  section.name = table.name;
  section.axes = table.axes;
  section.strategies = table.strategies;
  section.detail_point = detail.id;
  section.rows.reserve(table.points.size());
  for (const auto& point : table.points) section.rows.push_back(sweep_row(point, table.strategies));
  report::add_sweep(roi, std::move(section));  // the summary against the swept values (docs/reports.md)
  return roi;
}

}  // namespace

int run_report(const ReportOptions& options, Io io) {
  const fs::path out = options.out;
  const auto format = options.format.empty()
                          ? render::report_format_from(out.extension().string(), "--out " + options.out)
                          : render::report_format_from(options.format, "--format");
  const fs::path input = options.input;
  report::RoiReport roi;
  if (fs::is_directory(input)) {
    roi = sweep_report(input, options.point, options.chargeback);
  } else {
    if (!options.point.empty())
      throw ConfigError("--point", "", "applies only to a sweep folder, not to a result file");
    roi = priced_report(scenario::load_result(input), {}, options.chargeback);
  }
  if (!out.parent_path().empty() && !fs::is_directory(out.parent_path())) {
    throw ConfigError("--out", "", "folder does not exist: " + out.parent_path().string());
  }
  render::write_report(roi, format, out);
  io.out << "report written to " << out.string() << "\n";
  return 0;
}

}  // namespace slicewise::cli
