// Money arithmetic: fleet costing, savings, chargeback, business view.
#include "pricing/roi.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "pricing/onprem.hpp"

#include <gtest/gtest.h>

namespace slicewise::pricing {
namespace {

PriceTable table() {
  PriceTable t;
  t.name = "test";
  t.currency = "USD";
  // Field by field, so that a key added to the table format needs no change here.
  const auto row = [](const std::string& type, std::optional<std::string> gpu, int gpus, int vcpus, double memory_gib,
                      double on_demand) {
    InstancePrice r;
    r.instance_type = type;
    r.region = "us-east-1";
    r.gpu = std::move(gpu);
    r.num_gpus = gpus;
    r.num_vcpus = vcpus;
    r.memory_gib = memory_gib;
    r.on_demand_usd_per_hour = on_demand;
    return r;
  };
  InstancePrice one = row("g6e.2xlarge", "L40S", 1, 8, 64.0, 2.24208);
  one.spot_usd_per_hour = 1.0;
  const InstancePrice four = row("g6e.12xlarge", "L40S", 4, 48, 384.0, 10.49264);
  const InstancePrice cpu = row("t3.large", std::nullopt, 0, 2, 8.0, 0.0832);
  t.instances = {one, four, cpu};
  return t;
}

TEST(Roi, CheapestInstancesCarryTheGpus) {
  const auto t = table();
  // 3 GPUs: 3 x 2.24208 = 6.72624 beats 1 x 10.49264.
  auto line = cheapest_gpu_instances(t, "L40S", 3, PurchaseOption::on_demand);
  ASSERT_TRUE(line);
  EXPECT_EQ(line->instance_type, "g6e.2xlarge");
  EXPECT_EQ(line->count, 3);
  // 5 GPUs: 5 x 2.24208 = 11.2104 loses to one 4-GPU + ... no: 2 x 10.49264 = 20.99 > 11.21.
  line = cheapest_gpu_instances(t, "L40S", 5, PurchaseOption::on_demand);
  EXPECT_EQ(line->count, 5);
  // Only the 4-GPU type: ceil(5 / 4) = 2 instances carrying 8 GPUs.
  line = cheapest_gpu_instances(t, "L40S", 5, PurchaseOption::on_demand, "", "g6e.12xlarge");
  EXPECT_EQ(line->count, 2);
  EXPECT_EQ(line->num_gpus, 8);
  EXPECT_NEAR(line->monthly_usd, 2 * 10.49264 * 730, 1e-9);
  // Spot exists only for the 1-GPU type.
  EXPECT_EQ(cheapest_gpu_instances(t, "L40S", 2, PurchaseOption::spot)->usd_per_hour_each, 1.0);
  EXPECT_FALSE(cheapest_gpu_instances(t, "A100-80GB", 1, PurchaseOption::on_demand));
}

TEST(Roi, SeedCalculatorToTheCent) {
  StrategyCost dedicated;
  dedicated.lines = {{"gpu", "g6e.2xlarge", "us-east-1", 2, 2, 2.24208, 0.0}};
  StrategyCost shared;
  shared.lines = {{"gpu", "g6e.2xlarge", "us-east-1", 1, 1, 2.24208, 0.0},
                  {"sidecar", "t3.large", "us-east-1", 2, 0, 0.0832, 0.0}};
  const std::vector<TenantUsage> usage = {{"phi", 100.0, 1.0, 0.609}, {"deepseek", 300.0, 0.5, 1.135}};
  settle(dedicated, 2 * 2.24208 * 730, usage, usage, {});
  settle(shared, dedicated.monthly_usd, usage, usage, {});
  EXPECT_NEAR(dedicated.monthly_usd, 3273.4368, 1e-9);
  EXPECT_NEAR(shared.monthly_usd, 1758.1904, 1e-9);
  EXPECT_NEAR(shared.monthly_savings_usd, 1515.2464, 1e-9);
  EXPECT_NEAR(shared.savings_frac, 1515.2464 / 3273.4368, 1e-12);  // 46.3 %
  EXPECT_NEAR(shared.annual_savings_usd, 12 * 1515.2464, 1e-9);
  EXPECT_NEAR(shared.three_year_usd, 36 * 1758.1904, 1e-9);
  // 1.5 requests/s for 730 h.
  EXPECT_NEAR(shared.cost_per_1k_requests_usd, 1758.1904 / (1.5 * 730 * 3600 / 1000), 1e-12);
}

TEST(Roi, ChargebackByUsageAddsUpToTheWholeCostIdleIncluded) {
  const auto charges =
      chargeback(1000.0, {{"a", 30.0, 1.0, 0.0}, {"b", 10.0, 2.0, 0.0}, {"c", 0.0, 0.0, 0.0}}, ChargebackModel::usage);
  EXPECT_NEAR(charges[0].monthly_usd, 750.0, 1e-9);
  EXPECT_NEAR(charges[1].monthly_usd, 250.0, 1e-9);
  EXPECT_EQ(charges[2].monthly_usd, 0.0);
  EXPECT_NEAR(charges[0].monthly_usd + charges[1].monthly_usd + charges[2].monthly_usd, 1000.0, 1e-9);
  EXPECT_NEAR(charges[1].cost_per_1k_requests_usd, 250.0 / (2.0 * 730 * 3600 / 1000), 1e-12);
  EXPECT_EQ(charges[0].usage_monthly_usd, charges[0].monthly_usd);
  EXPECT_NEAR(charges[0].usage_share_frac, 0.75, 1e-12);
  // Nobody worked: split equally; nobody holds anything either: by reservation too.
  const auto idle =
      chargeback(90.0, {{"a", 0.0, 0.0, 0.0}, {"b", 0.0, 0.0, 0.0}, {"c", 0.0, 0.0, 0.0}}, ChargebackModel::usage);
  EXPECT_NEAR(idle[1].monthly_usd, 30.0, 1e-9);
  EXPECT_NEAR(idle[1].reservation_monthly_usd, 30.0, 1e-9);
}

TEST(Roi, ChargebackByReservationChargesEachTenantTheGpuItHolds) {
  // Dedicated: 2 GPUs at P = $2.24208/h each, one per tenant; a did 9 times b's work. By reservation
  // each pays its GPU, P x 730 = $1,636.7184; by usage 90 % and 10 % of the bill.
  constexpr double kP = 2.24208;
  const double bill = 2 * kP * 730;
  const auto charges = chargeback(bill, {{"a", 900.0, 1.0, 0.0, 1.0, kP}, {"b", 100.0, 1.0, 0.0, 1.0, kP}},
                                  ChargebackModel::reservation);
  ASSERT_EQ(charges.size(), 2u);
  EXPECT_NEAR(charges[0].monthly_usd, 1636.7184, 1e-9);
  EXPECT_NEAR(charges[1].monthly_usd, 1636.7184, 1e-9);
  EXPECT_NEAR(charges[0].share_frac, 0.5, 1e-12);
  EXPECT_NEAR(charges[0].usage_monthly_usd, 0.9 * bill, 1e-9);
  EXPECT_NEAR(charges[1].usage_monthly_usd, 0.1 * bill, 1e-9);
  EXPECT_EQ(charges[0].reserved_gpus, 1.0);
  EXPECT_EQ(charges[0].gpu_work_s, 900.0);
  // Cost per 1k requests follows the model in use: $1,636.7184 over 1 request/s for 730 h.
  EXPECT_NEAR(charges[1].cost_per_1k_requests_usd, 1636.7184 / (730 * 3600 / 1000.0), 1e-12);
}

TEST(Roi, ChargebackByReservationSpreadsCapacityReservedForNobodyProRata) {
  // A MIG GPU at $7/h with 3g and 2g instances and 2 slices unused: 3/7 and 2/7 of the GPU held,
  // the unused 2/7 spread 3:2, so 3/5 and 2/5 of the bill (licences and sidecars spread alike).
  const double bill = 7.0 * 730 + 100.0;
  const auto charges = chargeback(bill, {{"big", 1.0, 0.0, 0.0, 3.0 / 7, 3.0}, {"small", 50.0, 0.0, 0.0, 2.0 / 7, 2.0}},
                                  ChargebackModel::reservation);
  EXPECT_NEAR(charges[0].monthly_usd, 0.6 * bill, 1e-9);
  EXPECT_NEAR(charges[1].monthly_usd, 0.4 * bill, 1e-9);
  EXPECT_NEAR(charges[0].monthly_usd + charges[1].monthly_usd, bill, 1e-9);
  EXPECT_EQ(charges[0].cost_per_1k_requests_usd, 0.0);  // no request completed
}

TEST(Roi, BusinessViewChargesTheAddedLatency) {
  // +618 ms of p95 (0.609 -> 1.227 s) x 1 % per 100 ms x $100,000 revenue = $6,180 at risk.
  StrategyCost shared;
  shared.lines = {{"gpu", "g6e.2xlarge", "us-east-1", 1, 1, 2.24208, 0.0}};
  settle(shared, 3273.4368, {{"phi", 1.0, 1.0, 1.227}}, {{"phi", 1.0, 1.0, 0.609}}, {100000.0, 0.01});
  EXPECT_NEAR(shared.chargeback[0].added_p95_latency_s, 0.618, 1e-12);
  EXPECT_NEAR(shared.revenue_at_risk_usd, 6180.0, 1e-6);
  EXPECT_NEAR(shared.net_monthly_value_usd, 3273.4368 - 2.24208 * 730 - 6180.0, 1e-6);
}

TEST(Roi, OnlyRevenueBearingTenantsPutRevenueAtRisk) {
  // A nightly fine-tune 1,500 s slower loses no customer: were it counted, min(1, 15,000 x 1 %) put
  // all $250,000 at risk. Only the endpoint's +200 ms counts: 2 % of it, $5,000.
  StrategyCost shared;
  shared.lines = {{"gpu", "g6e.2xlarge", "us-east-1", 1, 1, 2.24208, 0.0}};
  TenantUsage api{"api", 1.0, 1.0, 0.5};
  TenantUsage finetune{"finetune", 1.0, 0.001, 3000.0};
  finetune.revenue_bearing = false;
  TenantUsage api_alone{"api", 1.0, 1.0, 0.3};
  TenantUsage finetune_alone{"finetune", 1.0, 0.001, 1500.0};
  settle(shared, 3273.4368, {api, finetune}, {api_alone, finetune_alone}, {250000.0, 0.01});
  EXPECT_NEAR(shared.chargeback[1].added_p95_latency_s, 1500.0, 1e-9);  // still shown per tenant
  EXPECT_NEAR(shared.revenue_at_risk_usd, 5000.0, 1e-6);
  finetune.revenue_bearing = true;
  settle(shared, 3273.4368, {api, finetune}, {api_alone, finetune_alone}, {250000.0, 0.01});
  EXPECT_NEAR(shared.revenue_at_risk_usd, 250000.0, 1e-6);
}

}  // namespace
}  // namespace slicewise::pricing

