// The ROI report's content from the seed result (test/data/results/seed-report.json, priced with the
// shipped AWS table): figures worked out by hand from docs/roi.md.
#include "report/roi_report.hpp"

#include <gtest/gtest.h>

#include "scenario/result_json.hpp"
#include "scenario/utilisation.hpp"
#include "scenario/validate.hpp"

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
  EXPECT_EQ(report_tables(r).size(), 3u);  // strategies, tenants, energy (no sweep, no uncertainty)
}

TEST(RoiReport, TheEnergyTableGivesEachStrategysKwhAndElectricityAsInformation) {
  const auto r = seed_report();
  const auto tables = report_tables(r);
  const auto& energy = tables.at(2);
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
  EXPECT_NE(md.find("### device-plugin-config.yaml\n\n```yaml\napiVersion: v1\n", appendix), std::string::npos);
  EXPECT_NE(md.find("### deployments.yaml", appendix), std::string::npos);
  EXPECT_EQ(md.find("### README.md", appendix), std::string::npos);
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
  for (const char* text :
       {"# ROI report: seed-l40s-timeslicing", "## Executive summary", "**Recommended strategy: time_slicing**",
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
            (std::vector<std::string>{"g6e.2xlarge: $2.24208/h on-demand, aws us-east-1, price as of " + gpu->as_of +
                                          " (source: " + gpu->source + ")",
                                      "t3.large: $0.0832/h on-demand, aws us-east-1, price as of " + sidecar->as_of +
                                          " (source: " + sidecar->source + ")",
                                      "Calibration profile: slicewise-default-2026-11-22", "Seed: 42",
                                      "dedicated: fleet as given (2 GPUs)", "time_slicing: fleet as given (1 GPU)"}));
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
  EXPECT_EQ(r.savings,
            "time_slicing saves $1,515.25 at users=2 to $815.25 at users=16 and meets every SLA up to users=12 "
            "(missed from users=14). At point p0000 (users=2): " +
                savings);
  EXPECT_EQ(r.sla_risk, "From users=14 no strategy meets every SLA. At point p0000 (users=2): " + sla_risk);
  EXPECT_EQ(recommended_headline(r), "Recommended strategy at point p0000 (users=2): time_slicing");
  const auto md = roi_report_markdown(r, {});
  EXPECT_NE(md.find("**Recommended strategy at point p0000 (users=2): time_slicing**"), std::string::npos);
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
  EXPECT_EQ(r.savings.substr(0, r.savings.find(" At point")),
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
  for (const char* text :
       {"# ROI report: seed &lt;i&gt;\n", "**Recommended strategy: ts &lt;b&gt;bold&lt;/b&gt; &amp; | co\\**",
        "| ts &lt;b&gt;bold&lt;/b&gt; &amp; \\| co\\\\ (recommended) |"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text << "\n" << md;
  }
  EXPECT_EQ(md.find("<b>"), std::string::npos);
  EXPECT_EQ(md.find("<i>"), std::string::npos);
}

}  // namespace
}  // namespace slicewise::report
