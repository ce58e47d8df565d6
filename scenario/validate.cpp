// Phase 2 of loading: semantic checks against the GPU, MIG and price catalogs.
#include "scenario/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/mig_layout.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"

namespace slicewise::scenario {

using models::StrategyKind;

namespace {

constexpr int kMaxMpsClients = 48;  // CUDA MPS clients per GPU (Volta and later)
// Bounds on the work one run may take, so that a slip of the keyboard (a rate of 1e308, a metrics
// interval of a microsecond) is refused at once instead of running out of memory or never ending.
constexpr double kMaxSeriesSamples = 100000;  // metrics intervals per time series
constexpr double kMaxEvents = 1000000000;     // expected arrivals per tenant; MMPP switches; exact quanta
// Placement tries every context on every device, and each placed device is a simulated actor.
constexpr std::int64_t kMaxFleetGpus = 10000;
constexpr std::int64_t kMaxContexts = 10000;

/// A count as digits ("100000", not "1e+05"); beyond 10^15 in shortest form ("6e+301", "inf").
std::string count_text(double value) {
  if (!(std::abs(value) < 1e15)) return format_number(value);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(value));
  return text;
}
constexpr double kNoLimit = std::numeric_limits<double>::infinity();

std::string gib(double value) { return format_number(value) + " GiB"; }

bool is_mig(StrategyKind kind) { return kind == StrategyKind::mig || kind == StrategyKind::mig_time_slicing; }

/// "unknown GPU "x" (did you mean "y"?)", or a pointer to `slicewise gpus` when nothing is close.
std::string unknown_gpu(const std::string& id, const models::GpuCatalog& gpus) {
  const auto hint = did_you_mean_suffix(id, gpus.ids());
  return "unknown GPU \"" + id + "\"" + (hint.empty() ? "; run \"slicewise gpus\" to list the known ones" : hint);
}

/// The StrategySpec fields that differ from their defaults, by JSON key.
std::vector<std::string> set_strategy_fields(const StrategySpec& s) {
  std::vector<std::pair<std::string, bool>> fields = {
      {"replicas", s.replicas != 0},
      {"quantum_ms", s.quantum_ms.has_value()},
      {"switch_cost_ms", s.switch_cost_ms.has_value()},
      {"exact", s.exact},
      {"active_thread_pct", s.active_thread_pct.has_value()},
      {"pinned_memory_limit_gib", s.pinned_memory_limit_gib.has_value()},
      {"layout", !s.layout.empty()},
      {"gpucores_pct", s.gpucores_pct.has_value()},
      {"gpumem_gib", s.gpumem_gib.has_value()},
      {"vgpu_scheduler", s.vgpu_scheduler != VgpuScheduler::best_effort},
      {"timeslice_ms", s.timeslice_ms.has_value()}};
  std::vector<std::string> set;
  for (const auto& [key, is_set] : fields) {
    if (is_set) set.push_back(key);
  }
  return set;
}

std::vector<std::string> set_setting_fields(const TenantStrategySettings& t) {
  std::vector<std::pair<std::string, bool>> fields = {{"mig_profile", !t.mig_profile.empty()},
                                                      {"active_thread_pct", t.active_thread_pct.has_value()},
                                                      {"gpucores_pct", t.gpucores_pct.has_value()},
                                                      {"gpumem_gib", t.gpumem_gib.has_value()},
                                                      {"weight", t.weight.has_value()}};
  std::vector<std::string> set;
  for (const auto& [key, is_set] : fields) {
    if (is_set) set.push_back(key);
  }
  return set;
}

bool looks_like_path(const std::string& table) {
  return table.find('/') != std::string::npos || table.find('\\') != std::string::npos ||
         (table.size() > 5 && table.ends_with(".json"));
}

class Checker {
 public:
  Checker(const Scenario& s, const Catalogs& c) : s_(s), c_(c), file_(s.source_file.string()) {}