namespace slicewise::pricing {
namespace {

OnPremServer h100_server() {
  OnPremServer s;
  s.name = "hgx";
  s.gpu = "H100-SXM-80GB";
  s.num_gpus = 8;
  s.capex_usd = 317000;
  s.depreciation_years = 5;
  s.gpu_tdp_w = 700;
  s.host_power_w = 4600;
  s.pue = 1.5;
  s.usd_per_kwh = 0.1;
  s.support_frac_per_year = 0.1;
  s.license_usd_per_gpu_year = 4500;
  return s;
}

/// What an H100 SXM draws at utilisation u on the catalog's curve (85 W idle, 700 W TDP).
double h100_watts(double u) { return 85.0 + (700.0 - 85.0) * u; }

TEST(OnPrem, MonthlyCostAddsDepreciationPowerSupportAndLicences) {
  // 3 GPUs at 50 % utilisation on one 8-GPU server: 3 x 392.5 W in use, 5 idle GPUs x 85 W, the host.
  const auto cost = onprem_cost(h100_server(), 3, 0.5, {3 * h100_watts(0.5), 85.0});
  EXPECT_EQ(cost.num_servers, 1);
  EXPECT_DOUBLE_EQ(cost.capex_usd, 317000);
  EXPECT_NEAR(cost.depreciation_monthly_usd, 317000.0 / 60.0, 1e-9);
  EXPECT_DOUBLE_EQ(cost.gpu_power_w, 1177.5);
  EXPECT_DOUBLE_EQ(cost.idle_gpus_power_w, 425.0);
  EXPECT_DOUBLE_EQ(cost.hosts_power_w, 4600.0);
  EXPECT_DOUBLE_EQ(cost.it_power_w, 6202.5);
  EXPECT_NEAR(cost.energy_monthly_kwh, 6202.5 * 1.5 * 730 / 1000, 1e-9);  // 6791.7375
  EXPECT_NEAR(cost.power_monthly_usd, 679.17375, 1e-9);
  EXPECT_NEAR(cost.support_monthly_usd, 317000 * 0.1 / 12, 1e-9);
  EXPECT_NEAR(cost.license_monthly_usd, 8 * 4500.0 / 12, 1e-9);  // every installed GPU is licensed
  EXPECT_NEAR(cost.opex_monthly_usd, cost.power_monthly_usd + cost.support_monthly_usd + cost.license_monthly_usd,
              1e-9);
  EXPECT_NEAR(cost.three_year_usd, 317000 + 36 * cost.opex_monthly_usd, 1e-6);
  // 9 GPUs: 2 servers, 7 idle GPUs, 2 hosts.
  const auto two = onprem_cost(h100_server(), 9, 0.5, {9 * h100_watts(0.5), 85.0});
  EXPECT_EQ(two.num_servers, 2);
  EXPECT_DOUBLE_EQ(two.idle_gpus_power_w, 7 * 85.0);
  EXPECT_DOUBLE_EQ(two.hosts_power_w, 2 * 4600.0);
}

TEST(OnPrem, ConstantPowerGivesWattsTimesHours) {
  // Closed form: a constant draw P for the 730-hour month is P x 730 / 1000 kWh (PUE 1, no host).
  OnPremServer server = h100_server();
  server.host_power_w = 0;
  server.pue = 1.0;
  server.num_gpus = 1;
  const auto cost = onprem_cost(server, 1, 1.0, {700.0, 85.0});
  EXPECT_DOUBLE_EQ(cost.energy_monthly_kwh, 700.0 * 730.0 / 1000.0);  // 511 kWh
  EXPECT_DOUBLE_EQ(cost.power_monthly_usd, 511.0 * 0.1);
}

TEST(OnPrem, PaybackIsCapexOverTheMonthlyDifference) {
  const auto cost = onprem_cost(h100_server(), 8, 1.0, {8 * 700.0, 85.0});
  const double cloud = 40000.0;
  EXPECT_NEAR(*payback_months(cost, cloud), 317000 / (cloud - cost.opex_monthly_usd), 1e-9);
  EXPECT_FALSE(payback_months(cost, cost.opex_monthly_usd));  // never pays back
}

TEST(OnPrem, JsonCarriesEveryFigureOfTheTextTableWithItsUnit) {
  // `roi test/data/results/mixed-mig-h100.json --onprem onprem` (test/e2e/cases/roi-mixed-onprem.stdout)
  // prices dedicated, 4 H100s whose SM utilisations add up to 0.8246121771498719 (0.69529 +
  // 0.10499 + 0.00883 + 0.01550), on the shipped 8-GPU server against its cloud bill of 20089.60.
  // By hand: GPUs in use 4 x 85 W + 615 W x 0.82461 = 847.14 W; 4 idle GPUs x 85 W = 340 W; host
  // 4600 W; 5787.14 W x PUE 1.56 x 730 h / 1000 = 6590.39 kWh a month; x $0.08 = $527.23;
  // licences 8 installed GPUs x 4500 / 12 = $3000; support 0; opex 527.23 + 3000 = 3527.23;
  // depreciation 317000 / (5 x 12) = 5283.33; $/month 5283.33 + 3527.23 = 8810.56; TCO 317000 +
  // 36 x 3527.23 = 443980.33; one owned GPU-hour 8810.56 / (8 x 730) = 1.5087; payback 317000 /
  // (20089.60 - 3527.23) = 19.14 months.
  const auto table = OnPremTable::load(std::string(SW_SOURCE_DIR) + "/data/onprem.json");
  const double util_sum = 0.8246121771498719;
  const auto cost =
      onprem_cost(*table.server_for("H100-SXM-80GB"), 4, util_sum / 4, {4 * 85.0 + 615.0 * util_sum, 85.0});
  const nlohmann::json figures = cost;
  std::vector<std::string> keys;
  for (const auto& [key, value] : figures.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "capex_usd", "depreciation_monthly_usd", "energy_monthly_kwh", "gpu_power_w",
                      "gpu_utilization_frac", "hosts_power_w", "idle_gpus_power_w", "it_power_w", "license_monthly_usd",
                      "monthly_usd", "num_gpus", "num_gpus_installed", "num_servers", "opex_monthly_usd",
                      "power_monthly_usd", "support_monthly_usd", "three_year_usd", "usd_per_gpu_hour"}));
  EXPECT_EQ(figures["num_servers"], 1);
  EXPECT_EQ(figures["num_gpus"], 4);
  EXPECT_EQ(figures["num_gpus_installed"], 8);
  EXPECT_EQ(figures["gpu_utilization_frac"], util_sum / 4);
  EXPECT_EQ(figures["capex_usd"], 317000.0);
  EXPECT_NEAR(figures["gpu_power_w"].get<double>(), 847.14, 0.005);
  EXPECT_EQ(figures["idle_gpus_power_w"], 340.0);
  EXPECT_EQ(figures["hosts_power_w"], 4600.0);
  EXPECT_NEAR(figures["it_power_w"].get<double>(), 5787.14, 0.005);
  // The text's figures, to the cent (its rounding), and the parts it adds up.
  EXPECT_NEAR(figures["opex_monthly_usd"].get<double>(), 3527.23, 0.005);
  EXPECT_NEAR(figures["monthly_usd"].get<double>(), 8810.56, 0.005);
  EXPECT_NEAR(figures["three_year_usd"].get<double>(), 443980.0, 0.5);
  EXPECT_NEAR(figures["energy_monthly_kwh"].get<double>(), 6590.39, 0.005);
  EXPECT_NEAR(figures["power_monthly_usd"].get<double>(), 527.23, 0.005);
  EXPECT_NEAR(figures["depreciation_monthly_usd"].get<double>(), 317000.0 / 60.0, 1e-9);
  EXPECT_NEAR(figures["license_monthly_usd"].get<double>(), 3000.0, 1e-9);
  EXPECT_EQ(figures["support_monthly_usd"], 0.0);
  EXPECT_NEAR(figures["usd_per_gpu_hour"].get<double>(), 1.5087, 0.00005);
  EXPECT_NEAR(*payback_months(cost, 20089.60), 19.14, 0.005);
  // Every figure is the struct's own, not a second computation.
  EXPECT_EQ(figures["opex_monthly_usd"], cost.opex_monthly_usd);
  EXPECT_EQ(figures["three_year_usd"], cost.three_year_usd);
}

