// The ROI report built from a priced result (its content, report/roi_content.hpp, is shared by
// every format: Markdown here; HTML and PDF in report/render; XLSX in report/xlsx_report), its
// figures, tables and sections. docs/reports.md explains each section and the recommendation rule.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/costing.hpp"
#include "report/roi_content.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// The appendix's opening sentence: what the deployable configs are and how to get them as files.
std::string appendix_intro(const RoiReport& report);

/// Builds the report. The recommendation is the strategy with the largest monthly savings among
/// those that meet every tenant's SLA and have no rejection (no out-of-memory risk, no unplaceable
/// context, no tenant with less isolation than it requires; ties: fewer GPUs, then result order);
/// the baseline is recommended when no other strategy qualifies. `table` is the price table
/// `costs` came from, for each price's own date and source (RoiReport::priced_items); without it a
/// shipped table of the same name is used where its prices are the ones in `costs`, and otherwise
/// the table's date.
RoiReport build_roi_report(const scenario::SimResult& result, const CostReport& costs,
                           const pricing::PriceTable* table = nullptr);

/// The report's assumptions, a line each: the prices (`prices` says which), the simulation, each
/// tenant's load and SLA, the calibration and its constants, each strategy's issues.
std::vector<std::string> assumptions_of(const RoiReport& r, const scenario::SimResult& result, const CostReport& costs,
                                        const std::string& prices);
/// How the report's figures were made, a paragraph each.
std::vector<std::string> methodology();

/// Every price `costs` used, once each, in order of first use, each with its own date and source
/// from `table` (or the shipped table of the costs' name when its price is the one used).
std::vector<PricedItem> priced_items_of(const CostReport& costs, const pricing::PriceTable* table);

/// "Where these figures come from", one line each: every priced item with its price, option,
/// table, region, date and source; the calibration profile; the seed; and per strategy whether its
/// fleet was taken as given or sized to the SLA, with its GPUs.
std::vector<std::string> provenance_lines(const RoiReport& report);

/// The line above the summary sentences: "Recommended strategy: mig (MIG 3g.40gb+3g.40gb)", its
/// label and its mechanism with the settings that define it (configuration_text), or from a sweep
/// "Recommended strategy at point p0003 (users=8): mps (MPS with 50 % active threads)"; "" when
/// nothing is recommended.
std::string recommended_headline(const RoiReport& report);

/// Makes `report` (of the sweep's detailed point) the report of the whole sweep: sets its title and
/// sweep section, and opens each summary sentence with the whole sweep against its swept values
/// (docs/reports.md): which strategy is recommended at how many points; each shared strategy's
/// savings at the first and last point and where it meets every SLA ("up to users=12" when one
/// numeric axis is swept); where no strategy meets every SLA. The detailed point's sentences follow.
void add_sweep(RoiReport& report, SweepSection sweep);

/// The numbers of axis `axis`'s labels, one per row of `sweep` (a failed row's too); empty when a
/// label is not a plain number ("2", "0.5", "1e3"), so that the axis is categorical.
std::vector<double> sweep_axis_numbers(const SweepSection& sweep, std::size_t axis);
/// "load=2, gpus=4": a point's value on each axis, as many as there are both axes and labels.
std::string axis_values(const std::vector<std::string>& axes, const std::vector<std::string>& labels);

/// build_roi_report of `result` priced the way `scenario` says: its price table (a shipped one, or
/// a file relative to Scenario::source_file), region and option. Throws ConfigError when the table
/// cannot be loaded or lacks a price under the option.
RoiReport priced_roi_report(const scenario::SimResult& result, const scenario::Scenario& scenario);

/// Index of the recommended strategy among `strategies` by the report's rule; -1 when none.
int recommend(const std::vector<StrategySummary>& strategies);

/// The figures a report has, in order (MIG layout only when a strategy uses MIG; latency CDF only
/// when the result carries latency quantiles, one figure per kCdfPanelsPerFigure tenants).
std::vector<Figure> report_figures(const RoiReport& report);

/// The report's tables in order: business view, sweep (from a sweep folder only), strategies,
/// tenants, energy, uncertainty (when sampled).
std::vector<ReportTable> report_tables(const RoiReport& report);

/// The sections after the report's tables, in order (docs/reports.md): "Availability and blast
/// radius" when the scenario has faults (or a strategy's fault record holds more than
/// re-partitions), "MIG layout schedule" when a strategy has a layout schedule, "Spot interruptions
/// and autoscaling" when the report is on spot or a strategy was sized by the hour; none otherwise.
std::vector<ReportSection> report_sections(const RoiReport& report);

/// The appendix's table "Appendix: where the workload figures come from": every tenant's
/// gpu_duty_frac, sm_occupancy_frac, mem_bw_frac and memory_gib as simulated, with their source
/// (Workload::source; "given in the scenario" when it has none). In every report.
ReportTable workload_sources_table(const RoiReport& report);

/// The report as GitHub-flavoured Markdown; figures link to `figure.file`.
std::string roi_report_markdown(const RoiReport& report, const std::vector<Figure>& figures);

}  // namespace slicewise::report