  Diagnostics run() {
    try {
      table_ = resolve_price_table(s_, c_);
    } catch (const ConfigError& e) {
      pricing_problems_ = e.diagnostics();
    }
    for (std::size_t i = 0; i < s_.fleet.size(); ++i) fleet_entry(i);
    for (std::size_t i = 0; i < s_.tenants.size(); ++i) tenant(i);
    for (std::size_t i = 0; i < s_.strategies.size(); ++i) strategy(i);
    limits();
    out_.insert(out_.end(), pricing_problems_.begin(), pricing_problems_.end());
    pricing();
    return std::move(out_);
  }

 private:
  void add(std::string pointer, std::string message) {
    out_.push_back(Diagnostic{file_, 0, 0, std::move(pointer), std::move(message)});
  }

  /// Row of an instance type (in the scenario's region when it lists it), or nullptr with a
  /// diagnostic at `pointer` when the table lacks the type.
  const pricing::InstancePrice* instance(const std::string& type, const std::string& pointer) {
    if (!table_) return nullptr;
    const auto* row = table_->find(type, s_.pricing.region);
    if (!row) row = table_->find(type);
    if (!row) {
      add(pointer, "unknown instance type \"" + type + "\" in price table \"" + table_->name + "\"" +
                       did_you_mean_suffix(type, table_->instance_types()));
    } else {
      instances_used_.emplace_back(type, pointer);
    }
    return row;
  }

  void fleet_entry(std::size_t i) {
    const auto& e = s_.fleet[i];
    const std::string pointer = "/fleet/" + std::to_string(i);
    const models::GpuSpec* gpu = nullptr;
    int gpus_per_entry = 1;
    if (!e.instance_type.empty()) {
      const auto* row = instance(e.instance_type, pointer + "/instance_type");
      if (!row) return;
      if (!row->gpu || row->num_gpus <= 0) {
        add(pointer + "/instance_type",
            e.instance_type + " has no GPU (CPU-only instances belong in a strategy's \"sidecars\")");
        return;
      }
      gpu = c_.gpus->find(*row->gpu);
      gpus_per_entry = row->num_gpus;
      if (!gpu) add(pointer + "/instance_type", e.instance_type + ": " + unknown_gpu(*row->gpu, *c_.gpus));
      if (gpu && !e.gpu.empty() && c_.gpus->find(e.gpu) != gpu) {
        add(pointer + "/gpu", e.instance_type + " has " + gpu->id + ", not " + e.gpu);
      }
    } else {
      gpu = c_.gpus->find(e.gpu);
      if (!gpu) add(pointer + "/gpu", unknown_gpu(e.gpu, *c_.gpus));
    }
    if (!gpu) return;
    num_gpus_ += static_cast<std::int64_t>(gpus_per_entry) * e.count;
    if (std::find(fleet_gpus_.begin(), fleet_gpus_.end(), gpu) == fleet_gpus_.end()) fleet_gpus_.push_back(gpu);
  }

  /// The fleet GPU with the most memory; nullptr when no fleet GPU is known.
  const models::GpuSpec* largest_gpu() const {
    const models::GpuSpec* best = nullptr;
    for (const auto* gpu : fleet_gpus_) {
      if (!best || gpu->memory_gib > best->memory_gib) best = gpu;
    }
    return best;
  }

