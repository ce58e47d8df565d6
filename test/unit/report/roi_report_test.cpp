// The ROI report's content from the seed result (test/data/results/seed-report.json, priced with the
// shipped AWS table): figures worked out by hand from docs/roi.md.
#include "report/roi_report.hpp"
#include "report/report_answer.hpp"
#include "report/text_table.hpp"

#include <gtest/gtest.h>

#include "models/fault_rates.hpp"
#include "scenario/result_json.hpp"
#include "scenario/sizing.hpp"
#include "scenario/utilisation.hpp"
#include "scenario/validate.hpp"
#include "test/unit/report/day_night_fixture.hpp"

namespace slicewise::report {
namespace {

RoiReport seed_report() {
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
}

TEST(RoiReport, FormatsMoneyWithThousandsSeparators) {
  EXPECT_EQ(format_usd(1515.2464), "$1,515.25");
  EXPECT_EQ(format_usd(18182.9568, 0), "$18,183");
  EXPECT_EQ(format_usd(-1234567.891), "-$1,234,567.89");
  EXPECT_EQ(format_usd(-0.001), "$0.00");
  EXPECT_EQ(format_usd(999.995), "$1,000.00");
}

TEST(RoiReport, TheSeedRecommendsTimeSlicingAndSavesWhatTheCalculatorSays) {
  const auto r = seed_report();
  ASSERT_EQ(r.strategies.size(), 2u);
  EXPECT_EQ(r.baseline, 0);
  EXPECT_EQ(r.recommended, 1);
  // 2 x g6e.2xlarge = 2 x 2.24208 x 730; time-slicing = (2.24208 + 2 x 0.0832) x 730.
  EXPECT_NEAR(r.strategies[0].monthly_usd, 3273.4368, 1e-6);
  EXPECT_NEAR(r.strategies[1].monthly_usd, 1758.1904, 1e-6);
  EXPECT_NEAR(r.strategies[1].monthly_savings_usd, 1515.2464, 1e-6);
  EXPECT_EQ(r.strategies[1].isolation, "none");
  EXPECT_EQ(r.recommendation.substr(0, 56), "Share with time_slicing (time_slicing, isolation none): ");
  EXPECT_NE(r.savings.find("time_slicing saves $1,515.25 per month ($18,183 per year, 46.3 %) against dedicated"),
            std::string::npos)
      << r.savings;
  EXPECT_EQ(r.tenants.size(), 4u);
  // business view, strategies, tenants, energy (no sweep, no uncertainty)
  EXPECT_EQ(report_tables(r).size(), 4u);
  // The answer a reader can repeat: configuration, cost, saving like for like, SLA risk, model
  // confidence (the seed's time-slicing constant is fitted).
  EXPECT_EQ(
      r.answer,
      "Run time-slicing, 10 replicas per GPU on 1 L40S GPU (1 x g6e.2xlarge + 2 x t3.large) at $1,758.19 a month, "
      "$1,515.25 (46.3 %) "
      "less than dedicated at the same on_demand prices; SLA risk " +
          r.sla_risk_level + "; model confidence: " + model_confidence_text(r.result.calibration, "time_slicing") +
          ".");
  const auto business = report_tables(r).at(0);
  EXPECT_EQ(business.id, "business");
  EXPECT_EQ(business.rows.at(1), (std::vector<std::string>{"time_slicing (recommended)", "$1,758.19", "$1,515.25",
                                                           "46.3", "-", "$1,515.25", "met"}));
  EXPECT_NE(business.intro.find("Revenue at risk is not evaluated"), std::string::npos);
}

TEST(RoiReport, TheAnswerNamesTheSettingsAndHowFarTheModelIsCalibrated) {
  scenario::StrategySpec mps;
  mps.kind = models::StrategyKind::mps;
  mps.active_thread_pct = 50.0;
  EXPECT_EQ(configuration_text(mps), "MPS with 50 % active threads");  // the headline said "mps"
  scenario::StrategySpec mig;
  mig.kind = models::StrategyKind::mig;
  mig.layout = "3g.40gb+3g.40gb";
  EXPECT_EQ(configuration_text(mig), "MIG 3g.40gb+3g.40gb");
  scenario::CalibrationRecord calibration;
  calibration.profile_id = "p";
  calibration.fit_mape = 0.066;
  calibration.constants = {"time_slicing_efficiency (*) = 0.8366 ± 0.0058, fitted, MAPE 6.6 %",
                           "mps_efficiency (*) = 1, uncalibrated default",
                           "mps_interference (*) = 0, uncalibrated default"};
  EXPECT_EQ(model_confidence_text(calibration, "mps"),
            "uncalibrated: mps_efficiency and mps_interference are defaults (profile worst fit 6.6 % MAPE)");
  EXPECT_EQ(model_confidence_text(calibration, "time_slicing"),
            "fitted (time_slicing_efficiency 0.8366 ± 0.0058; profile worst fit 6.6 % MAPE)");
  EXPECT_EQ(model_confidence_text(calibration, "mig"),
            "no sharing constant applies (whole GPUs or MIG instances; profile worst fit 6.6 % MAPE)");
}

TEST(RoiReport, ItSaysWhetherItIsTheStrategiesAsGivenOrTheAdvisorsSearch) {
  // The GUI's run summary and Advise answered differently with nothing saying why: one compares
  // the scenario's strategies as given, the other searches. Each report now says which it is.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto as_given = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  EXPECT_EQ(as_given.scope,
            "This compares the scenario's strategies as given, on its fleet and settings; it is not a search: the "
            "advisor (slicewise advise) searches GPU types, settings and pools, and can answer otherwise.");
  result.origin =
      "advise: the cheapest of 175 configurations searched (GPU types, strategies and their settings, "
      "pools, purchase options), each sized for SLA";
  const auto advised = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  EXPECT_EQ(advised.scope,
            "This is the advisor's answer (slicewise advise): the cheapest of 175 configurations searched (GPU types, "
            "strategies and their settings, pools, purchase options), each sized for SLA.");
  EXPECT_NE(roi_report_markdown(advised, {}).find("- This is the advisor's answer"), std::string::npos);
}

TEST(RoiReport, TheSavingComesWithItsEqualWorkFigure) {
  // Cost per 1,000 requests served within SLA: monthly cost over (Σ throughput × (1 − violations)) ×
  // 730 h × 3,600 s / 1,000, each fleet from the seed result's own figures.
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  auto per_1k = [&](std::size_t i, double monthly) {
    double in_sla = 0.0;
    for (const auto& t : result.strategies[i].tenants) in_sla += t.throughput_per_s * (1.0 - t.sla_violation_frac);
    return monthly / (in_sla * 730 * 3600 / 1000.0);
  };
  const double dedicated = per_1k(0, 3273.4368);
  const double shared = per_1k(1, 1758.1904);
  const auto r = seed_report();
  EXPECT_NEAR(r.strategies[0].cost_per_1k_in_sla_usd, dedicated, 1e-9);
  EXPECT_NEAR(r.strategies[1].cost_per_1k_in_sla_usd, shared, 1e-9);
  // 46.3 % cheaper a month, but only 6.8 % cheaper per request served in time: different work.
  EXPECT_NE(r.savings.find("Per 1,000 requests served within SLA it costs " + format_usd(shared, 4) + " against " +
                           format_usd(dedicated, 4) + " (" + format_percent(1.0 - shared / dedicated) +
                           " less): the two fleets do not deliver the same work."),
            std::string::npos)
      << r.savings;
}

TEST(RoiReport, SlaRiskIsStatedFromTheMarginAndNeverLowBelowIt) {
  // The seed's time slicing, its two tenants' latencies set at every quantile: 1.0 s and X s against
  // their 2 s targets, every request in time.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  auto risk_at = [&](double deepseek_s, std::optional<double> meets_frac) {
    auto r = result;
    for (auto& t : r.strategies[1].tenants) {
      const double value = t.name == "deepseek-r1-distill-llama-8b" ? deepseek_s : 1.0;
      t.latency_cdf_s.assign(scenario::kLatencyCdfLevels.size(), value);
      t.latency_s.max = value;
      t.sla_met = true;
      t.sla_violation_frac = 0.0;
    }
    if (meets_frac) {
      scenario::UncertaintyBand band;
      band.strategy = "time_slicing";
      band.num_samples = 15;
      band.fleet_meets_sla_frac = *meets_frac;
      r.uncertainty = {band};
    }
    return build_roi_report(r, cost_result(r, r.input, table, r.input.pricing.option)).sla_risk;
  };
  // 1.9 s: 5 % to spare is high risk, whatever the violations.
  EXPECT_EQ(risk_at(1.9, std::nullopt),
            "SLA risk is high under time_slicing: its tightest tenant, deepseek-r1-distill-llama-8b, has 5.0 % of its "
            "target to spare (low risk needs 25.0 %, under 10.0 % is high).");
  EXPECT_EQ(risk_at(1.7, std::nullopt).substr(0, 36), "SLA risk is moderate under time_slic");  // 15 %
  EXPECT_EQ(risk_at(1.4, std::nullopt).substr(0, 31), "SLA risk is low under time_slic");       // 30 %
  // 30 % to spare, but the fleet meets every SLA in 46.7 % of the sampled constants: high.
  EXPECT_EQ(risk_at(1.4, 7.0 / 15.0),
            "SLA risk is high under time_slicing: its tightest tenant, deepseek-r1-distill-llama-8b, has 30.0 % of "
            "its target to spare (low risk needs 25.0 %, under 10.0 % is high); with the fitted constants' uncertainty "
            "the fleet meets every SLA in 46.7 % of 15 samples.");
}

