// A sharing strategy as one policy: everything slicewise knows about one way of sharing a GPU lives
// in one file of this folder (dedicated.cpp, time_slicing.cpp, mps.cpp, mig.cpp,
// mig_time_slicing.cpp, hami.cpp, vgpu.cpp), and registry.cpp lists them. A policy says
//   - which scenario keys it reads (each declared in ../strategy_params.cpp) and what it checks
//     beyond their types (validate_scenario),
//   - how placement treats it: whole GPUs or MIG instances, contexts per device, which memory it
//     enforces per context, caps and weights (sim/placement.cpp asks),
//   - how a device of it shares itself: the rate model's discipline and constants,
//   - what it costs beyond the instances (a licence per GPU, priced in data/licences.json).
// docs/architecture.md "Adding a strategy" says how to add one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "models/rate_model.hpp"
#include "models/sharing_defaults.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// What a policy's checks see of the scenario being validated, and where they report.
struct StrategyCheck {
  const Scenario& scenario;
  const Catalogs& catalogs;
  const std::vector<const models::GpuSpec*>& fleet_gpus;  ///< distinct, in fleet order, of the entries it shares
  std::int64_t num_gpus = 0;                              ///< physical GPUs of the known entries it shares
  const std::set<std::size_t>& tenants_too_big;           ///< tenants that fit no fleet GPU (already reported)
  std::string pointer;                                    ///< "/strategies/J"
  std::function<void(std::string pointer, std::string message)> add;
  /// Contexts of every tenant the strategy shares GPUs among (not those of reserved pools).
  std::int64_t total_contexts() const;
};

/// The memory a strategy enforces for one context on a device.
/// What a tenant's fatal error (illegal address, out of memory) takes down beside its own context
/// (docs/faults.md).
enum class CrashReach {
  own_context,  ///< a dedicated GPU, a MIG instance, a vGPU VM: contained
  own_device,   ///< time-sliced sharing: each co-tenant context on the device, at co_tenant_kill_frac
  whole_gpu,    ///< MPS: every client of the GPU's server
};

struct MemoryRule {
  /// The device enforces a per-context limit: contexts cannot overcommit it, and a context is
  /// placed only where its reservation fits.
  bool isolated = false;
  /// The limit the context gets where memory is isolated (0 = none: it reserves what it needs).
  /// A context that needs more than its limit cannot run: it is unplaceable.
  double limit_gib = 0.0;
  /// What the limit is, for the message of a context above it ("vGPU framebuffer").
  std::string limit_name;
  /// The context's CUDA sees the limit as its GPU's memory, so an LLM engine sizes its memory
  /// fraction on the limit, not on the device (MPS's per-replica share).
  bool client_sees_limit = false;
};

/// The replicas NVIDIA's device plugin advertises per GPU: the strategy's `replicas`, or the most
/// contexts its placement put on one GPU, 2 at least (the plugin's minimum). For a strategy that
/// splits by them (MPS) each context gets GPU memory / replicas and ⌊100 / replicas⌋ % of the
/// threads, and export-config advertises exactly this many.
inline int device_plugin_replicas(const StrategySpec& spec, int most_contexts_per_gpu) {
  return spec.replicas > 0 ? spec.replicas : std::max(2, most_contexts_per_gpu);
}

/// The share of the threads, in percent, the device plugin's MPS daemon gives each of a GPU's
/// `replicas` clients (set_default_active_thread_percentage): ⌊100 / replicas⌋.
inline double device_plugin_thread_pct(int replicas) { return std::floor(100.0 / std::max(1, replicas)); }

/// Why NVIDIA's device plugin cannot deploy priority or weights between time-sliced replicas.
inline constexpr const char* kDevicePluginHasNoPriority =
    "NVIDIA's device plugin time-slices its replicas with no priority or weight between them";

/// The calibration constants of time slicing by the driver or the vGPU scheduler: its efficiency,
/// time slice and switch costs.
inline std::vector<std::string> time_slicing_constants() {
  return {"time_slicing_efficiency", "timeslice_ms", "yield_switch_ms", "preempt_switch_ms"};
}

/// What shares a device when the strategy is deployed on Kubernetes (report/deploy_*.cpp
/// writes its files and runbook for each).
enum class DeploySharer {
  none,                        ///< nothing: each pod has its GPU or MIG instance
  device_plugin_time_slicing,  ///< NVIDIA's device plugin advertises time-sliced replicas
  device_plugin_mps,           ///< NVIDIA's device plugin runs an MPS daemon per GPU
  hami,                        ///< HAMi's scheduler and device plugin (core and memory limits per pod)
  hypervisor_vgpu,             ///< the hypervisor's vGPU manager, outside Kubernetes (a VM per node)
};