  void tenant(std::size_t i) {
    const auto& t = s_.tenants[i];
    const auto& w = t.workload;
    const std::string pointer = "/tenants/" + std::to_string(i);
    if (w.kind == WorkloadKind::generic && !w.solo_latency_s) {
      add(pointer + "/workload", "missing required key \"solo_latency_s\" (required for generic workloads)");
    }
    if ((w.kind == WorkloadKind::llm) != w.llm.has_value()) {
      add(pointer + "/workload", w.llm ? "\"llm\" is only allowed when \"kind\" is \"llm\""
                                       : "missing required key \"llm\" (required when \"kind\" is \"llm\")");
    }
    if (!w.reference_gpu.empty() && !c_.gpus->find(w.reference_gpu)) {
      add(pointer + "/workload/reference_gpu", unknown_gpu(w.reference_gpu, *c_.gpus));
    }
    if (const auto* largest = largest_gpu(); largest && w.memory_gib > largest->memory_gib) {
      too_big_.insert(i);
      const std::string where = fleet_gpus_.size() == 1
                                    ? largest->id + " (" + gib(largest->memory_gib) + ")"
                                    : "any fleet GPU (largest: " + largest->id + ", " + gib(largest->memory_gib) + ")";
      add(pointer + "/workload/memory_gib", gib(w.memory_gib) + " does not fit on " + where);
    }
    if (const auto problem = gpu_frac_demand_problem(t); !problem.empty()) add(pointer + "/load/gpu_frac_demand", problem);
    if (t.load.kind == LoadKind::trace && !t.load.trace_file.empty()) {
      const auto path = resolve_relative_path(s_, t.load.trace_file);
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) {
        add(pointer + "/load/trace_file", "trace file not found: " + path.string());
      } else if (std::filesystem::is_directory(path, ec)) {
        add(pointer + "/load/trace_file", "trace file is a directory: " + path.string());
      } else {
        trace(t.load, pointer + "/load");
      }
    }
  }

  /// Opens the trace to check its format, header and split column (the rows are read by the run).
  void trace(const LoadSpec& load, const std::string& pointer) {
    try {
      const auto reader = open_load_trace(s_, load);
      if (!traces::carries_load(reader->format())) {
        add(pointer + "/trace_format",
            "a " + std::string(traces::to_string(reader->format())) +
                " file describes machines or per-instance averages, not arrivals; see \"slicewise trace inspect\"");
      }
    } catch (const TraceError& e) {
      add(pointer + "/trace_file", e.what());
    }
  }

  void strategy(std::size_t j) {
    const auto& st = s_.strategies[j];
    const std::string pointer = "/strategies/" + std::to_string(j);
    const std::string kind = models::to_string(st.kind);
    for (const auto& key : set_strategy_fields(st)) {
      if (!uses(strategy_keys(), key, st.kind)) {
        add(pointer + "/" + key, "set, but not used by strategy kind \"" + kind + "\" (applies to " +
                                     kinds_using(strategy_keys(), key, models::strategy_kind_table()) + ")");
      }
    }
    tenant_settings(st, pointer);
    if (is_mig(st.kind)) mig(st, pointer);
    if (st.kind == StrategyKind::mps) mps(st, pointer);
    if (st.kind == StrategyKind::vgpu && st.vgpu_scheduler == VgpuScheduler::fixed_share && st.replicas <= 0) {
      add(pointer + "/replicas",
          "vgpu_scheduler fixed_share needs the number of vGPUs per GPU of the vGPU profile (got 0)");
    }
    for (std::size_t k = 0; k < st.sidecars.size(); ++k) {
      const std::string at = pointer + "/sidecars/" + std::to_string(k) + "/instance_type";
      instance(st.sidecars[k].instance_type, at);
    }
  }