TEST(RoiReport, ATenantWithNoMeasuredRequestReadsNoRequestsNotMet) {
  // Nothing judged is not an SLA met: the tenant table used to say "met" with 0 requests.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  result.strategies.at(0).tenants.at(0).num_arrived = 0;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto r = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  const auto tenants = report_tables(r).at(2);
  const auto sla = static_cast<std::size_t>(std::find(tenants.columns.begin(), tenants.columns.end(), "SLA") -
                                            tenants.columns.begin());
  ASSERT_LT(sla, tenants.columns.size());
  EXPECT_EQ(tenants.rows.at(0).at(sla), "no requests");
  EXPECT_EQ(tenants.rows.at(1).at(sla), "met");
}

TEST(RoiReport, TheEnergyTableGivesEachStrategysKwhAndElectricityAsInformation) {
  const auto r = seed_report();
  const auto tables = report_tables(r);
  const auto& energy = tables.at(3);
  EXPECT_EQ(energy.id, "energy");
  EXPECT_EQ(energy.columns,
            (std::vector<std::string>{"strategy", "GPUs", "mean power W", "kWh/month", "kWh/month with PUE",
                                      "electricity $/month", "unused GPUs (idle W)"}));
  EXPECT_EQ(energy.intro.rfind("Information (cloud prices already include power)", 0), 0u) << energy.intro;
  EXPECT_NE(energy.intro.find("electricity at 0.08 USD/kWh and PUE 1.56 (on-prem table \"onprem\")"), std::string::npos)
      << energy.intro;
  // dedicated: two L40S (33 W idle, 350 W TDP) at SM utilisation 0.3975 and 0.6272: 2 x 33 + 317 x
  // 1.0247 = 390.83 W; x 730 h = 285.3 kWh a month; x PUE 1.56 = 445.1 kWh; x $0.08 = $35.61.
  ASSERT_EQ(energy.rows.size(), 2u);
  EXPECT_EQ(energy.rows[0], (std::vector<std::string>{"dedicated", "2", "391", "285.3", "445.1", "$35.61", "0"}));
  // time_slicing: one L40S at 0.59047: 33 + 317 x 0.59047 = 220.18 W; 160.7 kWh; 250.7; $20.06. The
  // result predates energy: computed from its devices, its unused GPUs are not known (0).
  EXPECT_EQ(energy.rows[1], (std::vector<std::string>{"time_slicing", "1", "220", "160.7", "250.7", "$20.06", "0"}));
  ASSERT_TRUE(r.strategies[0].monthly_kwh.has_value());
  EXPECT_NEAR(*r.strategies[0].monthly_kwh, 285.3058, 5e-5);
}

