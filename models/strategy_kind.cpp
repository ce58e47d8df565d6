// Strategy and isolation names.
#include "models/strategy_kind.hpp"

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