  void tenant_settings(const StrategySpec& st, const std::string& pointer) {
    std::vector<std::string> names;
    for (const auto& t : s_.tenants) names.push_back(t.name);
    const std::string kind = models::to_string(st.kind);
    for (const auto& [name, settings] : st.tenants) {
      const std::string at = pointer + "/tenants/" + json_pointer_token(name);
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        const auto hint = did_you_mean_suffix(name, names);
        add(at, "unknown tenant \"" + name + "\"" + (hint.empty() ? "; tenants: " + join(names, ", ") : hint));
      }
      for (const auto& key : set_setting_fields(settings)) {
        if (!uses(tenant_setting_keys(), key, st.kind)) {
          add(at + "/" + key, "does not apply to strategy kind \"" + kind + "\" (applies to " +
                                  kinds_using(tenant_setting_keys(), key, models::strategy_kind_table()) + ")");
        } else if (key == "weight" && st.kind == StrategyKind::vgpu &&
                   st.vgpu_scheduler != VgpuScheduler::fixed_share) {
          add(at + "/weight", "applies to vgpu only with vgpu_scheduler fixed_share (got " +
                                  name_of(vgpu_scheduler_table(), st.vgpu_scheduler) + ")");
        }
      }
    }
  }

  void mig(const StrategySpec& st, const std::string& pointer) {
    const std::string kind = models::to_string(st.kind);
    if (st.layout.empty()) {
      add(pointer + "/layout", "missing MIG layout (required for strategy kind \"" + kind + "\")");
      return;
    }
    std::vector<std::string> not_capable;
    for (const auto* gpu : fleet_gpus_) {
      if (!gpu->mig_capable || !c_.mig->find(gpu->id)) not_capable.push_back(gpu->id);
    }
    if (!not_capable.empty()) {
      std::vector<std::string> capable;
      for (const auto& gpu : c_.gpus->gpus()) {
        if (gpu.mig_capable && c_.mig->find(gpu.id)) capable.push_back(gpu.id);
      }
      add(pointer + "/kind", kind + " needs a MIG-capable GPU, but the fleet has " + join(not_capable, ", ") +
                                 " (MIG-capable: " + join(capable, ", ") + ")");
      return;
    }
    for (const auto* gpu : fleet_gpus_) {
      const auto placed = models::place_mig_layout(*c_.mig->find(gpu->id), st.layout);
      if (!placed.valid) {
        add(pointer + "/layout", "invalid MIG layout for " + gpu->id + ": " + placed.reason);
        continue;
      }
      mig_fit(st, pointer, *gpu, placed);
    }
  }

  /// Per-tenant profiles must be in the layout; each tenant must fit its instance.
  void mig_fit(const StrategySpec& st, const std::string& pointer, const models::GpuSpec& gpu,
               const models::MigPlacement& placed) {
    const models::MigInstance* largest = nullptr;
    std::vector<std::string> profiles;
    for (const auto& instance : placed.instances) {
      if (!largest || instance.memory_gib > largest->memory_gib) largest = &instance;
      if (std::find(profiles.begin(), profiles.end(), instance.profile) == profiles.end()) {
        profiles.push_back(instance.profile);
      }
    }
    const std::string on = fleet_gpus_.size() > 1 ? " on " + gpu.id : "";
    for (std::size_t i = 0; i < s_.tenants.size(); ++i) {
      const auto& t = s_.tenants[i];
      if (too_big_.count(i)) continue;
      const auto found = st.tenants.find(t.name);
      const std::string profile = found == st.tenants.end() ? "" : found->second.mig_profile;
      if (profile.empty()) {
        if (largest && t.workload.memory_gib > largest->memory_gib) {
          add(pointer + "/layout", "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) +
                                       "; the largest instance of this layout" + on + ", " + largest->profile +
                                       ", has " + gib(largest->memory_gib));
        }
        continue;
      }
      const std::string at = pointer + "/tenants/" + json_pointer_token(t.name) + "/mig_profile";
      const auto it = std::find_if(placed.instances.begin(), placed.instances.end(),
                                   [&](const models::MigInstance& m) { return m.profile == profile; });
      if (it == placed.instances.end()) {
        add(at, "\"" + profile + "\" is not an instance of the layout" + on + "; expected " + join(profiles, "|") +
                    (profiles.size() > 1 ? did_you_mean_suffix(profile, profiles) : ""));
      } else if (t.workload.memory_gib > it->memory_gib) {
        add(at, "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) + "; " + profile + on + " has " +
                    gib(it->memory_gib));
      }
    }
  }

  void mps(const StrategySpec& st, const std::string& pointer) {
    if (st.replicas > kMaxMpsClients) {
      add(pointer + "/replicas", "MPS serves at most " + std::to_string(kMaxMpsClients) + " clients per GPU (got " +
                                     std::to_string(st.replicas) + ")");
    }
    std::int64_t contexts = 0;
    for (const auto& t : s_.tenants) contexts += t.num_contexts;
    if (num_gpus_ > 0 && contexts > kMaxMpsClients * num_gpus_) {
      add(pointer, std::to_string(contexts) + " contexts need more than " + std::to_string(kMaxMpsClients) +
                       " MPS clients per GPU on the fleet's " + std::to_string(num_gpus_) + " GPU(s)");
    }
  }

  /// Time series length, expected requests per tenant, MMPP state changes and exact quanta.
  void limits() {
    if (num_gpus_ > kMaxFleetGpus) {
      add("/fleet", "the fleet has " + std::to_string(num_gpus_) + " GPUs; at most " + std::to_string(kMaxFleetGpus) +
                        " can be simulated");
    }
    std::int64_t contexts = 0;
    for (const auto& t : s_.tenants) contexts += t.num_contexts;
    if (contexts > kMaxContexts) {
      add("/tenants", "the tenants' num_contexts add up to " + std::to_string(contexts) + " contexts; at most " +
                          std::to_string(kMaxContexts) + " can be placed");
    }
    const double horizon = s_.horizon_s;
    const double samples = std::ceil(horizon / s_.metrics_interval_s);
    if (samples > kMaxSeriesSamples) {
      add("/metrics_interval_s", "horizon_s / metrics_interval_s gives " + count_text(samples) +
                                     " samples per time series; at most " + count_text(kMaxSeriesSamples) +
                                     " (got " + format_number(s_.metrics_interval_s) + "; horizon_s is " +
                                     format_number(horizon) + ")");
    }
    for (std::size_t i = 0; i < s_.tenants.size(); ++i) {
      const auto& load = s_.tenants[i].load;
      const std::string pointer = "/tenants/" + std::to_string(i) + "/load";
      double peak_rate = 0.0;
      if (load.kind == LoadKind::poisson || load.kind == LoadKind::diurnal) peak_rate = load.rate_per_s;
      double shortest_state_s = kNoLimit;
      for (const auto& state : load.states) {
        peak_rate = std::max(peak_rate, state.rate_per_s);
        shortest_state_s = std::min(shortest_state_s, state.mean_duration_s);
      }
      const double requests = peak_rate * load.multiplier * horizon;
      if (requests > kMaxEvents) {
        add(pointer, std::string(load.kind == LoadKind::mmpp ? "the fastest state's rate_per_s" : "rate_per_s") +
                         " x multiplier x horizon_s gives " + count_text(requests) + " expected requests; at most " +
                         count_text(kMaxEvents) + " per tenant (lower the rate, the multiplier or horizon_s)");
      }
      if (shortest_state_s < kNoLimit && horizon / shortest_state_s > kMaxEvents) {
        add(pointer + "/states", "horizon_s / the shortest mean_duration_s gives " + count_text(horizon / shortest_state_s) +
                                     " expected state changes; at most " + count_text(kMaxEvents) + " (got " +
                                     format_number(shortest_state_s) + " s; horizon_s is " + format_number(horizon) + ")");
      }
    }
    for (std::size_t j = 0; j < s_.strategies.size(); ++j) {
      const auto& st = s_.strategies[j];
      if (!st.exact || !st.quantum_ms) continue;
      const double quanta = horizon / (*st.quantum_ms / 1000.0);
      if (quanta > kMaxEvents) {
        add("/strategies/" + std::to_string(j) + "/quantum_ms",
            "exact time slicing steps horizon_s / quantum_ms = " + count_text(quanta) + " quanta per device; at most " +
                count_text(kMaxEvents) + " (use a longer quantum, or \"exact\": false for the fluid model)");
      }
    }
  }

  void pricing() {
    if (!table_) return;
    const auto& region = s_.pricing.region;
    const auto regions = table_->regions();
    if (!region.empty() && std::find(regions.begin(), regions.end(), region) == regions.end()) {
      add("/pricing/region", "unknown region \"" + region + "\" in price table \"" + table_->name + "\"; expected " +
                                 join(regions, "|") + did_you_mean_suffix(region, regions));
      return;
    }
    std::set<std::string> seen;
    for (const auto& [type, pointer] : instances_used_) {
      if (!seen.insert(type).second) continue;
      const auto* row = table_->find(type, region);
      if (!row) {
        std::vector<std::string> offered;
        for (const auto& r : table_->instances) {
          if (r.instance_type == type) offered.push_back(r.region);
        }
        add("/pricing/region", type + ", used at " + pointer + ", is not offered in " + region + " (offered in " +
                                   join(offered, ", ") + ")");
      } else if (!row->usd_per_hour(s_.pricing.option)) {
        add("/pricing/option", "no " + pricing::to_string(s_.pricing.option) + " price for " + type + " in " +
                                   row->region + " (price table \"" + table_->name + "\")");
      }
    }
  }

  const Scenario& s_;
  const Catalogs& c_;
  std::string file_;
  Diagnostics out_;
  Diagnostics pricing_problems_;
  std::optional<pricing::PriceTable> table_;
  std::vector<const models::GpuSpec*> fleet_gpus_;  ///< distinct, in fleet order
  std::int64_t num_gpus_ = 0;                       ///< physical GPUs of the known fleet entries
  std::set<std::size_t> too_big_;                   ///< tenants that fit no fleet GPU
  std::vector<std::pair<std::string, std::string>> instances_used_;  ///< (type, pointer)
};

}  // namespace