TEST(RoiReport, TheAppendixHoldsTheRecommendedStrategysDeployableConfigs) {
  const auto r = seed_report();
  ASSERT_EQ(r.deploy_configs.size(), 3u);  // README, the device plugin's ConfigMap, the Deployments
  EXPECT_EQ(r.deploy_configs[1].name, "device-plugin-config.yaml");
  EXPECT_NE(r.deploy_configs[1].text.find("timeSlicing:"), std::string::npos);
  const auto md = roi_report_markdown(r, {});
  const auto appendix = md.find("## Appendix: deployable configs");
  ASSERT_NE(appendix, std::string::npos);
  EXPECT_NE(md.find("`slicewise export-config RESULT --strategy time_slicing --out DIR`", appendix), std::string::npos);
  // The files and what each does, not their text (the YAML took 6 of 13 PDF pages).
  EXPECT_NE(
      md.find("- `device-plugin-config.yaml`: the NVIDIA device plugin's config (namespace gpu-operator)\n", appendix),
      std::string::npos);
  EXPECT_NE(md.find("- `deployments.yaml`: one Deployment per tenant", appendix), std::string::npos);
  EXPECT_EQ(md.find("apiVersion: v1", appendix), std::string::npos);
}

TEST(RoiReport, RecommendationRuleTakesTheLargestSavingThatMeetsEverySla) {
  std::vector<StrategySummary> s(3);
  s[0].name = "dedicated";
  s[0].num_gpus = 4;
  s[1].name = "time_slicing";
  s[1].monthly_savings_usd = 3000.0;
  s[1].num_gpus = 1;
  s[1].sla_met = false;  // cheapest, but misses an SLA
  s[2].name = "mig";
  s[2].monthly_savings_usd = 2000.0;
  s[2].num_gpus = 1;
  EXPECT_EQ(recommend(s), 2);
  s[0].monthly_savings_usd = 2000.0;  // a tie within half a cent goes to fewer GPUs
  EXPECT_EQ(recommend(s), 2);
  for (auto& row : s) row.sla_met = false;
  EXPECT_EQ(recommend(s), -1);
}

TEST(RoiReport, WhenNothingSharedQualifiesTheBaselineIsKept) {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  for (auto& t : result.strategies[1].tenants) t.sla_met = false;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto r = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  EXPECT_EQ(r.recommended, 0);
  EXPECT_EQ(r.recommendation, "Keep dedicated: every cheaper strategy misses an SLA (time_slicing).");
}

TEST(RoiReport, AStrategyWithAnOutOfMemoryRiskIsNeverRecommendedAndTheSummarySaysWhy) {
  // The cheaper time_slicing meets its SLA but overcommits the GPU's memory: it was recommended
  // before, with the warning only in the provenance section.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  auto& device = result.strategies[1].devices.at(0);
  device.oom_risk = true;
  device.memory_allocated_gib = 90.0;
  device.memory_capacity_gib = 80.0;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto r = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  EXPECT_EQ(r.recommended, 0);
  EXPECT_EQ(r.recommendation, "Keep dedicated: every cheaper strategy is rejected (time_slicing).");
  EXPECT_EQ(r.rejected, "Not recommended whatever its cost: time_slicing (out-of-memory risk on " + device.name +
                            " (contexts hold 90 GiB of 80 GiB)).");
  EXPECT_NE(roi_report_markdown(r, {}).find("- " + r.rejected.substr(0, 40)), std::string::npos);
}

TEST(RoiReport, UnplaceableContextsAndMissingIsolationRejectAStrategy) {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  auto& shared = result.strategies[1];
  shared.tenants[0].num_contexts_unplaced = 1;
  result.input.tenants[1].isolation = models::IsolationLevel::hardware;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto r = build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
  EXPECT_NE(r.recommended, 1);
  const auto& reasons = r.strategies[1].rejections;
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_EQ(reasons[0], shared.tenants[0].name + ": 1 of " + std::to_string(shared.tenants[0].num_contexts + 1) +
                            " contexts unplaceable");
  EXPECT_EQ(reasons[1], result.input.tenants[1].name + " requires hardware isolation and shares " +
                            shared.devices[0].name + " under none isolation");
  EXPECT_TRUE(r.strategies[0].rejections.empty());  // dedicated: a GPU each
}

TEST(RoiReport, TheUtilisationChartAveragesToTheTablesFigure) {
  // The chart showed the plain mean of MIG instances (about 40 %) next to the table's 56.3 %, an
  // SM-weighted mean over GPUs. Both now come from one definition: the chart's series, averaged
  // over time by interval length, is the table's fleet_busy_frac.
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/mixed-mig-h100.json");
  bool saw_mig = false;
  for (const auto& s : result.strategies) {
    const auto series = scenario::fleet_busy_series(s);
    ASSERT_FALSE(series.empty()) << s.name;
    double integral = 0.0;
    for (std::size_t i = 0; i < series.size(); ++i) {
      const double start = static_cast<double>(i) * s.series.interval_s;
      integral += series[i] * (std::min(result.horizon_s, start + s.series.interval_s) - start);
    }
    EXPECT_NEAR(integral / result.horizon_s, s.fleet_busy_frac, 1e-9) << s.name;
    for (const auto& d : s.devices) saw_mig = saw_mig || !d.mig_profile.empty();
  }
  EXPECT_TRUE(saw_mig);
  // A 3g.40gb instance of an H100 SXM has 60 of its 132 SMs.
  scenario::DeviceResult instance;
  instance.gpu = "H100-SXM-80GB";
  instance.mig_profile = "3g.40gb";
  EXPECT_DOUBLE_EQ(scenario::gpu_share(instance), 60.0 / 132.0);
}

TEST(RoiReport, VgpuPaysItsLicenceForEachGpuItRunsOn) {
  // vGPU licences cost nothing in the ROI before: now NVIDIA AI Enterprise, $4,500 per GPU-year,
  // for each GPU with a vGPU context, on top of the instances.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  result.strategies[1].kind = "vgpu";
  result.input.strategies[1].kind = models::StrategyKind::vgpu;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto costs = cost_result(result, result.input, table, result.input.pricing.option);
  const auto& lines = costs.strategies[1].lines;
  ASSERT_EQ(lines.size(), 3u);  // the GPU instance, the licence, the two t3.large sidecars
  EXPECT_EQ(lines[1].role, "licence");
  EXPECT_EQ(lines[1].instance_type, "NVIDIA AI Enterprise (vGPU for compute)");
  EXPECT_EQ(lines[1].count, result.strategies[1].num_gpus_used);
  EXPECT_NEAR(lines[1].monthly_usd, 375.0 * result.strategies[1].num_gpus_used, 1e-9);
  EXPECT_NEAR(costs.strategies[1].monthly_usd, 1758.1904 + 375.0, 1e-6);
  EXPECT_EQ(costs.strategies[0].lines.size(), 1u);  // dedicated needs no licence
}