TEST(OnPrem, ShippedTableLoadsAndBadTablesAreRejected) {
  const auto table = OnPremTable::load(std::string(SW_SOURCE_DIR) + "/data/onprem.json");
  ASSERT_NE(table.server_for("H100-SXM-80GB"), nullptr);
  EXPECT_EQ(table.server_for("L40S"), nullptr);
  const auto path = std::filesystem::temp_directory_path() / "sw_bad_onprem.json";
  std::ofstream(path) << R"({"schema_version": 1, "name": "x", "currency": "USD", "source": "s", "as_of": "2026-11",
    "servers": [{"name": "a", "gpu": "H100-SXM-80GB", "num_gpus": 0, "capex_usd": -1, "depreciation_years": 5,
                 "gpu_tdp_w": 700, "pue": 0.9, "usd_per_kwh": 0.1, "source": "s", "as_of": "2026-11-01", "licence": 1}]})";
  try {
    OnPremTable::load(path);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": /servers/0/num_gpus: must be in [1, 1e+06] (got 0)\n" + path.string() +
                  ": /servers/0/capex_usd: must be in (0, 1e+12] (got -1)\n" + path.string() +
                  ": /servers/0/pue: must be in [1, 10] (got 0.9)\n" + path.string() +
                  ": /servers/0/licence: unknown key; allowed here: name, gpu, num_gpus, capex_usd, "
                  "depreciation_years, gpu_tdp_w, host_power_w, pue, usd_per_kwh, "
                  "support_frac_per_year, license_usd_per_gpu_year, source, as_of, note");
  }
}

