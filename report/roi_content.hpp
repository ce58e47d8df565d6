// What the ROI report says, as data: its strategies, tenants, prices, sweep, figures, tables and
// sections, computed once (report/roi_report.hpp builds it) and read by every part that writes
// it: its answer sentence, Markdown, HTML, PDF and XLSX.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/costing.hpp"
#include "report/deploy_config.hpp"
#include "report/energy_summary.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// One strategy's row of the report.
struct StrategySummary {
  std::string name;
  std::string kind;
  std::string isolation;  ///< "none" | "software" | "hardware" (docs/design.md §9 isolation matrix)
  int num_gpus = 0;
  double monthly_usd = 0.0;
  double monthly_savings_usd = 0.0;  ///< against the baseline
  double annual_savings_usd = 0.0;
  double savings_frac = 0.0;
  double fleet_busy_frac = 0.0;
  double fleet_sm_util_frac = 0.0;
  /// The strategy's GPU energy over a 730-hour month (scenario/energy.hpp); nullopt when a GPU it
  /// uses has no TDP in the catalog.
  std::optional<double> monthly_kwh;
  std::int64_t num_arrived = 0;
  std::int64_t num_violations = 0;
  double sla_violation_frac = 0.0;  ///< violations / arrivals over every tenant
  int num_tenants_missing_sla = 0;
  bool sla_met = true;  ///< every tenant within its allowed violation fraction, all placed
  std::vector<std::string> issues;
  /// Why the strategy cannot be recommended whatever its SLA and cost: an out-of-memory risk, an
  /// unplaceable context, a tenant sharing a device with less isolation than it requires.
  std::vector<std::string> rejections;
  double cost_per_1k_in_sla_usd = 0.0;  ///< the equal-work figure: per 1,000 requests served within SLA
};

/// One tenant under one strategy.
struct TenantRow {
  std::string strategy;
  std::string tenant;
  double p50_s = 0.0;
  double p95_s = 0.0;
  double p99_s = 0.0;
  double sla_target_s = 0.0;  ///< end-to-end latency target; 0 when none
  double sla_violation_frac = 0.0;
  double sla_max_violation_frac = 0.0;
  bool sla_met = true;
  std::int64_t num_arrived = 0;  ///< measured arrivals; 0: nothing judged (scenario::sla_word)
  double monthly_chargeback_usd = 0.0;
  std::optional<double> slowdown_p95;  ///< latency / solo time; none when nothing completed
  std::optional<double> ttft_p95_s;    ///< LLM workloads only
  std::optional<double> tpot_p95_s;    ///< LLM workloads with a decode phase only
};

/// One price the report's costs used (an instance type, or a licence), with where it comes from:
/// the executive summary's "Where these figures come from" lists them.
struct PricedItem {
  std::string name;           ///< instance type ("g6e.2xlarge") or licence name
  std::string role;           ///< "gpu", "sidecar" or "licence" (pricing::CostLine::role)
  std::string region;         ///< "" for a licence
  double usd_per_hour = 0.0;  ///< per instance under the report's purchase option; per GPU for a licence
  /// The price's own date and source: an instance's spot and reserved prices have theirs
  /// (pricing::InstancePrice::spot_as_of, ...); the table's date and no source when the table
  /// behind the costs is not known.
  std::string as_of;
  std::string source;
  /// Its price under each purchase option (pricing::PurchaseOption order: on-demand, spot, 1- and
  /// 3-year reserved), nullopt where the table has none: the XLSX switches between them. A licence
  /// costs the same under each.
  std::array<std::optional<double>, 4> option_usd_per_hour;
};

/// A sweep's overview, when the report is made from a sweep folder.
struct SweepSection {
  std::string name;
  std::vector<std::string> axes;
  std::vector<std::string> strategies;
  struct Row {
    std::string point;
    std::vector<std::string> labels;  ///< one per axis
    std::vector<double> savings_usd;  ///< monthly, one per strategy (NaN when the point lacks it)
    std::vector<bool> sla_met;        ///< one per strategy
    std::vector<double> monthly_usd;  ///< monthly cost, one per strategy (NaN when the point lacks it)
    std::vector<int> num_gpus;        ///< one per strategy (0 when the point lacks it)
    std::string recommended;          ///< by the same rule as the report's; "" when none qualifies
    bool failed = false;
  };
  std::vector<Row> rows;
  std::string detail_point;  ///< the point the rest of the report details
};

