// Every key a strategy kind adds, and every per-tenant strategy setting (see strategy_params.hpp).
// To add a key: a field in StrategySpec or TenantStrategySettings, its declaration here, and its
// name in the strategy_keys() or tenant_keys() of each policy that reads it.
#include "scenario/strategy_params.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

#include "core/spell.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_layouts.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

namespace {

using nlohmann::ordered_json;

/// A percentage of a GPU: (0, 100].
const NumberRange kPercent{0.0, true, 100.0, false};

/// An optional number, written and shown when set.
template <class Owner>
ParamDecl<Owner> number(std::optional<double> Owner::*field, ParamDecl<Owner> d) {
  d.type = ParamType::number;
  d.read = [field, key = d.key, range = d.range](JsonReader& r, Owner& o) { o.*field = r.maybe_number(key, range); };
  d.write = [field, key = d.key](ordered_json& out, const Owner& o) {
    if (o.*field) out[key] = *(o.*field);
  };
  d.is_set = [field](const Owner& o) { return (o.*field).has_value(); };
  d.value_text = [field](const Owner& o) { return o.*field ? format_number(*(o.*field)) : ""; };
  return d;
}

/// A count whose default is 0, always written; set when not 0.
ParamDecl<StrategySpec> count(int StrategySpec::*field, ParamDecl<StrategySpec> d) {
  d.type = ParamType::count;
  d.read = [field, key = d.key, min = d.range.min.value_or(0.0)](JsonReader& r, StrategySpec& s) {
    s.*field = detail::read_count(r, key, 0, min);
  };
  d.write = [field, key = d.key](ordered_json& out, const StrategySpec& s) { out[key] = s.*field; };
  d.is_set = [field](const StrategySpec& s) { return s.*field != 0; };
  d.value_text = [field](const StrategySpec& s) { return std::to_string(s.*field); };
  return d;
}

/// A flag whose default is false, always written; set when true.
ParamDecl<StrategySpec> flag(bool StrategySpec::*field, ParamDecl<StrategySpec> d) {
  d.type = ParamType::boolean;
  d.read = [field, key = d.key](JsonReader& r, StrategySpec& s) { s.*field = r.optional_bool(key, false); };
  d.write = [field, key = d.key](ordered_json& out, const StrategySpec& s) { out[key] = s.*field; };
  d.is_set = [field](const StrategySpec& s) { return s.*field; };
  d.value_text = [field](const StrategySpec& s) { return std::string(s.*field ? "true" : "false"); };
  return d;
}

/// One of an enum's names, its table's first the default. `write_default`: written even when it
/// is the default.
template <class E>
ParamDecl<StrategySpec> choice(E StrategySpec::*field, const EnumTable<E>& table, bool write_default,
                               ParamDecl<StrategySpec> d) {
  d.type = ParamType::choice;
  for (const auto& [name, value] : table) d.choices.push_back(name);
  const E fallback = table.front().second;
  d.default_text = table.front().first;
  d.read = [field, key = d.key, &table, fallback](JsonReader& r, StrategySpec& s) {
    s.*field = r.optional_enum(key, fallback, table);
  };
  d.write = [field, key = d.key, &table, fallback, write_default](ordered_json& out, const StrategySpec& s) {
    if (write_default || s.*field != fallback) out[key] = name_of(table, s.*field);
  };
  d.is_set = [field, fallback](const StrategySpec& s) { return s.*field != fallback; };
  d.value_text = [field, &table](const StrategySpec& s) { return name_of(table, s.*field); };
  return d;
}

/// A non-empty string, written and shown when set.
template <class Owner>
ParamDecl<Owner> text(std::string Owner::*field, ParamDecl<Owner> d) {
  d.read = [field, key = d.key](JsonReader& r, Owner& o) { o.*field = detail::nonempty_string(r, key, false); };
  d.write = [field, key = d.key](ordered_json& out, const Owner& o) {
    if (!(o.*field).empty()) out[key] = o.*field;
  };
  d.is_set = [field](const Owner& o) { return !(o.*field).empty(); };
  d.value_text = [field](const Owner& o) { return o.*field; };
  return d;
}

/// The three ways of giving a MIG strategy's instances: `layout` (written, even empty, unless one
/// of the others is given), `layouts` and `layout_schedule`.
std::vector<StrategyParam> layout_params() {
  auto layout = text(&StrategySpec::layout,
                     {.key = "layout",
                      .type = ParamType::mig_layout,
                      .title = "MIG layout",
                      .allowed_note = "a valid layout for every fleet GPU",
                      .help = "MIG instances per GPU: `3g.40gb+2g.20gb+1g.10gb+1g.10gb`, `7x1g.10gb` (`slicewise mig "
                              "GPU --enumerate` lists them; `slicewise mig GPU --layout L` checks one)",
                      .example = R"("4g.40gb+3g.40gb")",
                      .alternatives = {"layouts", "layout_schedule"}});
  layout.default_text = "required (or `layouts`, `layout_schedule`)";
  layout.write = [](ordered_json& out, const StrategySpec& s) {
    if (s.layouts.empty() && !s.layout_schedule) out["layout"] = s.layout;
  };

  StrategyParam layouts{
      .key = "layouts",
      .type = ParamType::layouts,
      .title = "MIG layouts",
      .allowed_note = "at least two, each a valid layout for every fleet GPU",
      .help =
          "MIG layouts per GPU instead of one `layout`: the shared GPUs take them in turn (GPU i the (i mod n)-th, "
          "pools aside), so a fleet can hold large instances on some GPUs and many small ones on others. A "
          "tenant's `mig_profile` must be an instance of one of them, and a tenant without one must fit the "
          "largest instance of any; placement puts each context on the best-fitting instance of whichever GPU "
          "has it. `export-config` writes one mig-parted config per layout (`slicewise-layout1`, ...) and pins "
          "each pod to its GPU's node and that node's config (`examples/mig-mixed-layouts-h100.json`)",
      .example = R"(["4g.40gb+3g.40gb", "7x1g.10gb"])"};
  layouts.read = [](JsonReader& r, StrategySpec& s) { s.layouts = detail::read_gpu_layouts(r); };
  layouts.write = [](ordered_json& out, const StrategySpec& s) {
    if (!s.layouts.empty() && !s.layout_schedule) out["layouts"] = s.layouts;
  };
  layouts.is_set = [](const StrategySpec& s) { return !s.layouts.empty(); };
  layouts.value_text = [](const StrategySpec& s) { return join(s.layouts, " / "); };

  StrategyParam schedule{
      .key = "layout_schedule",
      .type = ParamType::layout_schedule,
      .title = "MIG layout schedule",
      .allowed_note = "see \"Layout schedule\" below",
      .help = "layouts by time of day instead of one `layout`",
      .example =
          R"({"start_hour": 0, "repartition_s": 60, "rolling": false, "phases": [)"
          R"({"name": "day", "from_hour": 8, "layout": "4g.40gb+3g.40gb", "tenants": {"a": {"mig_profile": "3g.40gb"}, "b": {"mig_profile": "4g.40gb"}}},)"
          R"({"name": "night", "from_hour": 20, "layout": "7x1g.10gb", "tenants": {"a": {"mig_profile": "1g.10gb"}, "b": {"mig_profile": "1g.10gb"}}}]})"};
  schedule.read = [](JsonReader& r, StrategySpec& s) { s.layout_schedule = detail::read_layout_schedule(r); };
  schedule.write = [](ordered_json& out, const StrategySpec& s) {
    if (s.layout_schedule) out["layout_schedule"] = detail::layout_schedule_json(*s.layout_schedule);
  };
  schedule.is_set = [](const StrategySpec& s) { return s.layout_schedule.has_value(); };
  schedule.value_text = [](const StrategySpec& s) {
    std::vector<std::string> phases;  // "day from 8 h: 3g.40gb+4g.40gb"
    if (s.layout_schedule) {
      for (const auto& phase : s.layout_schedule->phases) {
        phases.push_back(phase.name + " from " + format_number(phase.from_hour) + " h: " + phase.layout);
      }
    }
    return join(phases, " / ");
  };
  return {std::move(layout), std::move(layouts), std::move(schedule)};
}

/// The driver's time slicing (time_slicing, mig_time_slicing, hami), and the contexts per device.
std::vector<StrategyParam> time_slicing_params() {
  return {
      count(
          &StrategySpec::replicas,
          {.key = "replicas",
           .title = "Replicas per GPU",
           .range = NumberRange::non_negative(),
           .default_text = "0: no limit",
           .allowed_note = "mps: 0 or 2 to 48 (1 with `mps_daemon` `own`)",
           .help = "contexts per device (device-plugin replicas; per MIG instance for mig_time_slicing; vGPUs per GPU "
                   "for vgpu, whose framebuffer is then GPU memory / replicas: a tenant needing more is "
                   "unplaceable); 0 = no limit. mps under the device plugin: each client gets GPU memory / replicas "
                   "(the memory its CUDA sees, which an LLM engine's memory fraction applies to) and "
                   "⌊100 / replicas⌋ % of the threads; 0 = slicewise picks them: the most contexts its placement "
                   "puts on one GPU, 2 at least, fewer where a client's memory needs a larger share",
           .example = "2"}),
      number(&StrategySpec::quantum_ms, {.key = "quantum_ms",
                                         .title = "Quantum",
                                         .unit = "ms",
                                         .range = NumberRange::positive(),
                                         .default_text = "calibrated",
                                         .help = "time slice",
                                         .example = "2"}),
      number(&StrategySpec::switch_cost_ms, {.key = "switch_cost_ms",
                                             .title = "Switch cost",
                                             .unit = "ms",
                                             .range = NumberRange::non_negative(),
                                             .default_text = "calibrated",
                                             .help = "context-switch cost per slice",
                                             .example = "0.1"}),
      flag(&StrategySpec::exact, {.key = "exact",
                                  .title = "Exact quanta",
                                  .default_text = "false",
                                  .help = "exact quantum events instead of the fluid model",
                                  .example = "true"})};
}

/// MPS: the clients' thread caps, their pinned memory, and who runs the daemon.
std::vector<StrategyParam> mps_params() {
  return {
      number(&StrategySpec::active_thread_pct,
             {.key = "active_thread_pct",
              .title = "Active threads",
              .unit = "%",
              .range = kPercent,
              .default_text = "100, or the replica's share",
              .help = "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of every context; under the device plugin it can only lower "
                      "the replica's share",
              .example = "40"}),
      number(&StrategySpec::pinned_memory_limit_gib,
             {.key = "pinned_memory_limit_gib",
              .title = "Pinned memory limit",
              .unit = "GiB",
              .range = NumberRange::positive(),
              .default_text = "none",
              .help = "MPS pinned device-memory limit per context; a tenant needing more is unplaceable",
              .example = "30"}),
      number(&StrategySpec::low_priority_thread_pct,
             {.key = "low_priority_thread_pct",
              .title = "Low-priority threads",
              .unit = "%",
              .range = kPercent,
              .default_text = "50",
              .help = "thread percentage a tenant of `priority` `low` gets at most",
              .example = "25"}),
      choice(&StrategySpec::mps_daemon, mps_daemon_table(), false,
             {.key = "mps_daemon",
              .title = "MPS daemon",
              .help = "who runs the MPS control daemon: NVIDIA's device plugin, which splits each GPU's memory and "
                      "threads equally among its replicas (what `export-config` deploys), or one of your own without "
                      "that split (bare metal, a daemon you manage; `export-config` refuses it)",
              .example = R"("device_plugin")"})};
}

/// HAMi: each context's core and memory limits.
std::vector<StrategyParam> hami_params() {
  return {
      number(&StrategySpec::gpucores_pct,
             {.key = "gpucores_pct",
              .title = "GPU cores",
              .unit = "%",
              .range = kPercent,
              .default_text = "100",
              .help = "HAMi core cap per context, which HAMi's scheduler also reserves: a GPU's contexts reserve "
                      "100 % at most",
              .example = "50"}),
      number(&StrategySpec::gpumem_gib, {.key = "gpumem_gib",
                                         .title = "GPU memory",
                                         .unit = "GiB",
                                         .range = NumberRange::positive(),
                                         .default_text = "what the context needs",
                                         .help = "HAMi memory limit per context; a tenant needing more is unplaceable",
                                         .example = "30"})};
}

/// NVIDIA vGPU: its scheduler and time slice.
std::vector<StrategyParam> vgpu_params() {
  return {choice(&StrategySpec::vgpu_scheduler, vgpu_scheduler_table(), true,
                 {.key = "vgpu_scheduler",
                  .title = "vGPU scheduler",
                  .allowed_note = "`fixed_share` needs `replicas` ≥ 1",
                  .help = "NVIDIA vGPU scheduler",
                  .example = R"("fixed_share")"}),
          number(&StrategySpec::timeslice_ms, {.key = "timeslice_ms",
                                               .title = "vGPU time slice",
                                               .unit = "ms",
                                               .range = NumberRange::positive(),
                                               .default_text = "2 up to 8 vGPUs, 1 above",
                                               .help = "vGPU time slice",
                                               .example = "2"})};
}

std::vector<StrategyParam> declare_strategy_params() {
  std::vector<StrategyParam> params;
  for (auto family : {time_slicing_params, mps_params, layout_params, hami_params, vgpu_params}) {
    for (auto& param : family()) params.push_back(std::move(param));
  }
  return params;
}

std::vector<TenantParam> declare_tenant_params() {
  using T = TenantStrategySettings;
  auto profile = text(&T::mig_profile,
                      {.key = "mig_profile",
                       .type = ParamType::mig_profile,
                       .title = "MIG profile",
                       .default_text = "the smallest instance that fits",
                       .allowed_note = "a profile of the strategy's layout, large enough for the tenant's "
                                       "`memory_gib`; not with a `layout_schedule` (its phases give the profiles)",
                       .help = "the instance profile the tenant's contexts get",
                       .example = R"("3g.40gb")"});
  return {
      std::move(profile),
      number(&T::active_thread_pct, {.key = "active_thread_pct",
                                     .title = "Active threads",
                                     .unit = "%",
                                     .range = kPercent,
                                     .default_text = "the strategy's",
                                     .help = "the tenant's MPS thread percentage (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)",
                                     .example = "30"}),
      number(&T::gpucores_pct, {.key = "gpucores_pct",
                                .title = "GPU cores",
                                .unit = "%",
                                .range = kPercent,
                                .default_text = "the strategy's",
                                .help = "the tenant's core cap",
                                .example = "50"}),
      number(&T::gpumem_gib, {.key = "gpumem_gib",
                              .title = "GPU memory",
                              .unit = "GiB",
                              .range = NumberRange::positive(),
                              .default_text = "the strategy's",
                              .help = "the tenant's memory limit",
                              .example = "30"}),
      number(&T::weight, {.key = "weight",
                          .title = "Weight",
                          .range = NumberRange::positive(),
                          .default_text = "1",
                          .allowed_note = "vgpu: with `vgpu_scheduler` `fixed_share` only",
                          .help = "relative share of GPU time",
                          .example = "2"}),
  };
}

template <class Owner>
const ParamDecl<Owner>* find_param(const std::vector<ParamDecl<Owner>>& params, std::string_view key) {
  const auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.key == key; });
  return it == params.end() ? nullptr : &*it;
}

