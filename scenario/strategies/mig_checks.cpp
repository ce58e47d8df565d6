// MIG layout checks (see mig_checks.hpp).
#include "scenario/strategies/mig_checks.hpp"
#include "scenario/llm_serving.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/mig_layout.hpp"
#include "scenario/scenario_checker.hpp"

namespace slicewise::scenario {

namespace {

using detail::gib;

/// An hour of the day: [0, 24).
const NumberRange kHourOfDay{0.0, false, 24.0, true};

/// True when every fleet GPU can be partitioned; otherwise false after naming the ones that can.
bool fleet_is_mig_capable(const StrategySpec& spec, const StrategyCheck& c) {
  std::vector<std::string> not_capable;
  for (const auto* gpu : c.fleet_gpus) {
    if (!gpu->mig_capable || !c.catalogs.mig->find(gpu->id)) not_capable.push_back(gpu->id);
  }
  if (not_capable.empty()) return true;
  std::vector<std::string> capable;
  for (const auto& gpu : c.catalogs.gpus->gpus()) {
    if (gpu.mig_capable && c.catalogs.mig->find(gpu.id)) capable.push_back(gpu.id);
  }
  c.add(c.pointer + "/kind", models::to_string(spec.kind) + " needs a MIG-capable GPU, but the fleet has " +
                                 join(not_capable, ", ") + " (MIG-capable: " + join(capable, ", ") + ")");
  return false;
}

/// The instance a tenant wants in a layout: the profile it names ("" = none: the layout's largest
/// instance must hold it) and the pointer of that profile.
struct WantedInstance {
  std::size_t tenant = 0;
  std::string profile;
  std::string pointer;
};

/// True when a context of `w` runs on an instance of `memory_gib`: its memory fits, or (LLM) its
/// engine starts there.
bool fits_on(const Workload& w, const std::string& gpu_id, double memory_gib) {
  if (w.kind == WorkloadKind::llm && w.engine && w.llm && models::ModelCatalog::shipped().find(w.llm->model)) {
    return engine_on_device(w, gpu_id, memory_gib).problem.empty();
  }
  return w.memory_gib <= memory_gib;
}

/// Wanted profiles must be in the layout; each tenant must fit its instance (or, without a
/// profile, the layout's largest instance, reported at `layout_pointer`).
void check_fit(const StrategyCheck& c, const models::GpuSpec& gpu, const models::MigPlacement& placed,
               const std::vector<WantedInstance>& wanted, const std::string& layout_pointer,
               const std::string& layout_noun = "this layout") {
  const models::MigInstance* largest = nullptr;
  std::vector<std::string> profiles;
  for (const auto& instance : placed.instances) {
    if (!largest || instance.memory_gib > largest->memory_gib) largest = &instance;
    if (std::find(profiles.begin(), profiles.end(), instance.profile) == profiles.end()) {
      profiles.push_back(instance.profile);
    }
  }
  const std::string on = c.fleet_gpus.size() > 1 ? " on " + gpu.id : "";
  for (const auto& w : wanted) {
    const auto& t = c.scenario.tenants[w.tenant];
    if (c.tenants_too_big.count(w.tenant)) continue;
    if (w.profile.empty()) {
      if (largest && !fits_on(t.workload, gpu.id, largest->memory_gib)) {
        std::string message = "tenant \"" + t.name + "\" needs " + gib(memory_need_gib(t.workload));
        message += "; the largest instance of " + layout_noun;
        message += on + ", " + largest->profile;
        message += ", has " + gib(largest->memory_gib);
        c.add(layout_pointer, std::move(message));
      }
      continue;
    }
    const auto it = std::find_if(placed.instances.begin(), placed.instances.end(),
                                 [&](const models::MigInstance& m) { return m.profile == w.profile; });
    if (it == placed.instances.end()) {
      std::string message = "\"" + w.profile + "\" is not an instance of " +
                            (layout_noun == "this layout" ? std::string("the layout") : layout_noun);
      message += on;
      message += "; expected " + join(profiles, "|");
      if (profiles.size() > 1) message += did_you_mean_suffix(w.profile, profiles);
      c.add(w.pointer, std::move(message));
    } else if (!fits_on(t.workload, gpu.id, it->memory_gib)) {
      std::string message = "tenant \"" + t.name + "\" needs " + gib(memory_need_gib(t.workload)) + "; ";
      message += w.profile;
      message += on;
      message += " has " + gib(it->memory_gib);
      c.add(w.pointer, std::move(message));
    }
  }
}

/// `layout` (at `pointer`) must be valid on every fleet GPU, and each tenant of `wanted` must fit
/// its instance there.
void check_layout_on_fleet(const StrategyCheck& c, const std::string& layout, const std::string& pointer,
                           const std::vector<WantedInstance>& wanted) {
  for (const auto* gpu : c.fleet_gpus) {
    const auto placed = models::place_mig_layout(*c.catalogs.mig->find(gpu->id), layout);
    if (!placed.valid) {
      c.add(pointer, "invalid MIG layout for " + gpu->id + ": " + placed.reason);
      continue;
    }
    check_fit(c, *gpu, placed, wanted, pointer);
  }
}

/// `layouts` (at `pointer`), which the GPUs take in turn: each valid on every fleet GPU; each tenant
/// of `wanted` fits its instance in one of them (its profile in one, or the largest instance of all).
void check_layouts_on_fleet(const StrategyCheck& c, const std::vector<std::string>& layouts, const std::string& pointer,
                            const std::vector<WantedInstance>& wanted) {
  for (const auto* gpu : c.fleet_gpus) {
    models::MigPlacement all;  // every layout's instances together
    all.valid = true;
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      const auto placed = models::place_mig_layout(*c.catalogs.mig->find(gpu->id), layouts[i]);
      if (!placed.valid) {
        c.add(pointer + "/" + std::to_string(i), "invalid MIG layout for " + gpu->id + ": " + placed.reason);
        all.valid = false;
        continue;
      }
      all.instances.insert(all.instances.end(), placed.instances.begin(), placed.instances.end());
    }
    if (all.valid) check_fit(c, *gpu, all, wanted, pointer, "any of the layouts");
  }
}

/// "must be in [0, 24) (got 25)" when `value` is outside `range`, as the reader words it; "" inside.
std::string range_problem(double value, const NumberRange& range) {
  std::string problem = range.violation(value);
  if (!problem.empty()) problem += " (got " + format_number(value) + ")";
  return problem;
}

/// The index of the tenant named `name`; nullopt after a diagnostic at `pointer` when there is none.
std::optional<std::size_t> known_tenant(const StrategyCheck& c, const std::string& name, const std::string& pointer) {
  std::vector<std::string> names;
  for (const auto& t : c.scenario.tenants) names.push_back(t.name);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  const auto hint = did_you_mean_suffix(name, names);
  c.add(pointer, "unknown tenant " + quoted_excerpt(name) + (hint.empty() ? "; tenants: " + join(names, ", ") : hint));
  return std::nullopt;
}

/// The schedule's start hour and re-partition time, and its clock against the tenants' diurnal
/// loads: both say which hour of the day simulated time 0 is, so they must say the same.
void check_schedule_clock(const LayoutSchedule& schedule, const StrategyCheck& c, const std::string& at) {
  if (auto problem = range_problem(schedule.start_hour, kHourOfDay); !problem.empty()) {
    c.add(at + "/start_hour", std::move(problem));
  }
  for (const auto& t : c.scenario.tenants) {
    if (t.load.kind != LoadKind::diurnal || t.load.start_hour == schedule.start_hour) continue;
    c.add(at + "/start_hour", format_number(schedule.start_hour) + " but tenant \"" + t.name +
                                  "\" has a diurnal load starting at hour " + format_number(t.load.start_hour) +
                                  "; the schedule's clock and the load's must agree");
  }
  if (auto problem = range_problem(schedule.repartition_s, NumberRange::non_negative()); !problem.empty()) {
    c.add(at + "/repartition_s", std::move(problem));
  }
}

/// At least two phases, each named once, starting at increasing hours of the day.
void check_phase_order(const LayoutSchedule& schedule, const StrategyCheck& c, const std::string& at) {
  if (schedule.phases.size() < 2) {
    c.add(at + "/phases", "must list at least two phases (got " + std::to_string(schedule.phases.size()) +
                              "); for one layout all day, give \"layout\" instead");
  }
  std::map<std::string, std::size_t> first;
  for (std::size_t k = 0; k < schedule.phases.size(); ++k) {
    const auto& phase = schedule.phases[k];
    const std::string here = at + "/phases/" + std::to_string(k);
    if (phase.name.empty()) {
      c.add(here + "/name", "must not be empty");
    } else if (const auto [it, inserted] = first.emplace(phase.name, k); !inserted) {
      c.add(here + "/name", "duplicate phase name \"" + phase.name + "\" (also " + at + "/phases/" +
                                std::to_string(it->second) + "/name)");
    }
    if (auto problem = range_problem(phase.from_hour, kHourOfDay); !problem.empty()) {
      c.add(here + "/from_hour", std::move(problem));
    } else if (k > 0 && !(phase.from_hour > schedule.phases[k - 1].from_hour)) {
      const auto& before = schedule.phases[k - 1];
      c.add(here + "/from_hour", "must be > " + format_number(before.from_hour) + ", the from_hour of phase \"" +
                                     before.name + "\" before it: phases are listed in the order of the day (got " +
                                     format_number(phase.from_hour) + ")");
    }
  }
}

/// One phase (at `at`): its tenants exist, each with a profile and a context count; its layout is
/// valid on every fleet GPU, and each of its tenants fits its profile there.
void check_phase(const LayoutPhase& phase, const StrategyCheck& c, const std::string& at, bool mig_capable) {
  std::vector<WantedInstance> wanted;
  for (const auto& [name, entry] : phase.tenants) {
    const std::string here = at + "/tenants/" + json_pointer_token(name);
    const auto tenant = known_tenant(c, name, here);
    if (!tenant) continue;
    if (entry.num_contexts < 0)
      c.add(here + "/num_contexts", range_problem(entry.num_contexts, NumberRange::non_negative()));
    if (entry.mig_profile.empty()) {
      c.add(here, "missing MIG profile (each tenant of a phase names the profile its contexts get)");
    } else {
      wanted.push_back({*tenant, entry.mig_profile, here + "/mig_profile"});
    }
  }
  if (phase.layout.empty()) {
    c.add(at + "/layout", "missing MIG layout (each phase gives one)");
  } else if (mig_capable) {
    check_layout_on_fleet(c, phase.layout, at + "/layout", wanted);
  }
}

/// A tenant in no phase would wait for the whole run.
void check_every_tenant_served(const LayoutSchedule& schedule, const StrategyCheck& c, const std::string& at) {
  for (const auto& t : c.scenario.tenants) {
    const bool served = std::any_of(schedule.phases.begin(), schedule.phases.end(),
                                    [&](const LayoutPhase& phase) { return phase.tenants.count(t.name) > 0; });
    if (!served) {
      c.add(at + "/phases", "tenant \"" + t.name +
                                "\" is in no phase's \"tenants\", so it would never be served; give it a profile in "
                                "at least one phase");
    }
  }
}

void check_layout_schedule(const StrategySpec& spec, const StrategyCheck& c) {
  const auto& schedule = *spec.layout_schedule;
  const std::string at = c.pointer + "/layout_schedule";
  if (std::any_of(c.scenario.fleet.begin(), c.scenario.fleet.end(), [](const FleetEntry& e) { return reserved(e); })) {
    c.add(at,
          "a layout schedule with pools reserved for named tenants (a fleet entry's \"tenants\") is not "
          "supported: give the schedule a fleet without them");
    return;
  }
  check_schedule_clock(schedule, c, at);
  check_phase_order(schedule, c, at);
  const bool mig_capable = fleet_is_mig_capable(spec, c);
  for (std::size_t k = 0; k < schedule.phases.size(); ++k) {
    check_phase(schedule.phases[k], c, at + "/phases/" + std::to_string(k), mig_capable);
  }
  check_every_tenant_served(schedule, c, at);
}

}  // namespace

