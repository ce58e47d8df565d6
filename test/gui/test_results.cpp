// Fixtures of the result tests (see test_results.hpp).
#include "test_results.hpp"

#include "scenario/result_json.hpp"

namespace slicewise::gui::test {

scenario::SimResult load_test_result(const std::string& name) {
  return scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/" + name + ".json");
}

report::RoiReport priced_report(const scenario::SimResult& result) {
  return report::priced_roi_report(result, result.input);
}

report::RoiReport seed_report() { return priced_report(load_test_result("seed-report")); }

report::RoiReport seed_report_missing_sla() {
  auto result = load_test_result("seed-report");
  auto& phi = result.strategies.at(1).tenants.at(0);
  phi.sla_met = false;
  phi.sla_violation_frac = 0.05;
  result.strategies.at(1).issues.push_back("phi-3.5-mini-instruct: queue grew without bound");
  return priced_report(result);
}

report::RoiReport mixed_mig_report() { return priced_report(load_test_result("mixed-mig-h100")); }

}  // namespace slicewise::gui::test