std::vector<models::StrategyKind> kinds_reading(std::string_view key,
                                                std::vector<std::string> (StrategyPolicy::*keys_of)() const) {
  std::vector<models::StrategyKind> kinds;
  for (const auto* policy : strategy_policies()) {
    const auto read = (policy->*keys_of)();
    if (std::find(read.begin(), read.end(), key) != read.end()) kinds.push_back(policy->kind());
  }
  return kinds;
}

/// An interval in the docs' notation: "> 0", "≥ 0", "(0, 100]", "[0, 24)".
std::string range_text(const NumberRange& r) {
  if (r.min && r.max) {
    return std::string(r.min_exclusive ? "(" : "[") + format_number(*r.min) + ", " + format_number(*r.max) +
           (r.max_exclusive ? ")" : "]");
  }
  if (r.min) return std::string(r.min_exclusive ? "> " : "≥ ") + format_number(*r.min);
  if (r.max) return std::string(r.max_exclusive ? "< " : "≤ ") + format_number(*r.max);
  return "";
}

}  // namespace

std::string type_name(ParamType type) {
  switch (type) {
    case ParamType::count: return "integer";
    case ParamType::number: return "number";
    case ParamType::boolean: return "boolean";
    case ParamType::choice:
    case ParamType::text:
    case ParamType::mig_profile:
    case ParamType::mig_layout: return "string";
    case ParamType::layouts: return "array of strings";
    case ParamType::layout_schedule: return "object";
  }
  return "";
}

