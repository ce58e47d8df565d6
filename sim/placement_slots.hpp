// The slots placement puts contexts on (placement.cpp): whole GPUs or the MIG instances of the
// strategy's layout, a whole slot per reserved GPU; the contexts to place, largest (or heaviest)
// first; and whether a slot admits one, by its pool, memory, memory limits and core reservations.
// Internal to sw_sim.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/scenario.hpp"
#include "scenario/strategies/policy.hpp"
#include "sim/placed_device.hpp"

namespace slicewise::sim::detail {

using scenario::Scenario;
using scenario::StrategyPolicy;
using scenario::StrategySpec;

/// GiB in a message, to 0.1 GiB: "39.7", "24", "11.2".
std::string gib(double value);

/// The tenants on the instances of one MIG profile, and the tenant that holds it alone.
struct ProfileUse {
  std::set<std::size_t> tenants;
  std::optional<std::size_t> owner;
};

/// A slot contexts can go to: a whole GPU or one MIG instance.
struct Slot {
  PlacedDevice device;
  std::optional<std::size_t> owner_tenant;  ///< set when a tenant needing isolation the strategy lacks took it
  bool isolated_memory = false;
  double reserved_gib = 0.0;    ///< memory promised to contexts (limits where memory is isolated)
  double reserved_cores = 0.0;  ///< cores its contexts reserved at admission (HAMi's gpucores), fraction
  int max_contexts = 0;         ///< 0 = no limit
  /// Where the device plugin shares a profile's instances alike (shares_by_profile): the tenants on
  /// any instance of this slot's profile, and the one that holds the profile alone; shared by them.
  std::shared_ptr<ProfileUse> profile_use;
  std::vector<std::size_t> pool;  ///< a reserved GPU's tenants (device.reserved)
  std::size_t position = 0;       ///< its GPU's place in its fleet entry (FleetGpu::position)
  std::size_t node_gpus = 8;      ///< GPUs of its node (FleetGpu::node_gpus)
};

/// The strategy's settings for the tenant named `tenant_name`, or nullptr when it has none.
const scenario::TenantStrategySettings* settings_of(const StrategySpec& strategy, const std::string& tenant_name);

/// Slots: one per GPU, or one per MIG instance of the layout on every GPU the strategy shares; one
/// whole slot per reserved GPU.
std::vector<Slot> make_slots(const Scenario& scenario, const StrategySpec& strategy, const StrategyPolicy& policy,
                             const std::vector<FleetGpu>& fleet, const models::GpuCatalog& gpus,
                             const models::MigCatalog& mig);

/// Every context of every tenant, largest memory first (stable: ties keep tenant order) for
/// first-fit-decreasing; with `loads`, heaviest first (then largest memory) for balancing.
std::vector<PlacedContext> make_contexts(const Scenario& scenario, const StrategySpec& strategy,
                                         const StrategyPolicy& policy, const std::vector<double>* loads);

/// The memory a context's CUDA reports as its GPU's on `device`: the device's, or the limit the
/// strategy pins it to where the client sees that limit (MPS's per-replica share).
double client_memory_gib(const PlacedDevice& device, const StrategySpec& strategy, const StrategyPolicy& policy,
                         const scenario::TenantStrategySettings* settings);

/// What placing one context asks of a slot.
struct SlotRequest {
  const PlacedContext& context;
  const scenario::Workload& workload;
  const StrategySpec& strategy;
  const StrategyPolicy& policy;                      ///< the strategy's rules
  const scenario::TenantStrategySettings* settings;  ///< the strategy's settings for its tenant, or nullptr
  bool needs_own_device;                             ///< the tenant needs more isolation than the strategy gives
  std::string wanted_profile;                        ///< MIG profile the tenant asked for; "" = any
  bool pooled;                                       ///< the tenant runs on reserved GPUs of its pool only

  bool llm() const { return workload.kind == scenario::WorkloadKind::llm && workload.engine.has_value(); }
  /// Its engine on `slot`, sized on the memory its CUDA sees there.
  scenario::EngineOnDevice engine_on(const Slot& slot) const {
    return scenario::engine_on_device(workload, slot.device.gpu_id,
                                      client_memory_gib(slot.device, strategy, policy, settings));
  }
  /// The memory the context holds on `slot`: its need, or its engine's share of that device.
  double need(const Slot& slot) const { return llm() ? engine_on(slot).held_gib : context.memory_gib; }
  /// Why its engine would not start on `slot` ("" when it would, or for a generic workload).
  std::string engine_problem(const Slot& slot) const { return llm() ? engine_on(slot).problem : ""; }
};

SlotRequest request_for(const Scenario& scenario, const PlacedContext& context, const scenario::Tenant& tenant,
                        const StrategySpec& strategy, const StrategyPolicy& policy);

/// True when `slot` is one the request's tenant may run on: a GPU of its pool, or one the strategy
/// shares for a tenant in no pool.
bool in_its_pool(const Slot& slot, const SlotRequest& request);

/// Memory the context reserves on `slot`: its need, or more where the slot isolates memory.
double reservation(const Slot& slot, const SlotRequest& request, const StrategySpec& strategy);

/// The memory rule of the context on the slot, when it enforces a limit below the context's need
/// (a vGPU framebuffer, a HAMi gpumem or MPS pinned limit): the context cannot run there.
std::optional<scenario::MemoryRule> limit_below_need(const Slot& slot, const SlotRequest& request,
                                                     const StrategySpec& strategy);

/// True when the slot's core reservations admit the context, as HAMi's scheduler does: the sum
/// within 100 %, a 100 % context only alone, and no 0 % context on a fully reserved device.
bool cores_admit(const Slot& slot, const SlotRequest& request);

/// True when the slot can take the context; `allow_overcommit` lets memory that is not isolated
/// be promised beyond the device's.
bool admissible(const Slot& slot, const SlotRequest& request, const StrategySpec& strategy, bool allow_overcommit);

}  // namespace slicewise::sim::detail