TEST(RoiReport, MarkdownHasEverySectionStrategyAndFigure) {
  const auto r = seed_report();
  auto figures = report_figures(r);
  std::vector<std::string> ids;
  for (auto& f : figures) {
    ids.push_back(f.id);
    f.file = "fig/" + f.id + ".svg";
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"cost", "savings", "latency-cdf", "utilization"}));
  const auto md = roi_report_markdown(r, figures);
  for (const char* text : {"# ROI report: seed-l40s-timeslicing", "## Executive summary",
                           "**Recommended strategy: time_slicing (time-slicing, 10 replicas per GPU)**",
                           "## Strategies", "| time_slicing (recommended) |", "| dedicated (baseline) |", "## Tenants",
                           "](fig/latency-cdf.svg)", "## Assumptions and provenance", "## Methodology"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text;
  }
}

TEST(RoiReport, EveryPriceIsListedWithItsOwnDateAndSource) {
  const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto* gpu = table.find("g6e.2xlarge", "us-east-1");
  const auto* sidecar = table.find("t3.large", "us-east-1");
  ASSERT_TRUE(gpu && sidecar);
  const auto r =
      build_roi_report(result, cost_result(result, result.input, table, pricing::PurchaseOption::on_demand), &table);
  ASSERT_EQ(r.priced_items.size(), 2u);  // each once: dedicated's and time_slicing's g6e.2xlarge, the t3.large sidecars
  EXPECT_EQ(provenance_lines(r),
            (std::vector<std::string>{"g6e.2xlarge: $2.24208/h on-demand, aws us-east-1, price retrieved 2026-11-22; "
                                      "its source gives no snapshot date (source: " +
                                          gpu->source + ")",
                                      "t3.large: $0.0832/h on-demand, aws us-east-1, price retrieved 2026-11-22; its "
                                      "source gives no snapshot date (source: " +
                                          sidecar->source + ")",
                                      "Calibration profile: slicewise-default-2026-11-22", "Seed: 42",
                                      "dedicated: fleet as given (2 GPUs)", "time_slicing: fleet as given (1 GPU)",
                                      "Workload figures (GPU duty, SM occupancy, memory bandwidth, memory): given in "
                                      "the scenario for every tenant; the appendix lists them per tenant"}));
  // Spot prices have their own date and source; the t3.large's spot price has no date of its own.
  const auto spot =
      build_roi_report(result, cost_result(result, result.input, table, pricing::PurchaseOption::spot), &table);
  ASSERT_EQ(spot.priced_items.size(), 2u);
  EXPECT_EQ(spot.priced_items[0].as_of, "2025-11-30");
  EXPECT_EQ(spot.priced_items[0].source, gpu->spot_source);
  EXPECT_EQ(spot.priced_items[1].as_of, sidecar->as_of);
  EXPECT_EQ(spot.priced_items[1].source, sidecar->spot_source);
  EXPECT_EQ(provenance_lines(spot)[0].substr(0, 58), "g6e.2xlarge: $0.97975/h spot, aws us-east-1, price as of 2");
  // Without the table the shipped one of that name gives the same, its prices being the ones used.
  const auto plain = seed_report();
  ASSERT_EQ(plain.priced_items.size(), 2u);
  EXPECT_EQ(plain.priced_items[0].as_of, gpu->as_of);
  EXPECT_EQ(plain.priced_items[0].source, gpu->source);
  const auto md = roi_report_markdown(r, {});
  EXPECT_NE(md.find("### Where these figures come from\n\n- g6e.2xlarge: $2.24208/h on-demand"), std::string::npos);
}

/// A sweep of `users` = 2, 4, ..., 16: time_slicing saves $100 less per step from $1,515.25 and,
/// like dedicated, meets every SLA up to 12 users.
SweepSection users_sweep() {
  SweepSection sweep;
  sweep.name = "seed-users";
  sweep.axes = {"users"};
  sweep.strategies = {"dedicated", "time_slicing"};
  sweep.detail_point = "p0000";
  for (int i = 0; i < 8; ++i) {
    SweepSection::Row row;
    row.point = "p000" + std::to_string(i);
    row.labels = {std::to_string(2 * (i + 1))};
    row.savings_usd = {0.0, 1515.25 - 100.0 * i};
    row.sla_met = {i < 6, i < 6};
    row.recommended = i < 6 ? "time_slicing" : "";
    sweep.rows.push_back(row);
  }
  return sweep;
}

TEST(RoiReport, ASweepsSummaryReadsAgainstTheSweptVariable) {
  auto r = seed_report();
  const std::string recommendation = r.recommendation, savings = r.savings, sla_risk = r.sla_risk;
  add_sweep(r, users_sweep());
  EXPECT_EQ(r.title, "ROI report: sweep seed-users");
  ASSERT_TRUE(r.sweep.has_value());
  EXPECT_EQ(r.recommendation,
            "Across users = 2 … 16 (8 points): time_slicing is recommended at 6 points; no strategy qualifies at 2. "
            "In detail below, point p0000 (users=2): " +
                recommendation);
  // A sentence per strategy, shown as points under the savings (they were one run-on sentence).
  EXPECT_EQ(r.sweep_savings, std::vector<std::string>{"time_slicing saves $1,515.25 at users=2 to $815.25 at users=16 "
                                                      "and meets every SLA up to users=12 (missed from users=14)."});
  EXPECT_EQ(r.savings, "At point p0000 (users=2): " + savings);
  EXPECT_EQ(r.sla_risk, "From users=14 no strategy meets every SLA. At point p0000 (users=2): " + sla_risk);
  // The label and its mechanism with the settings that define it (it said "time_slicing" alone).
  EXPECT_EQ(recommended_headline(r),
            "Recommended strategy at point p0000 (users=2): time_slicing (time-slicing, 10 replicas per GPU)");
  const auto md = roi_report_markdown(r, {});
  EXPECT_NE(md.find("**Recommended strategy at point p0000 (users=2): time_slicing (time-slicing, 10 replicas per "
                    "GPU)**"),
            std::string::npos);
  EXPECT_NE(md.find("- Across the points:\n  - time_slicing saves $1,515.25 at users=2"), std::string::npos) << md;
}

