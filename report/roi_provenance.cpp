// The ROI report's assumptions, methodology and provenance: the prices, simulation, each tenant's
// load and SLA, the calibration; every price with its own date and source, the seed, each
// strategy's fleet and where the workload figures come from (see roi_report.hpp).
#include <algorithm>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "pricing/licences.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::report {

namespace {

/// "on-demand", "spot", "1-year reserved", "3-year reserved".
std::string option_text(pricing::PurchaseOption option) {
  switch (option) {
    case pricing::PurchaseOption::on_demand: return "on-demand";
    case pricing::PurchaseOption::spot: return "spot";
    case pricing::PurchaseOption::reserved_1y: return "1-year reserved";
    case pricing::PurchaseOption::reserved_3y: return "3-year reserved";
  }
  return pricing::to_string(option);
}

/// The price table row behind `line`: in `table` when given; otherwise in the shipped table of the
/// costs' table name, provided it has the very price the costs used (a user table may share the
/// name); nullptr when unknown.
const pricing::InstancePrice* price_row(const CostReport& costs, const pricing::PriceTable* table,
                                        const pricing::CostLine& line) {
  const pricing::PriceTable* source = table;
  if (!source) {
    try {
      source = pricing::find_shipped_price_table(costs.table);
    } catch (const Error&) {
      source = nullptr;  // no shipped tables to read: the table's date stands for every price
    }
  }
  const pricing::InstancePrice* row = source ? source->find(line.instance_type, line.region) : nullptr;
  if (!row || table) return row;
  const auto price = row->usd_per_hour(costs.option);
  return price && std::abs(*price - line.usd_per_hour_each) <= 1e-9 * std::max(1.0, *price) ? row : nullptr;
}

/// `line` as a priced item: its price's own date and source (spot and reserved prices have theirs).
PricedItem priced_item(const CostReport& costs, const pricing::PriceTable* table, const pricing::CostLine& line) {
  PricedItem item;
  item.name = line.instance_type;
  item.role = line.role;
  item.region = line.region;
  item.usd_per_hour = line.usd_per_hour_each;
  item.as_of = costs.as_of;
  item.option_usd_per_hour[static_cast<std::size_t>(costs.option)] = line.usd_per_hour_each;
  if (line.role == "licence") {
    item.option_usd_per_hour.fill(line.usd_per_hour_each);
    for (const auto& licence : pricing::shipped_licences().licences) {
      if (licence.name == line.instance_type) item.as_of = licence.as_of, item.source = licence.source;
    }
    return item;
  }
  const auto* row = price_row(costs, table, line);
  if (!row) return item;
  for (const auto& [name, option] : pricing::purchase_option_table()) {
    if (option != costs.option) item.option_usd_per_hour[static_cast<std::size_t>(option)] = row->usd_per_hour(option);
  }
  item.as_of = row->as_of;
  item.source = row->source;
  const bool spot = costs.option == pricing::PurchaseOption::spot;
  const bool reserved =
      costs.option == pricing::PurchaseOption::reserved_1y || costs.option == pricing::PurchaseOption::reserved_3y;
  const std::string& own_as_of = spot ? row->spot_as_of : reserved ? row->reserved_as_of : row->as_of;
  const std::string& own_source = spot ? row->spot_source : reserved ? row->reserved_source : row->source;
  if (!own_as_of.empty()) item.as_of = own_as_of;
  if (!own_source.empty()) item.source = own_source;
  return item;
}

/// A price's date as a reader can use it: "price as of 2025-11-30"; for a snapshot that carries
/// none, the day it was retrieved ("price retrieved 2026-11-22; its source gives no snapshot date")
/// rather than the table's wording ("catalog snapshot date not determinable from the file ...").
std::string price_date_text(const std::string& as_of) {
  const auto is_date = [](const std::string& s) {
    return s.size() == 10 && s[4] == '-' && s[7] == '-' &&
           std::all_of(s.begin(), s.end(), [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
  };
  if (is_date(as_of)) return "price as of " + as_of;
  if (const auto at = as_of.rfind("retrieved "); at != std::string::npos && is_date(as_of.substr(at + 10, 10))) {
    return "price retrieved " + as_of.substr(at + 10, 10) + "; its source gives no snapshot date";
  }
  return "price date: " + as_of;
}

/// "g6e.2xlarge: $2.24208/h on-demand, aws us-east-1, price as of 2025-11-30 (source: ...)".
std::string priced_item_text(const RoiReport& r, const PricedItem& item) {
  if (item.role == "licence") {
    return item.name + ": " + format_usd(item.usd_per_hour * kHoursPerMonth * 12.0, 0) + " per GPU-year (licence), " +
           price_date_text(item.as_of) + (item.source.empty() ? std::string() : " (source: " + item.source + ")");
  }
  return item.name + ": $" + format_number(item.usd_per_hour) + "/h " + option_text(r.costs.option) + ", " +
         r.costs.table + (item.region.empty() ? "" : " " + item.region) + ", " + price_date_text(item.as_of) +
         (item.source.empty() ? std::string() : " (source: " + item.source + ")");
}

/// Where the tenants' workload figures come from, in a line: given in the scenario, or how many
/// carry a source (`profile import` writes one); the appendix lists them.
std::string workload_provenance_text(const scenario::Scenario& input) {
  const auto sourced = std::count_if(input.tenants.begin(), input.tenants.end(),
                                     [](const scenario::Tenant& t) { return !t.workload.source.empty(); });
  const auto all = static_cast<long>(input.tenants.size());
  std::string where = "given in the scenario for every tenant";
  if (sourced == all && all > 0) {
    where = "every tenant's from the source its workload names";
  } else if (sourced > 0) {
    where = std::to_string(sourced) + " of " + std::to_string(all) +
            " tenants' from the source their workload names, the others given in the scenario";
  }
  return "Workload figures (GPU duty, SM occupancy, memory bandwidth, memory): " + where +
         "; the appendix lists them per tenant";
}

/// "fleet as given (4 GPUs)", "fleet sized to the SLA (2 GPUs)".
std::string fleet_text(const std::string& basis, int num_gpus) {
  const std::string gpus = plural(num_gpus, "GPU", "GPUs");
  if (basis == "sized for SLA") return "fleet sized to the SLA (" + gpus + ")";
  if (basis == "no SLA fleet")
    return "fleet sized to the SLA, which no fleet within its limit met: the closest (" + gpus + ") is priced";
  return "fleet as given (" + gpus + ")";
}

/// "closed_loop, 1 user, think 0 s" / "trace traces/x.csv (azure-llm), window 0..600 s, x2".
std::string load_text(const scenario::LoadSpec& load) {
  switch (load.kind) {
    case scenario::LoadKind::poisson:
      return "Poisson, " + format_number(load.rate_per_s * load.multiplier) + " requests/s";
    case scenario::LoadKind::closed_loop:
      return "closed loop, " + plural(load.num_users, "user", "users") + ", think time " +
             format_number(load.think_time_s) + " s";
    case scenario::LoadKind::diurnal:
      return "diurnal, daily mean " + format_number(load.rate_per_s * load.multiplier) + " requests/s";
    case scenario::LoadKind::mmpp:
      return "MMPP bursts, " + std::to_string(load.states.size()) + " states" +
             (load.multiplier != 1.0 ? ", x" + format_number(load.multiplier) : "");
    case scenario::LoadKind::trace: {
      std::string text = "trace " + load.trace_file + (load.trace_format.empty() ? "" : " (" + load.trace_format + ")");
      if (load.window_start_s > 0.0 || load.window_end_s) {
        text += ", window " + format_number(load.window_start_s) + ".." +
                (load.window_end_s ? format_number(*load.window_end_s) : std::string("end")) + " s";
      }
      if (!load.split_column.empty())
        text += ", rows with " + load.split_column + " in {" + join(load.split_values, ", ") + "}";
      if (load.multiplier != 1.0) text += ", x" + format_number(load.multiplier);
      if (load.time_compression != 1.0) text += ", time compressed x" + format_number(load.time_compression);
      if (load.sample_frac != 1.0) text += ", sampled " + format_percent(load.sample_frac, 0);
      return text;
    }
  }
  return "";
}

}  // namespace

std::vector<PricedItem> priced_items_of(const CostReport& costs, const pricing::PriceTable* table) {
  std::vector<PricedItem> items;
  std::set<std::string> seen;
  const auto add = [&](const pricing::CostLine& line) {
    if (line.count <= 0 || !seen.insert(line.role + "\n" + line.instance_type + "\n" + line.region).second) return;
    items.push_back(priced_item(costs, table, line));
  };
  for (const auto& strategy : costs.strategies) {
    for (const auto& line : strategy.lines) add(line);
  }
  for (const auto& line : costs.baseline_lines) add(line);
  return items;
}

std::vector<std::string> provenance_lines(const RoiReport& r) {
  std::vector<std::string> lines;
  for (const auto& item : r.priced_items) lines.push_back(priced_item_text(r, item));
  const auto& calibration = r.result.calibration;
  lines.push_back("Calibration profile: " + (calibration.profile_id.empty()
                                                 ? std::string("none (uncalibrated defaults)")
                                                 : calibration.profile_id));
  lines.push_back("Seed: " + std::to_string(r.result.seed));
  for (std::size_t i = 0; i < r.strategies.size(); ++i) {
    const auto& s = r.strategies[i];
    lines.push_back(s.name + ": " +
                    fleet_text(i < r.costs.fleet_basis.size() ? r.costs.fleet_basis[i] : "as given", s.num_gpus));
  }
  lines.push_back(workload_provenance_text(r.result.input));
  return lines;
}

std::vector<std::string> assumptions_of(const RoiReport& r, const scenario::SimResult& result, const CostReport& costs,
                                        const std::string& prices) {
  std::vector<std::string> lines;
  const auto& input = result.input;
  lines.push_back("Prices: " + prices + " (" + costs.currency + "); " + format_number(kHoursPerMonth) +
                  " hours per month; the baseline is " + costs.baseline + ".");
  lines.push_back("Simulation: " + format_number(result.horizon_s) + " s of arrivals (warm-up " +
                  format_number(input.warmup_s) + " s), seed " + std::to_string(result.seed) + ".");
  for (const auto& tenant : input.tenants) {
    std::string sla;
    if (tenant.sla.latency_s) sla += ", latency target " + format_number(*tenant.sla.latency_s) + " s";
    if (tenant.sla.ttft_s) sla += ", TTFT target " + format_number(*tenant.sla.ttft_s) + " s";
    if (tenant.sla.tpot_s) sla += ", TPOT target " + format_number(*tenant.sla.tpot_s) + " s";
    lines.push_back("Tenant " + tenant.name + ": " + load_text(tenant.load) + sla + ".");
  }
  if (!result.calibration.profile_id.empty()) {
    lines.push_back("Calibration: profile " + result.calibration.profile_id + ", worst fit MAPE " +
                    format_percent(result.calibration.fit_mape) + "; data: " +
                    (result.calibration.sources.empty() ? std::string("none (uncalibrated defaults)")
                                                        : join(result.calibration.sources, "; ")) +
                    ".");
    for (const auto& constant : result.calibration.constants) lines.push_back("Constant: " + constant + ".");
  }
  for (const auto& s : r.strategies) {
    for (const auto& issue : s.issues) lines.push_back("Issue under " + s.name + ": " + issue + ".");
  }
  return lines;
}

std::vector<std::string> methodology() {
  return {
      "Each strategy was simulated on its own with slicewise's discrete-event simulator (SimGrid): every request is "
      "an event, and between events each context on a device progresses at a rate set by the sharing strategy "
      "(time-slicing shares GPU time with a context-switch cost, MPS and MIG split SMs and memory bandwidth, MIG "
      "instances are isolated partitions). docs/model.md gives the equations.",
      "The constants of that rate model come from the calibration profile named above, fitted to measurements; its "
      "fit error is shown so that the figures can be weighed accordingly (docs/calibration.md, docs/validation.md).",
      "A strategy is priced by the GPUs its placement actually used, as the cheapest instances of the price table "
      "that carry them, plus its CPU sidecars; savings are the baseline's monthly cost minus the strategy's.",
      "A tenant meets its SLA when the fraction of its requests over any latency target (plus dropped and "
      "unfinished ones) stays within the fraction its environment allows. The recommended strategy is the one with "
      "the largest monthly savings among those that meet every tenant's SLA; a strategy with an out-of-memory risk, "
      "an unplaceable context or a tenant sharing a device with less isolation than it requires is never "
      "recommended, whatever its cost.",
  };
}

}  // namespace slicewise::report