/// A strategy of `kind` under its own name, sized for SLA: what `slicewise advise` starts from.
inline StrategySpec sized_for_sla(models::StrategyKind kind) {
  StrategySpec s;
  s.kind = kind;
  s.name = models::to_string(kind);
  s.sizing = Sizing::sla;
  return s;
}

/// The GPU `slicewise advise` sizes candidates on.
struct AdvisorGpu {
  const models::GpuSpec& gpu;
  const models::MigGpu* geometry = nullptr;  ///< its MIG geometry; null when it has none
  bool own_gpu = false;                      ///< the scenario's own GPU (the baseline's)
  double largest_sharing_gib = 0.0;          ///< the largest tenant that shares (half a GPU or less)
};

/// One setting of a strategy worth sizing on a GPU.
struct AdvisorSetting {
  std::string suffix;       ///< what the candidate's label adds (" 50 % threads", " 3g.40gb+4g.40gb")
  StrategySpec spec;        ///< sized for SLA
  double device_gib = 0.0;  ///< the memory of its largest device: what a tenant must fit to share it
};

/// How `slicewise advise` tunes a strategy's plain candidate to the baseline's SLA slack.
enum class AdvisorTuning {
  none,
  thread_caps_by_slack,  ///< a thread cap per tenant, tighter for tenants with more slack (MPS)
  tightest_first,        ///< the tenants with the least slack get high priority (time slicing)
};

/// The quantum events of exact time slicing on one device.
struct ExactQuanta {
  double quantum_ms = 0.0;
  double switch_cost_ms = 0.0;
};

class StrategyPolicy {
 public:
  virtual ~StrategyPolicy() = default;

  virtual models::StrategyKind kind() const = 0;
  /// One line: what the mechanism is and how slicewise models it.
  virtual std::string summary() const = 0;
  /// The isolation it provides between contexts of different tenants (docs/design.md §9 isolation matrix).
  virtual models::IsolationLevel isolation() const = 0;