struct RoiReport {
  std::string title;  ///< "ROI report: <scenario>"
  std::string scenario;
  std::string description;  ///< the scenario's own description
  scenario::SimResult result;
  CostReport costs;
  std::vector<StrategySummary> strategies;  ///< result order
  std::vector<TenantRow> tenants;           ///< strategy-major, result order
  int baseline = -1;                        ///< index of the baseline strategy; -1 when sized (not simulated)
  int recommended = -1;                     ///< index; -1 when no shared strategy meets every SLA
  /// The answer in one sentence a reader can repeat: configuration, cost, saving like for like, SLA
  /// risk and model confidence (report/report_answer.hpp); the report opens with it.
  std::string answer;
  /// Executive summary: one sentence each.
  std::string recommendation;
  /// Which answer this is: the advisor's search or the strategies as given (scope_text).
  std::string scope;
  std::string savings;
  /// From a sweep folder: each strategy's savings across the points, a sentence each, shown as
  /// points under the savings sentence (they were one run-on sentence); empty otherwise.
  std::vector<std::string> sweep_savings;
  std::string sla_risk;
  std::string sla_risk_level;  ///< "low", "moderate", "high", "not stated"; "" when nothing is recommended
  /// The strategies rejected (StrategySummary::rejections) and why; "" when none was.
  std::string rejected;
  /// Assumptions and provenance, one line each (price table and as_of, calibration, load sources).
  std::vector<std::string> assumptions;
  /// Methodology paragraphs.
  std::vector<std::string> methodology;
  std::optional<SweepSection> sweep;
  /// Every price the costs used, in order of first use (strategies in result order, then the sized
  /// baseline's).
  std::vector<PricedItem> priced_items;
  /// Each strategy's energy and electricity at the shipped on-prem table's price and PUE: the
  /// report's Energy table (information for a cloud run).
  EnergySummary energy;
  /// The recommended strategy's deployable configs (`slicewise export-config`), for the appendix;
  /// empty when nothing is recommended.
  std::vector<ConfigFile> deploy_configs;
};

/// A figure of the report, drawn by report/render.
struct Figure {
  std::string id;  ///< "cost", "savings", "latency-cdf" (then "latency-cdf-2", ...), "utilization", "mig-layout"
  std::string title;
  std::string caption;
  std::string file;  ///< path the Markdown links to (relative to the .md file)
  /// A latency-CDF figure's tenants, one panel each (kCdfPanelsPerFigure at most); empty otherwise.
  std::vector<std::string> tenants;
};

/// Panels of one latency-CDF figure: three rows of two, so that a panel keeps legible axes on a
/// PDF page; more tenants get more figures ("Latency CDF per tenant (2 of 3)").
inline constexpr std::size_t kCdfPanelsPerFigure = 6;

/// A table of the report, already formatted, shared by every format.
struct ReportTable {
  std::string id;  ///< "sweep", "strategies", "tenants", "energy", "uncertainty", "faults", ...
  std::string title;
  std::string intro;  ///< a sentence above the table; may be empty
  std::vector<std::string> columns;
  std::vector<bool> numeric;  ///< right-aligned columns
  std::vector<std::vector<std::string>> rows;
  /// Columns of free text that wrap at spaces in the HTML and PDF (a workload's source, a phase's
  /// tenants); every other cell stays on one line. Empty: none wraps.
  std::vector<bool> wrap;
};

/// A section of sentences and tables after the report's tables, shared by every format.
struct ReportSection {
  std::string id;  ///< "availability", "mig-schedule"
  std::string title;
  std::vector<std::string> paragraphs;  ///< above its tables
  std::vector<ReportTable> tables;      ///< each under its own title, a heading below the section's
  std::vector<std::string> notes;       ///< below its tables, a point each (one per strategy)
};

}  // namespace slicewise::report