TEST(RoiReport, ASweepWhoseBaselineCostsDifferPerPointComparesByCostLikeForLike) {
  // A sweep over GPU types: each point's savings were against its own dedicated bill (H200 $92,412,
  // H100 $65,291), read side by side as if comparable.
  auto r = seed_report();
  const std::string savings = r.savings;
  SweepSection sweep;
  sweep.name = "gpus";
  sweep.axes = {"gpu"};
  sweep.strategies = {"dedicated", "time_slicing"};
  sweep.detail_point = "p0000";
  const char* gpus[] = {"H200", "H100"};
  const double dedicated[] = {92412.0, 65291.0};
  const double shared[] = {46206.0, 40000.0};
  for (int i = 0; i < 2; ++i) {
    SweepSection::Row row;
    row.point = "p000" + std::to_string(i);
    row.labels = {gpus[i]};
    row.monthly_usd = {dedicated[i], shared[i]};
    row.savings_usd = {0.0, dedicated[i] - shared[i]};
    row.sla_met = {true, true};
    row.num_gpus = {8, 4};
    row.recommended = "time_slicing";
    sweep.rows.push_back(row);
  }
  add_sweep(r, sweep);
  EXPECT_EQ(r.savings.rfind("Like for like: each point's savings are against its own dedicated, which costs "
                            "$65,291.00 a month at gpu=H100 and $92,412.00 at gpu=H200, so compare the points by "
                            "cost, not by saving: the cheapest that meets every SLA is time_slicing at gpu=H100, "
                            "$40,000.00 a month, $25,291.00 less than the cheapest dedicated. ",
                            0),
            0u)
      << r.savings;
  EXPECT_NE(r.savings.find(savings), std::string::npos);
}

TEST(RoiReport, ASweepOverTwoAxesNamesItsPointsWithTheirValues) {
  auto r = seed_report();
  SweepSection sweep;
  sweep.name = "two";
  sweep.axes = {"phi_users", "deepseek_users"};
  sweep.strategies = {"dedicated", "time_slicing"};
  sweep.detail_point = "p0000";
  const int phi[] = {1, 1, 2, 2, 4, 4, 8, 8};
  for (int i = 0; i < 8; ++i) {
    SweepSection::Row row;
    row.point = "p000" + std::to_string(i);
    row.labels = {std::to_string(phi[i]), std::to_string(1 + i % 2)};
    const bool shared_met = i % 2 == 0 && phi[i] < 8;
    row.savings_usd = {0.0, 1515.25};
    row.sla_met = {phi[i] < 8, shared_met};
    row.recommended = phi[i] == 8 ? "" : shared_met ? "time_slicing" : "dedicated";
    sweep.rows.push_back(row);
  }
  add_sweep(r, sweep);
  EXPECT_EQ(r.recommendation.substr(0, 162),
            "Across phi_users = 1 … 8 and deepseek_users = 1 … 2 (8 points): dedicated is recommended at 3 points, "
            "time_slicing at 3; no strategy qualifies at 2. In detail");
  ASSERT_EQ(r.sweep_savings.size(), 1u);
  EXPECT_EQ(r.sweep_savings[0],
            "time_slicing saves $1,515.25 at every point and meets every SLA at 3 of 8 points (missed at p0001 "
            "(phi_users=1, deepseek_users=2); p0003 (phi_users=2, deepseek_users=2); p0005 (phi_users=4, "
            "deepseek_users=2); p0006 (phi_users=8, deepseek_users=1); …).");
  EXPECT_EQ(r.sla_risk.substr(0, r.sla_risk.find(" At point")),
            "At 2 points no strategy meets every SLA: p0006 (phi_users=8, deepseek_users=1); p0007 (phi_users=8, "
            "deepseek_users=2).");
}

TEST(RoiReport, MarkdownShowsNamesAsWrittenNeverAsMarkup) {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const std::string name = "ts <b>bold</b> & | co\\";
  result.strategies[1].name = name;
  result.input.strategies[1].name = name;
  result.input.name = "seed <i>";
  result.scenario = "seed <i>";
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto md = roi_report_markdown(
      build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option)), {});
  for (const char* text : {"# ROI report: seed &lt;i&gt;\n",
                           "**Recommended strategy: ts &lt;b&gt;bold&lt;/b&gt; &amp; | co\\\\ (time-slicing",
                           "| ts &lt;b&gt;bold&lt;/b&gt; &amp; \\| co\\\\ (recommended) |"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text << "\n" << md;
  }
  EXPECT_EQ(md.find("<b>"), std::string::npos);
  EXPECT_EQ(md.find("<i>"), std::string::npos);
}

TEST(RoiReport, MarkdownNeverMakesALinkOrAnImageOfAName) {
  // A strategy named as a remote image (fetched whenever the report is viewed), a link and bare
  // addresses that GitHub links by itself.
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const std::string name =
      "![x](https://tracker.example/p.png) [pay](http://evil.example) www.evil.example a@b.example";
  result.strategies[1].name = name;
  result.input.strategies[1].name = name;
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  const auto md = roi_report_markdown(
      build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option)), {});
  const std::string shown =
      "!\\[x\\](https\\://tracker.example/p.png) \\[pay\\](http\\://evil.example) www\\.evil.example a\\@b.example";
  EXPECT_NE(md.find("**Recommended strategy: " + shown), std::string::npos) << md;
  EXPECT_NE(md.find("| " + shown + " (recommended) |"), std::string::npos) << md;
  // No "](" but an escaped one: the name's brackets are text.
  for (std::size_t at = md.find("]("); at != std::string::npos; at = md.find("](", at + 1)) {
    EXPECT_EQ(md[at - 1], '\\') << md.substr(at > 40 ? at - 40 : 0, 80);
  }
  EXPECT_EQ(md.find("https://"), std::string::npos);
  EXPECT_EQ(md.find("http://"), std::string::npos);
  EXPECT_EQ(md.find("www.evil"), std::string::npos);
  EXPECT_EQ(md.find("a@b"), std::string::npos);
}