template <class Owner>
std::string ParamDecl<Owner>::allowed() const {
  std::string out;
  if (type == ParamType::count || type == ParamType::number) out = range_text(range);
  if (type == ParamType::choice) {
    for (const auto& name : choices) out += (out.empty() ? "`" : " | `") + name + "`";
  }
  if (!allowed_note.empty()) out += (out.empty() ? "" : "; ") + allowed_note;
  return out;
}

template struct ParamDecl<StrategySpec>;
template struct ParamDecl<TenantStrategySettings>;

const std::vector<StrategyParam>& strategy_params() {
  static const std::vector<StrategyParam> params = declare_strategy_params();
  return params;
}

const std::vector<TenantParam>& tenant_params() {
  static const std::vector<TenantParam> params = declare_tenant_params();
  return params;
}

const StrategyParam* strategy_param(std::string_view key) { return find_param(strategy_params(), key); }
const TenantParam* tenant_param(std::string_view key) { return find_param(tenant_params(), key); }

namespace {

/// The kinds that read each declared key, as a KeyKinds table in declaration order.
template <class Owner>
KeyKinds<models::StrategyKind> key_kinds(const std::vector<ParamDecl<Owner>>& params,
                                         std::vector<models::StrategyKind> (*kinds_of)(std::string_view)) {
  KeyKinds<models::StrategyKind> table;
  for (const auto& param : params) table.emplace_back(param.key, kinds_of(param.key));
  return table;
}

}  // namespace

const KeyKinds<models::StrategyKind>& strategy_keys() {
  static const KeyKinds<models::StrategyKind> table = key_kinds(strategy_params(), &kinds_reading_strategy_key);
  return table;
}

const KeyKinds<models::StrategyKind>& tenant_setting_keys() {
  static const KeyKinds<models::StrategyKind> table = key_kinds(tenant_params(), &kinds_reading_tenant_key);
  return table;
}

std::vector<models::StrategyKind> kinds_reading_strategy_key(std::string_view key) {
  return kinds_reading(key, &StrategyPolicy::strategy_keys);
}

std::vector<models::StrategyKind> kinds_reading_tenant_key(std::string_view key) {
  return kinds_reading(key, &StrategyPolicy::tenant_keys);
}

std::string plain_help(const std::string& help) {
  std::string out;
  std::remove_copy(help.begin(), help.end(), std::back_inserter(out), '`');
  return out;
}

}  // namespace slicewise::scenario