TEST(OnPrem, NumbersAreBoundedSoEveryCostStaysFinite) {
  // pue 1e308 gave "inf" in the TCO table; num_gpus 1e30 cast to 0 and divided by it; 2147483647
  // GPUs overflowed the server count.
  const auto path = std::filesystem::temp_directory_path() / "sw_huge_onprem.json";
  std::ofstream(path)
      << R"({"schema_version": 1e30, "name": "x", "currency": "dollars", "source": "s", "as_of": "2026-02-30",
    "servers": [{"name": "a", "gpu": "H100-SXM-80G", "num_gpus": 1e30, "capex_usd": 1e308, "depreciation_years": 1e-308,
                 "gpu_tdp_w": 1e308, "host_power_w": 1e308, "pue": 1e308, "usd_per_kwh": 1e308,
                 "license_usd_per_gpu_year": 1e308, "source": "s", "as_of": "2024-08"}]})";
  const std::string p = path.string();
  try {
    OnPremTable::load(path, {"H100-SXM-80GB", "L40S"});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              p + ": /schema_version: unsupported schema version (got 1e+30; supported: 1)\n" + p +
                  ": /currency: expected a 3-letter ISO 4217 code such as \"USD\" (got \"dollars\")\n" + p +
                  ": /as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2026-02-30\")\n" + p +
                  ": /servers/0/gpu: unknown GPU \"H100-SXM-80G\" (did you mean \"H100-SXM-80GB\"?)\n" + p +
                  ": /servers/0/num_gpus: must be in [1, 1e+06] (got 1e+30)\n" + p +
                  ": /servers/0/capex_usd: must be in (0, 1e+12] (got 1e+308)\n" + p +
                  ": /servers/0/depreciation_years: must be in [0.1, 100] (got 1e-308)\n" + p +
                  ": /servers/0/gpu_tdp_w: must be in (0, 1e+05] (got 1e+308)\n" + p +
                  ": /servers/0/host_power_w: must be in [0, 1e+06] (got 1e+308)\n" + p +
                  ": /servers/0/pue: must be in [1, 10] (got 1e+308)\n" + p +
                  ": /servers/0/usd_per_kwh: must be in [0, 100] (got 1e+308)\n" + p +
                  ": /servers/0/license_usd_per_gpu_year: must be in [0, 1e+09] (got 1e+308)");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace slicewise::pricing