  // --- Parameters -----------------------------------------------------------------------------
  /// StrategySpec keys (JSON names) this kind reads beside the common ones, each declared once in
  /// scenario/strategy_params.cpp; a key only other kinds read is rejected here.
  virtual std::vector<std::string> strategy_keys() const { return {}; }
  /// TenantStrategySettings keys this kind reads (declared in scenario/strategy_params.cpp).
  virtual std::vector<std::string> tenant_keys() const { return {}; }
  /// True when `key` is one of its strategy keys.
  bool reads_key(const std::string& key) const {
    const auto keys = strategy_keys();
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  /// True when `key` is one of its per-tenant keys.
  bool reads_tenant_key(const std::string& key) const {
    const auto keys = tenant_keys();
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  /// Why a per-tenant key this kind reads cannot apply with these strategy settings; "" when it can.
  virtual std::string tenant_key_problem(const StrategySpec& /*spec*/, const std::string& /*key*/) const { return ""; }
  /// Checks beyond the keys' types and ranges (layouts, client limits, ...).
  virtual void check(const StrategySpec& /*spec*/, const StrategyCheck& /*check*/) const {}

  // --- Placement ------------------------------------------------------------------------------
  /// True when the devices are the MIG instances of the strategy's layout, not whole GPUs.
  bool partitions_gpus() const { return models::facts_of(kind()).mig_instances; }
  /// True when every context has a whole GPU of its own: the baseline that savings compare against.
  bool is_baseline() const { return models::facts_of(kind()).baseline; }
  /// Most contexts one device carries (0 = no limit).
  virtual int context_limit(const StrategySpec& spec) const { return spec.replicas; }
  /// True when, as NVIDIA's device plugin deploys it, a device advertised as `replicas` shares
  /// gives each its equal part of the memory and of the threads (MPS): placement then picks the
  /// replicas where the strategy leaves them unset (sim/placement.cpp), and the policy's memory
  /// rule and caps read them from the spec.
  virtual bool splits_by_replicas(const StrategySpec& /*spec*/) const { return false; }
  /// The memory rule for a context that needs `need_gib`, on a device of `device_gib`.
  virtual MemoryRule memory_rule(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/,
                                 double /*need_gib*/, double /*device_gib*/) const {
    return {};
  }
  /// The share of a device's cores a context reserves when it is admitted (HAMi's gpucores: its
  /// scheduler admits a pod only while the device's reservations stay within 100 %, a 100 % pod
  /// only alone, and no 0 % pod on a fully reserved device); 0 = it reserves none.
  virtual double core_reservation(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/) const {
    return 0.0;
  }
  /// A context's cap, as a fraction: MPS active threads, HAMi core share; 1 = none. `priority` is
  /// its tenant's.
  virtual double context_cap(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/,
                             Priority /*priority*/) const {
    return 1.0;
  }
  /// True when the device's scheduler orders contexts by their tenants' priority (a higher class
  /// runs first and preempts at the next quantum boundary); false when priority means nothing to it.
  virtual bool schedules_by_priority(const StrategySpec& /*spec*/) const { return false; }
  /// Why the priorities and weights the strategy simulates between a device's contexts cannot be
  /// deployed ("" when they can, or when it has none): NVIDIA's device plugin time-slices its
  /// replicas with neither (time_slicing, mig_time_slicing).
  virtual std::string priority_not_deployable() const { return ""; }
  /// True when the device plugin shares every instance of a MIG profile alike (its time-slicing
  /// resources are per profile, and it spreads pods over the instances): a tenant that needs a
  /// device of its own then holds its profile alone across the fleet, which the export leaves out
  /// of the sharing (mig_time_slicing).
  virtual bool shares_by_profile() const { return false; }
  /// A context's share weight (time slicing, vGPU fixed_share).
  virtual double context_weight(const StrategySpec& /*spec*/, const TenantStrategySettings* settings) const {
    return settings && settings->weight ? *settings->weight : 1.0;
  }

  // --- Faults ---------------------------------------------------------------------------------
  /// What a tenant's crash takes down beside its context. Several contexts on one device share it
  /// by the driver's time-slicing unless the mechanism isolates them.
  virtual CrashReach crash_reach() const { return CrashReach::own_device; }
  /// True when each GPU runs a server whose fault ends every client on it (mps_server_fault).
  virtual bool has_gpu_server() const { return false; }
  /// The chance that a crash of one context takes down another: on the same device or not, on the
  /// same GPU or not, where a co-tenant on a time-sliced device dies with `co_tenant_kill_frac`.
  /// The simulation's faults and the expected exposure both ask this (docs/faults.md).
  double crash_kill_chance(bool same_device, bool same_gpu, double co_tenant_kill_frac) const;
  /// What the mechanism keeps a tenant's crash from, as a clause of the report's sentence
  /// ("MIG instances are hardware partitions, so a tenant's crash stays in its own instance").
  virtual std::string crash_isolation(double co_tenant_kill_frac) const = 0;

  // --- Deployment -----------------------------------------------------------------------------
  /// What shares its devices when it is deployed (export-config).
  virtual DeploySharer deploy_sharer() const { return DeploySharer::none; }
  /// Why the strategy, as `spec` sets it, cannot be deployed that way, as what follows its name
  /// ("was simulated under an MPS daemon of your own ..."); "" when it can.
  virtual std::string not_deployable(const StrategySpec& /*spec*/) const { return ""; }

  // --- Advisor --------------------------------------------------------------------------------
  /// The settings worth sizing on `gpu` (none: the strategy cannot run there, or is the baseline
  /// already): by default the strategy as it comes.
  virtual std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const {
    return {{"", sized_for_sla(kind()), gpu.gpu.memory_gib}};
  }
  /// True when its devices have sizes fixed ahead of placement (MIG instances, vGPU profiles): a
  /// tenant over half a GPU then gets a pool of whole GPUs rather than shape the layout.
  virtual bool fixed_device_sizes() const { return partitions_gpus(); }
  /// How the advisor tunes a plain candidate of it to the baseline's slack.
  virtual AdvisorTuning advisor_tuning() const { return AdvisorTuning::none; }

  // --- Reports --------------------------------------------------------------------------------
  /// The strategy as its mechanism and the settings that define it, for the report's answer and
  /// headline: "MPS with 50 % active threads", "MIG 3g.40gb+3g.40gb", "dedicated GPUs".
  virtual std::string configuration(const StrategySpec& spec) const = 0;
  /// Prefixes of the names of the calibration constants its rates run on (the answer's model
  /// confidence); none for whole GPUs and MIG instances.
  virtual std::vector<std::string> calibration_constants() const { return {}; }

  // --- Money ----------------------------------------------------------------------------------
  /// The software licence every GPU of the strategy needs (an id of data/licences.json); "" = none.
  virtual std::string licence_id() const { return ""; }
  /// What one context of a tenant holds of a device it shares, relative to the other contexts
  /// there, for chargeback: its thread or core cap in percent, its time-slicing weight; 1 where
  /// the strategy sets none, so that sharers pay equal parts.
  virtual double chargeback_weight(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/) const {
    return 1.0;
  }

  // --- Rates ----------------------------------------------------------------------------------
  /// How a device carrying `contexts_on_device` contexts shares itself.
  virtual models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                        int contexts_on_device) const = 0;
  /// The time over which the contexts' turns on the GPU are decided (a time slice and its switch),
  /// which sets how much variance sharing adds to a request (docs/model.md §4); 0 = none.
  virtual double scheduling_round_ms(const StrategySpec& /*spec*/, const models::SharingDefaults& /*defaults*/,
                                     int /*contexts_on_device*/) const {
    return 0.0;
  }
  /// Quantum events instead of the fluid share, when the strategy asks for them (`"exact": true`).
  virtual std::optional<ExactQuanta> exact_quanta(const StrategySpec& /*spec*/,
                                                  const models::SharingDefaults& /*defaults*/,
                                                  int /*contexts_on_device*/) const {
    return std::nullopt;
  }

 protected:
  /// The strategy's quantum and switch cost, its own or the defaults.
  static double quantum_ms(const StrategySpec& spec, const models::SharingDefaults& d) {
    return spec.quantum_ms.value_or(d.quantum_ms);
  }
  static double switch_cost_ms(const StrategySpec& spec, const models::SharingDefaults& d) {
    return spec.switch_cost_ms.value_or(d.switch_cost_ms);
  }
  /// Time slices with bursts into `p` when the defaults have them: the strategy's quantum is the
  /// slice, and its own switch_cost_ms, when given, is the cost of either switch.
  static void set_time_slices(const StrategySpec& spec, const models::SharingDefaults& d, models::SharingParams& p) {
    if (!d.time_slices) return;
    p.set_time_slices(quantum_ms(spec, d), spec.switch_cost_ms.value_or(d.yield_switch_ms),
                      spec.switch_cost_ms.value_or(d.preempt_switch_ms));
  }
};

/// The family of dedicated and mig: every context owns its device (a GPU, a MIG instance) and the
/// device's memory; nothing is shared.
class OwnDevicePolicy : public StrategyPolicy {
 public:
  CrashReach crash_reach() const override { return CrashReach::own_context; }
  int context_limit(const StrategySpec& /*spec*/) const override { return 1; }
  MemoryRule memory_rule(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/, double /*need_gib*/,
                         double /*device_gib*/) const override {
    return {true, 0.0, ""};
  }
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int contexts_on_device) const override;
};