Catalogs Catalogs::shipped() {
  return Catalogs{&models::GpuCatalog::shipped(), &models::MigCatalog::shipped(), &pricing::shipped_price_tables()};
}

Diagnostics validate_scenario(const Scenario& scenario, const Catalogs& catalogs) {
  SW_CHECK(catalogs.gpus && catalogs.mig && catalogs.prices, "validate_scenario needs every catalog");
  return Checker(scenario, catalogs).run();
}

std::string gpu_frac_demand_problem(const Tenant& tenant) {
  if (tenant.load.kind != LoadKind::trace || !tenant.load.gpu_frac_demand ||
      tenant.workload.kind == WorkloadKind::generic) {
    return "";
  }
  return "applies to generic workloads only (this tenant's workload kind is \"" +
         name_of(workload_kind_table(), tenant.workload.kind) + "\", whose demand comes from its roofline)";
}

std::filesystem::path resolve_relative_path(const Scenario& scenario, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return p;
  return (scenario.source_file.parent_path() / p).lexically_normal();
}

std::string fleet_gpu_id(const FleetEntry& entry, const Scenario& scenario, const Catalogs& catalogs) {
  std::string id = entry.gpu;
  if (!entry.instance_type.empty()) {
    try {
      const auto table = resolve_price_table(scenario, catalogs);
      const auto* row = table.find(entry.instance_type, scenario.pricing.region);
      if (!row) row = table.find(entry.instance_type);
      id = row && row->gpu ? *row->gpu : std::string();
    } catch (const ConfigError&) {
      return {};
    }
  }
  const auto* gpu = catalogs.gpus->find(id);
  return gpu ? gpu->id : std::string();
}