void check_mig_layout(const StrategySpec& spec, const StrategyCheck& c) {
  if (int{!spec.layout.empty()} + int{!spec.layouts.empty()} + int{spec.layout_schedule.has_value()} > 1) {
    c.add(c.pointer, "give one of \"layout\", \"layouts\" or \"layout_schedule\", not several");
    return;
  }
  if (spec.layout_schedule) {
    check_layout_schedule(spec, c);
    return;
  }
  if (spec.layout.empty() && spec.layouts.empty()) {
    c.add(c.pointer + "/layout", "missing MIG layout (required for strategy kind \"" + models::to_string(spec.kind) +
                                     "\": give \"layout\", \"layouts\" or \"layout_schedule\")");
    return;
  }
  if (!fleet_is_mig_capable(spec, c)) return;
  std::vector<WantedInstance> wanted;
  const auto& tenants = c.scenario.tenants;
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (in_reserved_pool(c.scenario, tenants[i].name)) continue;  // whole GPUs of its pool, no instance
    const auto found = spec.tenants.find(tenants[i].name);
    wanted.push_back({i, found == spec.tenants.end() ? "" : found->second.mig_profile,
                      c.pointer + "/tenants/" + json_pointer_token(tenants[i].name) + "/mig_profile"});
  }
  if (spec.layouts.empty()) {
    check_layout_on_fleet(c, spec.layout, c.pointer + "/layout", wanted);
  } else {
    check_layouts_on_fleet(c, spec.layouts, c.pointer + "/layouts", wanted);
  }
}

std::string mig_tenant_key_problem(const StrategySpec& spec, const std::string& key) {
  if (key != "mig_profile" || !spec.layout_schedule) return "";
  return "not used with a layout_schedule: each phase's \"tenants\" gives the tenant's profile in that phase";
}

std::string mig_configuration(const std::string& mechanism, const StrategySpec& spec) {
  if (spec.layout_schedule) return mechanism + " on a layout schedule";
  if (!spec.layouts.empty()) return mechanism + " " + join(spec.layouts, " / ");
  return spec.layout.empty() ? mechanism : mechanism + " " + spec.layout;
}

}  // namespace slicewise::scenario
