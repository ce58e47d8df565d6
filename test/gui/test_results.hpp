// Fixtures of the result tests (ResultModelTest, CompareModelTest, ResultsPanelTest): ROI reports
// priced from the checked-in results in test/data/results/, as `slicewise report` prices them.
#pragma once

#include <string>

#include "report/roi_report.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::gui::test {

/// test/data/results/<name>.json (SW_TEST_DATA_DIR), loaded with scenario::load_result.
scenario::SimResult load_test_result(const std::string& name);

/// `result` priced as cli/cmd_report.cpp does: its scenario's price table from the shipped
/// catalogs (SLICEWISE_DATA_DIR), then report::build_roi_report.
report::RoiReport priced_report(const scenario::SimResult& result);

/// "seed-report": dedicated (baseline; 2 GPUs, $3,273.44 a month, busy 84.5 %, SM 51.2 %) and
/// time_slicing (recommended; 1 GPU, $1,758.19, saves $1,515.25 = 46.3 %, busy 99.3 %, SM 59.0 %);
/// tenants phi-3.5-mini-instruct (p95 0.609 s dedicated, 1.057 s time-sliced) and
/// deepseek-r1-distill-llama-8b (1.135 s, 1.969 s), SLA 2 s, every SLA met.
report::RoiReport seed_report();

/// seed_report() with time_slicing's phi-3.5-mini-instruct missing its SLA (5 % of requests over
/// 2 s, 1 % allowed) and the issue "phi-3.5-mini-instruct: queue grew without bound": dedicated
/// becomes the recommendation.
report::RoiReport seed_report_missing_sla();

/// The seed result with a hand-built FaultRecord on time_slicing (dedicated has none), as a run
/// with faults would carry it (docs/faults.md):
/// - events: a scheduled gpu_failure at 120 s on GPU 0 that took down phi-3.5-mini-instruct#0 and
///   deepseek-r1-distill-llama-8b#0 for 3600 s; a drawn tenant_crash at 300.5 s of
///   phi-3.5-mini-instruct#0 that took it down with deepseek's context for 30 s (blast radius 2);
/// - expected: gpu_failure 0.0088 a month, 2 tenants and contexts per fault, 3600 s down;
///   tenant_crash 1.46 a month, 1.5 tenants and contexts per fault, 30 s down; expected blast
///   radius (0.0088 × 2 + 1.46 × 1.5) / 1.4688 = 1.503;
/// - tenants: phi-3.5-mini-instruct 99.875 % available, 0.9125 h out and 1.4688 interruptions a
///   month; deepseek-r1-distill-llama-8b 99.95 %, 0.36 h, 1.4688;
/// - in the run: phi 3 failed, 5 retried, 2 interruptions, 12.5 s down (availability 1 − 12.5 /
///   600); deepseek 0 failed, 2 retried, 2 interruptions, none down; the GPU in phase "day",
///   12.5 s down.
scenario::SimResult seed_result_with_faults();
/// seed_result_with_faults() priced.
report::RoiReport seed_report_with_faults();

/// "mixed-mig-h100": dedicated (baseline; 4 GPUs, $20,089.60), mig (recommended), mig_time_slicing
/// (both $5,022.40) and mps ($10,044.80); four tenants (llm-8b, vision-resnet50, notebook-alice,
/// notebook-bob).
report::RoiReport mixed_mig_report();

}  // namespace slicewise::gui::test
