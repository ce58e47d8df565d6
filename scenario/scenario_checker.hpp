// ScenarioChecker: the semantic checks behind validate_scenario (phase 2 of loading) and the facts
// they share (the price table, the fleet's GPUs, the tenants that fit no fleet GPU, the instance
// types used). Its checks are defined by subject: validate_fleet.cpp (fleet entries, tenants,
// traces), validate_strategies.cpp (strategy keys, per-tenant settings, the policies' own checks),
// validate_limits.cpp (the size of the run), validate_pricing.cpp (price table, region, purchase
// option) and validate_faults.cpp (fault rates, recovery times, scheduled faults); run() is in
// validate.cpp. Internal to sw_scenario.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/json_reader.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_layout.hpp"
#include "pricing/price_table.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario::detail {

/// A memory size as messages write it: "12 GiB", "0.5 GiB".
inline std::string gib(double value) { return format_number(value) + " GiB"; }

/// Checks one scenario against the catalogs; use once: construct, then run().
class ScenarioChecker {
 public:
  /// `scenario` and `catalogs` must outlive the checker.
  ScenarioChecker(const Scenario& scenario, const Catalogs& catalogs);

  /// Every problem, in this order: fleet entries, tenants, strategies, run-size limits, the price
  /// table's own problems, region and purchase option, then faults.
  Diagnostics run();

 private:
  void add(std::string pointer, std::string message);

  // validate_fleet.cpp
  const pricing::InstancePrice* instance(const std::string& type, const std::string& pointer);
  void fleet_entry(std::size_t i);
  /// Reserved pools (fleet entries with `tenants`): each name a tenant, and every other tenant with
  /// a shared entry to run on.
  void pools();
  /// The fleet GPU with the most memory that tenant `i` may run on: its pools' where it has one,
  /// else the shared entries'; nullptr when none is known.
  const models::GpuSpec* largest_gpu(std::size_t i) const;
  /// The distinct GPU types tenant `i` may run on.
  std::vector<const models::GpuSpec*> gpus_for(std::size_t i) const;
  void tenant(std::size_t i);
  void memory_fit(std::size_t i, const std::string& pointer);
  /// An LLM tenant: its engine must start on the largest fleet GPU, and every fleet GPU needs the
  /// TFLOPS its step roofline uses.
  void llm_fit(std::size_t i, const std::string& pointer);
  void trace_file(const LoadSpec& load, const std::string& pointer);
  void trace(const LoadSpec& load, const std::string& pointer);

  // validate_strategies.cpp
  void strategy(std::size_t j);
  void unused_strategy_fields(const StrategySpec& st, const std::string& pointer);
  void tenant_settings(const StrategySpec& st, const std::string& pointer);
  void sizing();

  // validate_limits.cpp
  void limits();
  void fleet_limits();
  void series_limit();
  void load_limits(std::size_t i);
  void quanta_limit(std::size_t j);
  void fault_limits();
  std::int64_t total_contexts() const;

  // validate_pricing.cpp
  void pricing();
  void instance_prices(const std::string& region);

  // validate_faults.cpp
  void faults();
  void scheduled_fault(std::size_t k);
  void scheduled_fault_target(const ScheduledFault& fault, const std::string& pointer);
  void in_range(std::string pointer, double value, const NumberRange& range);

  const Scenario& s_;
  const Catalogs& c_;
  std::string file_;
  Diagnostics out_;
  Diagnostics pricing_problems_;
  std::optional<pricing::PriceTable> table_;
  std::vector<const models::GpuSpec*> fleet_gpus_;                   ///< distinct, in fleet order
  std::vector<const models::GpuSpec*> shared_gpus_;                  ///< distinct, of the entries the strategies share
  std::vector<const models::GpuSpec*> entry_gpus_;                   ///< per fleet entry; nullptr when unknown
  std::int64_t num_gpus_ = 0;                                        ///< physical GPUs of the known fleet entries
  std::int64_t num_shared_gpus_ = 0;                                 ///< of those, in entries the strategies share
  std::size_t fleet_entries_known_ = 0;                              ///< fleet entries whose GPU is known
  std::set<std::size_t> too_big_;                                    ///< tenants that fit no fleet GPU
  std::vector<std::pair<std::string, std::string>> instances_used_;  ///< (type, pointer), in check order
};

}  // namespace slicewise::scenario::detail
