// Strategy and isolation names.
#include "models/strategy_kind.hpp"

#include <cstddef>

namespace slicewise::models {

const std::vector<std::pair<std::string, StrategyKind>>& strategy_kind_table() {
  static const std::vector<std::pair<std::string, StrategyKind>> table = {
      {"dedicated", StrategyKind::dedicated},
      {"time_slicing", StrategyKind::time_slicing},
      {"mps", StrategyKind::mps},
      {"mig", StrategyKind::mig},
      {"mig_time_slicing", StrategyKind::mig_time_slicing},
      {"hami", StrategyKind::hami},
      {"vgpu", StrategyKind::vgpu},
  };
  return table;
}

std::string to_string(StrategyKind kind) {
  for (const auto& [name, value] : strategy_kind_table()) {
    if (value == kind) return name;
  }
  return "unknown";
}

std::optional<StrategyKind> strategy_kind_named(std::string_view name) {
  for (const auto& [known, value] : strategy_kind_table()) {
    if (known == name) return value;
  }
  return std::nullopt;
}

const StrategyKindFacts& facts_of(StrategyKind kind) {
  // In the order of StrategyKind: mig_instances, own_device, baseline, cap_param.
  static const std::vector<StrategyKindFacts> facts = {
      {false, true, true, ""},                     // dedicated
      {false, false, false, ""},                   // time_slicing
      {false, false, false, "active_thread_pct"},  // mps (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)
      {true, true, false, ""},                     // mig
      {true, false, false, ""},                    // mig_time_slicing
      {false, false, false, "gpucores"},           // hami (nvidia.com/gpucores)
      {false, false, false, ""},                   // vgpu
  };
  return facts.at(static_cast<std::size_t>(kind));
}

const std::vector<std::pair<std::string, IsolationLevel>>& isolation_level_table() {
  static const std::vector<std::pair<std::string, IsolationLevel>> table = {
      {"none", IsolationLevel::none}, {"software", IsolationLevel::software}, {"hardware", IsolationLevel::hardware}};
  return table;
}

std::string to_string(IsolationLevel level) {
  for (const auto& [name, value] : isolation_level_table()) {
    if (value == level) return name;
  }
  return "unknown";
}

}  // namespace slicewise::models