// ---- Availability, MIG layout schedule, workload sources ----

/// A fault event of the run, filled by hand.
scenario::FaultEvent fault_event(double at_s, const std::string& kind, std::vector<std::string> contexts_hit,
                                 int tenants_hit, double outage_s) {
  scenario::FaultEvent e;
  e.at_s = at_s;
  e.kind = kind;
  e.contexts_hit = std::move(contexts_hit);
  e.tenants_hit = tenants_hit;
  e.outage_s = outage_s;
  return e;
}

/// The seed result with faults: tenant crashes at 0.01 per context-hour, a co-tenant dying with
/// probability 0.5, GPU failures at the Llama 3 rate (left unset), one scheduled crash; each
/// strategy's fault record and its tenants' run figures filled by hand.
scenario::SimResult seed_with_faults() {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  scenario::FaultSpec faults;
  faults.tenant_crash_per_context_hour = 0.01;
  faults.co_tenant_kill_frac = 0.5;
  scenario::ScheduledFault crash;
  crash.at_s = 100.0;
  crash.kind = scenario::FaultKind::tenant_crash;
  crash.tenant = "phi-3.5-mini-instruct";
  faults.schedule.push_back(crash);
  result.input.faults = faults;
  // dedicated: 2 GPUs x 1.2e-5 x 730 h GPU failures and 2 contexts x 0.01 x 730 h crashes a month,
  // each taking one tenant down.
  scenario::FaultRecord dedicated;
  dedicated.expected = {{"gpu_failure", 0.0176, 1.0, 1.0, 3630.0}, {"tenant_crash", 14.6, 1.0, 1.0, 30.0}};
  dedicated.expected_blast_radius = 1.0;
  dedicated.events = {fault_event(100.0, "tenant_crash", {"phi-3.5-mini-instruct#0"}, 1, 30.0)};
  dedicated.blast_radius_tenants = 1.0;
  dedicated.tenants = {{"phi-3.5-mini-instruct", 7.3088, 0.0697, 0.9999045},
                       {"deepseek-r1-distill-llama-8b", 7.3088, 0.0697, 0.9999045}};
  auto& ded = result.strategies[0];
  ded.faults = dedicated;
  ded.tenants[0].num_failed = 3;
  ded.tenants[0].num_retried = 12;
  ded.tenants[0].downtime_s = 30.0;
  // time_slicing: one GPU; a failure takes both tenants, a crash the other with probability 0.5.
  scenario::FaultRecord shared;
  shared.expected = {{"gpu_failure", 0.0088, 2.0, 2.0, 3630.0}, {"tenant_crash", 14.6, 1.5, 1.5, 30.0}};
  shared.expected_blast_radius = 1.500301;
  const std::vector<std::string> both = {"phi-3.5-mini-instruct#0", "deepseek-r1-distill-llama-8b#0"};
  shared.events = {fault_event(100.0, "tenant_crash", both, 2, 30.0),
                   fault_event(400.0, "gpu_failure", both, 2, 3630.0)};
  shared.blast_radius_tenants = 2.0;
  shared.tenants = {{"phi-3.5-mini-instruct", 14.6088, 0.1279, 0.9998248},
                    {"deepseek-r1-distill-llama-8b", 14.6088, 0.1279, 0.9998248}};
  auto& ts = result.strategies[1];
  ts.faults = shared;
  ts.tenants[0].num_failed = 5;
  ts.tenants[0].num_retried = 20;
  ts.tenants[0].downtime_s = 45.5;
  return result;
}

RoiReport priced(const scenario::SimResult& result) {
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return build_roi_report(result, cost_result(result, result.input, table, result.input.pricing.option));
}