/// The family of time_slicing, mig_time_slicing and hami: the driver's time slicing. Busy contexts
/// take turns of one quantum q, paying a switch c between turns (η = q / (q + c)); a higher
/// priority class goes first; `exact` simulates the quanta one by one.
class DriverTimeSlicingPolicy : public StrategyPolicy {
 public:
  /// Its time-slicing weight.
  double chargeback_weight(const StrategySpec& spec, const TenantStrategySettings* settings) const override {
    return context_weight(spec, settings);
  }
  /// The driver's time slicing isolates no fault: a crash can take the device's co-tenants.
  std::string crash_isolation(double co_tenant_kill_frac) const override;
  std::vector<std::string> calibration_constants() const override { return time_slicing_constants(); }
  bool schedules_by_priority(const StrategySpec& /*spec*/) const override { return true; }
  double scheduling_round_ms(const StrategySpec& spec, const models::SharingDefaults& defaults,
                             int contexts_on_device) const override;
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int contexts_on_device) const override;
  std::optional<ExactQuanta> exact_quanta(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                          int contexts_on_device) const override;
};

/// The policy of a strategy kind.
const StrategyPolicy& policy_of(models::StrategyKind kind);
/// The policy of the kind a result or a form names ("mps"); null for a name no kind has.
const StrategyPolicy* policy_named(std::string_view kind);
/// True when `kind` names the baseline (dedicated).
inline bool is_baseline(std::string_view kind) {
  const auto* policy = policy_named(kind);
  return policy && policy->is_baseline();
}

/// The tenants that have a priority or a weight under `spec`, where its policy cannot deploy them
/// (priority_not_deployable); empty when it can or none has.
std::vector<std::string> tenants_with_undeployable_priority(const Scenario& scenario, const StrategySpec& spec);
/// Every policy, in the order of models::strategy_kind_table().
const std::vector<const StrategyPolicy*>& strategy_policies();

}  // namespace slicewise::scenario