std::unique_ptr<traces::TraceReader> open_load_trace(const Scenario& scenario, const LoadSpec& load) {
  std::optional<traces::TraceFormat> format;
  if (!load.trace_format.empty()) format = traces::trace_format_from_string(load.trace_format);
  traces::ReadOptions options;
  options.on_bad_row = load.on_bad_row == BadRowPolicy::skip ? traces::BadRowPolicy::skip : traces::BadRowPolicy::fail;
  options.key_column = load.split_column;
  return traces::open_trace(resolve_relative_path(scenario, load.trace_file).string(), format, options);
}

pricing::PriceTable resolve_price_table(const Scenario& scenario, const Catalogs& catalogs) {
  const std::string& name = scenario.pricing.table;
  std::vector<std::string> names;
  for (const auto& table : *catalogs.prices) {
    if (table.name == name) return table;
    names.push_back(table.name);
  }
  const std::string file = scenario.source_file.string();
  if (looks_like_path(name)) {
    const auto path = resolve_relative_path(scenario, name);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      throw ConfigError(file, "/pricing/table", "price table file not found: " + path.string());
    }
    return pricing::PriceTable::load(path, catalogs.gpus->ids());
  }
  throw ConfigError(file, "/pricing/table",
                    "unknown price table \"" + name + "\"; expected " + join(names, "|") +
                        " or a path to a table file" + did_you_mean_suffix(name, names));
}

}  // namespace slicewise::scenario