TEST(RoiReport, TheAvailabilitySectionNamesTheRatesAndGivesEachStrategysBlastRadius) {
  const auto r = priced(seed_with_faults());
  const auto sections = report_sections(r);
  ASSERT_EQ(sections.size(), 1u);  // no layout schedule
  const auto& a = sections[0];
  EXPECT_EQ(a.id, "availability");
  EXPECT_EQ(a.title, "Availability and blast radius");
  ASSERT_EQ(a.paragraphs.size(), 1u);
  EXPECT_EQ(a.paragraphs[0],
            "Fault rates: GPU failures 1.21e-5 per GPU-hour, one per 82,944 GPU-hours (the scenario leaves it unset: "
            "the rate of Meta's Llama 3 run; source: " +
                std::string(models::kGpuFailureSource) +
                "); tenant crashes 0.01 per context-hour; no driver resets or MPS server faults. Recovery: a failed "
                "GPU is back after 3600 s and a reset one after 60 s; a context that went down serves again 30 s "
                "after its crash, its MPS server's fault or its GPU's return. Under time-sliced sharing a crashed "
                "context takes each co-tenant's context on its GPU with it with probability 0.5 "
                "(co_tenant_kill_frac); a request lost to a fault is re-sent up to 1 time. The run adds 1 scheduled "
                "fault to those it draws.");
  ASSERT_EQ(a.tables.size(), 2u);
  const auto& faults = a.tables[0];
  EXPECT_EQ(faults.columns,
            (std::vector<std::string>{"strategy", "kind", "faults/month", "tenants per fault", "contexts per fault",
                                      "faults in the run", "tenants per fault in the run"}));
  // time_slicing's contexts per fault: (0.0088 x 2 + 14.6 x 1.5) / 14.6088 = 1.5003.
  EXPECT_EQ(faults.rows, (std::vector<std::vector<std::string>>{
                             {"dedicated", "dedicated", "14.6", "1.00", "1.00", "1", "1.00"},
                             {"time_slicing", "time_slicing", "14.6", "1.50", "1.50", "2", "2.00"}}));
  const auto& tenants = a.tables[1];
  EXPECT_EQ(tenants.columns,
            (std::vector<std::string>{"strategy", "tenant", "interruptions/month", "outage h/month", "availability %",
                                      "failed in the run", "retried in the run", "downtime s in the run"}));
  EXPECT_EQ(tenants.rows,
            (std::vector<std::vector<std::string>>{
                {"dedicated", "phi-3.5-mini-instruct", "7.31", "0.0697", "99.990", "3", "12", "30.0"},
                {"dedicated", "deepseek-r1-distill-llama-8b", "7.31", "0.0697", "99.990", "0", "0", "0.0"},
                {"time_slicing", "phi-3.5-mini-instruct", "14.6", "0.128", "99.982", "5", "20", "45.5"},
                {"time_slicing", "deepseek-r1-distill-llama-8b", "14.6", "0.128", "99.982", "0", "0", "0.0"}}));
  EXPECT_EQ(a.notes, (std::vector<std::string>{
                         "dedicated: each context has a GPU of its own, so a tenant's crash takes down its own "
                         "context only; like every strategy, it loses everything on a GPU that fails or resets.",
                         "time_slicing: contexts share the GPU without fault isolation, so a tenant's crash can take "
                         "the co-tenants on its GPU with it (co_tenant_kill_frac 0.5); like every strategy, it loses "
                         "everything on a GPU that fails or resets."}));
  const auto md = roi_report_markdown(r, {});
  for (const char* text :
       {"## Availability and blast radius\n\nFault rates: GPU failures 1.21e-5 per GPU-hour", "### Faults per strategy",
        "| time_slicing | time_slicing | 14.6 | 1.50 | 1.50 | 2 | 2.00 |", "### Availability per tenant",
        "| dedicated | phi-3.5-mini-instruct | 7.31 | 0.0697 | 99.990 | 3 | 12 | 30.0 |",
        "\n- dedicated: each context has a GPU of its own"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text;
  }
  // After the report's tables, before the figures.
  EXPECT_LT(md.find("## Energy"), md.find("## Availability and blast radius"));
  EXPECT_LT(md.find("## Availability and blast radius"), md.find("## Figures"));
}

TEST(RoiReport, TheIsolationSentenceFollowsTheStrategyKind) {
  auto r = priced(seed_with_faults());
  const std::string tail = "; like every strategy, it loses everything on a GPU that fails or resets.";
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"mps", "time_slicing (mps): a client's fatal fault, or the MPS server's, ends every client on the GPU"},
      {"mig",
       "time_slicing (mig): MIG instances are hardware partitions, so a tenant's crash stays in its own "
       "instance"},
      {"mig_time_slicing",
       "time_slicing (mig_time_slicing): a tenant's crash stays in its MIG instance, but can "
       "take the co-tenants time-sliced in that instance with it (co_tenant_kill_frac 0.5)"},
      {"hami",
       "time_slicing (hami): contexts share the GPU without fault isolation, so a tenant's crash can take "
       "the co-tenants on its GPU with it (co_tenant_kill_frac 0.5)"},
      {"vgpu",
       "time_slicing (vgpu): each context runs in a VM of its own with its own guest driver, so a tenant's "
       "crash stays in its VM"}};
  for (const auto& [kind, sentence] : kinds) {
    r.result.strategies[1].kind = kind;
    const auto sections = report_sections(r);
    ASSERT_EQ(sections.size(), 1u);
    ASSERT_EQ(sections[0].notes.size(), 2u);
    EXPECT_EQ(sections[0].notes[1], sentence + tail) << kind;
  }
}

TEST(RoiReport, RatesGivenAndRandomFaultsOffAreSaidSo) {
  auto result = seed_with_faults();
  result.input.faults->gpu_failure_per_gpu_hour = 0.0;
  result.input.faults->driver_reset_per_gpu_hour = 0.0002;
  result.input.faults->random = false;
  result.input.faults->max_retries = 2;
  const auto sections = report_sections(priced(result));
  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(sections[0].paragraphs.at(0),
            "Fault rates: driver resets 0.0002 per GPU-hour; tenant crashes 0.01 per context-hour; no GPU failures "
            "or MPS server faults. Recovery: a failed GPU is back after 3600 s and a reset one after 60 s; a "
            "context that went down serves again 30 s after its crash, its MPS server's fault or its GPU's return. "
            "Under time-sliced sharing a crashed context takes each co-tenant's context on its GPU with it with "
            "probability 0.5 (co_tenant_kill_frac); a request lost to a fault is re-sent up to 2 times. The run "
            "draws no faults from these rates (random false): it has only its 1 scheduled fault; the expected "
            "figures below come from the rates all the same.");
  // A rate given in the scenario: its hours between failures, no Llama 3 source.
  result.input.faults->gpu_failure_per_gpu_hour = 1e-4;
  const auto given = report_sections(priced(result));
  EXPECT_EQ(given.at(0).paragraphs.at(0).substr(0, 101),
            "Fault rates: GPU failures 0.0001 per GPU-hour, one per 10,000 GPU-hours; driver resets 0.0002 per GPU");
}

TEST(RoiReport, OnSpotTheCapacitySectionSaysWhatInterruptionsCostEachFleet) {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed.json");
  EXPECT_TRUE(report_sections(priced(result)).empty());  // on demand, not sized by the hour
  result.input.pricing.option = pricing::PurchaseOption::spot;
  const auto sections = report_sections(priced(result));
  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(sections[0].id, "capacity");
  ASSERT_EQ(sections[0].notes.size(), 2u);  // dedicated and time_slicing
  EXPECT_EQ(
      sections[0].notes[1].rfind("time_slicing: on spot, 0.20 interruptions a month are expected over 1 instance", 0),
      0u)
      << sections[0].notes[1];
}

/// The mixed MIG result with a fifth strategy, mig-day-night: the static mig's GPU under a layout
/// schedule (day: the static layout, vision-resnet50 with two contexts; night from 20:30: one
/// 7g.80gb for llm-8b), its clock at 07:45, so that the run re-partitions once, 15 minutes in.
scenario::SimResult mixed_with_schedule() {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/mixed-mig-h100.json");
  auto& run = test::add_day_night_strategy(result, 2);
  auto& schedule = *result.input.strategies.back().layout_schedule;
  schedule.start_hour = 7.75;
  schedule.repartition_s = 60.0;
  run.tenants[0].latency_s.p95 = 4.0;
  run.tenants[1].latency_s.p95 = 0.1;
  run.tenants[3].latency_s.p95 = 12.0;
  run.tenants[3].sla_met = false;
  run.fleet_busy_frac = 0.4;
  scenario::FaultRecord record;
  record.num_repartitions = 1;
  auto repartition = fault_event(900.0, "repartition", {"llm-8b#0"}, 1, 60.0);
  repartition.origin = "night -> day";
  repartition.scheduled = true;
  record.events = {repartition};
  run.faults = record;
  return result;
}

