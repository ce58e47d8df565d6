// Fixtures of the result tests (see test_results.hpp).
#include "test_results.hpp"

#include "report/roi_report.hpp"
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

scenario::SimResult seed_result_with_faults() {
  auto result = load_test_result("seed-report");
  auto& shared = result.strategies.at(1);
  const std::string phi = "phi-3.5-mini-instruct", deepseek = "deepseek-r1-distill-llama-8b";
  scenario::FaultRecord faults;
  scenario::FaultEvent failure;
  failure.at_s = 120.0;
  failure.kind = "gpu_failure";
  failure.scheduled = true;
  failure.contexts_hit = {phi + "#0", deepseek + "#0"};
  failure.tenants_hit = 2;
  failure.outage_s = 3600.0;
  scenario::FaultEvent crash;
  crash.at_s = 300.5;
  crash.kind = "tenant_crash";
  crash.origin = phi + "#0";
  crash.contexts_hit = {phi + "#0", deepseek + "#0"};
  crash.tenants_hit = 2;
  crash.outage_s = 30.0;
  faults.events = {failure, crash};
  faults.blast_radius_tenants = 2.0;
  faults.expected = {scenario::FaultExposure{"gpu_failure", 0.0088, 2.0, 2.0, 3600.0},
                     scenario::FaultExposure{"tenant_crash", 1.46, 1.5, 1.5, 30.0}};
  faults.expected_blast_radius = (0.0088 * 2.0 + 1.46 * 1.5) / 1.4688;
  faults.tenants = {scenario::TenantExposure{phi, 1.4688, 0.9125, 0.99875},
                    scenario::TenantExposure{deepseek, 1.4688, 0.36, 0.9995}};
  shared.faults = faults;
  auto& phi_result = shared.tenants.at(0);
  phi_result.num_failed = 3;
  phi_result.num_retried = 5;
  phi_result.num_interruptions = 2;
  phi_result.downtime_s = 12.5;
  phi_result.availability = 1.0 - 12.5 / 600.0;
  auto& deepseek_result = shared.tenants.at(1);
  deepseek_result.num_retried = 2;
  deepseek_result.num_interruptions = 2;
  shared.devices.at(0).phase = "day";
  shared.devices.at(0).down_s = 12.5;
  shared.devices.at(0).out_of_phase_s = 300.0;
  return result;
}

report::RoiReport seed_report_with_faults() { return priced_report(seed_result_with_faults()); }

report::RoiReport mixed_mig_report() { return priced_report(load_test_result("mixed-mig-h100")); }

}  // namespace slicewise::gui::test