TEST(RoiReport, TheMigScheduleSectionGivesThePhasesTheRepartitionsAndTheStaticComparison) {
  const auto r = priced(mixed_with_schedule());
  const auto sections = report_sections(r);
  ASSERT_EQ(sections.size(), 1u);  // re-partitions alone make no availability section
  const auto& m = sections[0];
  EXPECT_EQ(m.id, "mig-schedule");
  EXPECT_EQ(m.title, "MIG layout schedule");
  ASSERT_EQ(m.tables.size(), 1u);
  EXPECT_EQ(m.tables[0].columns,
            (std::vector<std::string>{"strategy", "phase", "starts at", "layout", "tenants and profiles"}));
  EXPECT_EQ(m.tables[0].rows,
            (std::vector<std::vector<std::string>>{
                {"mig-day-night", "day", "08:00", "3g.40gb+2g.20gb+1g.10gb+1g.10gb",
                 "llm-8b 3g.40gb, vision-resnet50 2g.20gb × 2, notebook-alice 1g.10gb, notebook-bob 1g.10gb"},
                {"mig-day-night", "night", "20:30", "7g.80gb",
                 "llm-8b 7g.80gb; waiting: vision-resnet50, notebook-alice, notebook-bob"}}));
  // The static mig's p95: 4.643, 0.152, 3.475 and 9.421 s; GPU busy 56.3 %.
  EXPECT_EQ(m.notes,
            (std::vector<std::string>{
                "mig-day-night (mig): simulated time 0 is 07:45; at each phase's hour its GPUs re-partition all at "
                "once, each serving nothing for 60 s (drain, destroy and create the instances, restart the pods). "
                "The run had 1 re-partition, which took 60 GPU-seconds (0.02 GPU-hours) of service.",
                "Against the static mig: mig-day-night misses the SLA of notebook-bob, mig meets every SLA; p95 "
                "latency llm-8b 4.000 s against 4.643 s, vision-resnet50 0.100 s against 0.152 s, notebook-alice "
                "3.475 s against 3.475 s, notebook-bob 12.000 s against 9.421 s; GPU busy 40.0 % against 56.3 %."}));
  const auto md = roi_report_markdown(r, {});
  EXPECT_NE(md.find("## MIG layout schedule\n\nA layout schedule re-partitions"), std::string::npos);
  EXPECT_NE(md.find("| mig-day-night | night | 20:30 | 7g.80gb | llm-8b 7g.80gb; waiting: vision-resnet50, "
                    "notebook-alice, notebook-bob |"),
            std::string::npos);
  EXPECT_EQ(md.find("Availability and blast radius"), std::string::npos);
}

TEST(RoiReport, ARollingScheduleWithoutAStaticMigStrategySaysSoAndComparesWithNothing) {
  auto result = mixed_with_schedule();
  result.input.strategies.back().layout_schedule->rolling = true;
  // Only dedicated and the scheduled strategy are left.
  result.strategies = {result.strategies[0], result.strategies[4]};
  result.input.strategies = {result.input.strategies[0], result.input.strategies[4]};
  result.strategies[1].faults->num_repartitions = 0;
  result.strategies[1].faults->events.clear();
  const auto sections = report_sections(priced(result));
  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(sections[0].notes,
            (std::vector<std::string>{
                "mig-day-night (mig): simulated time 0 is 07:45; at each phase's hour its GPUs re-partition one "
                "after another (rolling), each serving nothing for 60 s (drain, destroy and create the instances, "
                "restart the pods). The run had no re-partition: it ended before the next phase."}));
}

TEST(RoiReport, TheAppendixListsEveryTenantsWorkloadFiguresAndTheirSource) {
  auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed-report.json");
  const std::string source =
      "dcgm-prometheus: dcgm-exporter-l40s.prom, 4 busy samples of 4; gpu_duty_frac 0.795 ± 0.010";
  result.input.tenants[1].workload.source = source;
  const auto r = priced(result);
  const auto t = workload_sources_table(r);
  EXPECT_EQ(t.id, "workload-sources");
  EXPECT_EQ(t.title, "Appendix: where the workload figures come from");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"tenant", "gpu_duty_frac", "sm_occupancy_frac", "mem_bw_frac",
                                                 "memory_gib", "source"}));
  EXPECT_EQ(t.rows, (std::vector<std::vector<std::string>>{
                        {"phi-3.5-mini-instruct", "0.795", "0.5", "0.6", "19.2", "given in the scenario"},
                        {"deepseek-r1-distill-llama-8b", "0.896", "0.7", "0.8", "19.2", source}}));
  EXPECT_EQ(t.wrap, (std::vector<bool>{false, false, false, false, false, true}));  // the source wraps
  EXPECT_EQ(provenance_lines(r).back(),
            "Workload figures (GPU duty, SM occupancy, memory bandwidth, memory): 1 of 2 tenants' from the source "
            "their workload names, the others given in the scenario; the appendix lists them per tenant");
  // In the Markdown after the methodology, before the deployable configs.
  const auto md = roi_report_markdown(r, {});
  const auto appendix = md.find("## Appendix: where the workload figures come from");
  ASSERT_NE(appendix, std::string::npos);
  EXPECT_LT(md.find("## Methodology"), appendix);
  EXPECT_LT(appendix, md.find("## Appendix: deployable configs"));
  EXPECT_NE(md.find("| deepseek-r1-distill-llama-8b | 0.896 | 0.7 | 0.8 | 19.2 | " + source + " |", appendix),
            std::string::npos);
}

TEST(RoiReport, AResultWithoutFaultsOrSchedulesHasNeitherSection) {
  const auto r = seed_report();
  EXPECT_TRUE(report_sections(r).empty());
  const auto md = roi_report_markdown(r, {});
  EXPECT_EQ(md.find("Availability and blast radius"), std::string::npos);
  EXPECT_EQ(md.find("MIG layout schedule"), std::string::npos);
  EXPECT_NE(md.find("## Appendix: where the workload figures come from"), std::string::npos);  // in every report
  // A static MIG result has no schedule section either.
  EXPECT_TRUE(
      report_sections(priced(scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/mixed-mig-h100.json")))
          .empty());
}

}  // namespace
}  // namespace slicewise::report
