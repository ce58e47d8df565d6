// Chargeback of a priced result (report/costing.cpp), on the test results of the seed case (2 ×
// g6e.2xlarge at $2.24208/h, docs/roi.md) and of the mixed H100 case (p5.4xlarge, one H100 at
// $6.88/h: $5,022.40 a month): both models add up to every strategy's bill to the cent, and the
// reservation model's closed forms (a dedicated GPU, MIG slices over 7, MPS thread shares).
#include "report/costing.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "report/money_tables.hpp"
#include "report/roi_report.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"

namespace slicewise::report {
namespace {

constexpr double kH100MonthlyUsd = 6.88 * 730;  // $5,022.40

scenario::SimResult load(const std::string& name) {
  return scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/" + name);
}

CostReport priced(const scenario::SimResult& result,
                  pricing::ChargebackModel model = pricing::ChargebackModel::reservation) {
  const auto table = scenario::resolve_price_table(result.input, scenario::Catalogs::shipped());
  return cost_result(result, result.input, table, result.input.pricing.option, model);
}

const pricing::StrategyCost& strategy(const CostReport& costs, const std::string& name) {
  for (const auto& s : costs.strategies) {
    if (s.strategy == name) return s;
  }
  throw std::runtime_error("no strategy " + name);
}

/// Each tenant's charge by reservation, in the strategy's tenant order.
std::vector<double> by_reservation(const pricing::StrategyCost& cost) {
  std::vector<double> out;
  for (const auto& c : cost.chargeback) out.push_back(c.reservation_monthly_usd);
  return out;
}

TEST(Costing, AStrategyThatPlacesNothingSavesNothing) {
  auto result = load("seed.json");
  auto& nothing = result.strategies[1];  // time_slicing, as if no context had found a device
  nothing.devices.clear();
  nothing.num_gpus_used = 0;
  for (auto& t : nothing.tenants) t.throughput_per_s = 0.0;
  const auto costs = priced(result);
  const auto& cost = strategy(costs, "time_slicing");
  EXPECT_EQ(cost.monthly_savings_usd, 0.0);  // not the baseline's whole bill
  EXPECT_EQ(cost.savings_frac, 0.0);
  EXPECT_EQ(cost.annual_savings_usd, 0.0);
  ASSERT_EQ(costs.notes[1].size(), 1u);
  EXPECT_EQ(costs.notes[1][0],
            "placed no context (see its issues): it has no fleet to price, and its $0.00 is no saving");
}

TEST(Chargeback, BothModelsAddUpToEveryStrategysBillToTheCent) {
  for (const char* file : {"seed.json", "seed-report.json", "mixed-mig-h100.json"}) {
    for (const auto model : {pricing::ChargebackModel::reservation, pricing::ChargebackModel::usage}) {
      const auto costs = priced(load(file), model);
      EXPECT_EQ(costs.chargeback_model, model);
      for (const auto& s : costs.strategies) {
        double reservation = 0.0;
        double usage = 0.0;
        double in_use = 0.0;
        for (const auto& c : s.chargeback) {
          reservation += c.reservation_monthly_usd;
          usage += c.usage_monthly_usd;
          in_use += c.monthly_usd;
          EXPECT_EQ(c.monthly_usd,
                    model == pricing::ChargebackModel::reservation ? c.reservation_monthly_usd : c.usage_monthly_usd);
        }
        EXPECT_NEAR(reservation, s.monthly_usd, 0.005) << file << " " << s.strategy;
        EXPECT_NEAR(usage, s.monthly_usd, 0.005) << file << " " << s.strategy;
        EXPECT_NEAR(in_use, s.monthly_usd, 0.005) << file << " " << s.strategy;
      }
    }
  }
}

TEST(Chargeback, ByReservationEachDedicatedTenantPaysItsGpuWhateverItsUse) {
  auto result = load("seed.json");
  // Very different usage: phi did 9 times deepseek's GPU work.
  result.strategies[0].tenants[0].gpu_work_s = 900.0;
  result.strategies[0].tenants[1].gpu_work_s = 100.0;
  const auto costs = priced(result);
  const auto& dedicated = strategy(costs, "dedicated");
  ASSERT_EQ(dedicated.chargeback.size(), 2u);
  for (const auto& c : dedicated.chargeback) {
    EXPECT_NEAR(c.monthly_usd, 2.24208 * 730, 1e-6) << c.name;  // $1,636.7184: its own g6e.2xlarge
    EXPECT_DOUBLE_EQ(c.reserved_gpus, 1.0);
    EXPECT_NEAR(c.reserved_usd_per_hour, 2.24208, 1e-12);
  }
  EXPECT_NEAR(dedicated.chargeback[0].usage_monthly_usd, 0.9 * 3273.4368, 1e-6);
  EXPECT_NEAR(dedicated.chargeback[1].usage_monthly_usd, 0.1 * 3273.4368, 1e-6);
  // Time-sliced, both on one GPU with no weights: half of (GPU + sidecars) each.
  for (const auto& c : strategy(costs, "time_slicing").chargeback) {
    EXPECT_NEAR(c.monthly_usd, 1758.1904 / 2, 1e-6) << c.name;
    EXPECT_DOUBLE_EQ(c.reserved_gpus, 0.5);
  }
}

TEST(Chargeback, ByReservationMigInstancesPayTheirSlicesOverSeven) {
  const auto costs = priced(load("mixed-mig-h100.json"));
  // 3g.40gb + 2g.20gb + 1g.10gb + 1g.10gb on one H100: 3/7, 2/7, 1/7, 1/7 of $5,022.40.
  const auto mig = by_reservation(strategy(costs, "mig"));
  ASSERT_EQ(mig.size(), 4u);
  EXPECT_NEAR(mig[0], kH100MonthlyUsd * 3 / 7, 1e-6);  // llm-8b: $2,152.46
  EXPECT_NEAR(mig[1], kH100MonthlyUsd * 2 / 7, 1e-6);  // vision-resnet50: $1,434.97
  EXPECT_NEAR(mig[2], kH100MonthlyUsd / 7, 1e-6);      // notebook-alice: $717.49
  EXPECT_NEAR(mig[3], kH100MonthlyUsd / 7, 1e-6);
  EXPECT_NEAR(strategy(costs, "mig").chargeback[0].reserved_gpus, 3.0 / 7, 1e-12);
  // Dedicated: a GPU each, whatever the work (llm-8b did 90 % of it).
  for (const double charge : by_reservation(strategy(costs, "dedicated"))) EXPECT_NEAR(charge, kH100MonthlyUsd, 1e-6);
  // MPS: llm-8b alone on one GPU; the others share the second by thread percentage 30:10:10.
  const auto mps = by_reservation(strategy(costs, "mps"));
  EXPECT_NEAR(mps[0], kH100MonthlyUsd, 1e-6);
  EXPECT_NEAR(mps[1], kH100MonthlyUsd * 0.6, 1e-6);  // $3,013.44
  EXPECT_NEAR(mps[2], kH100MonthlyUsd * 0.2, 1e-6);
  EXPECT_NEAR(mps[3], kH100MonthlyUsd * 0.2, 1e-6);
}

TEST(Chargeback, ByReservationUnusedSlicesAreSpreadProRata) {
  // mig_time_slicing: llm-8b in one 3g.40gb, three tenants time-sliced in the other; the seventh
  // slice holds no instance. 3/7 against 3 × 1/7: llm-8b pays half, the others a sixth each.
  const auto costs = priced(load("mixed-mig-h100.json"));
  const auto shared = by_reservation(strategy(costs, "mig_time_slicing"));
  EXPECT_NEAR(shared[0], kH100MonthlyUsd / 2, 1e-6);  // $2,511.20
  for (std::size_t t = 1; t < 4; ++t) EXPECT_NEAR(shared[t], kH100MonthlyUsd / 6, 1e-6);
  // Without notebook-bob's 1g.10gb instance, 6 of 7 slices are held (3, 2, 1): 3/6, 2/6, 1/6.
  auto result = load("mixed-mig-h100.json");
  auto& devices = result.strategies[1].devices;
  ASSERT_EQ(devices.back().contexts.front(), "notebook-bob#0");
  devices.pop_back();
  const auto mig = by_reservation(strategy(priced(result), "mig"));
  EXPECT_NEAR(mig[0], kH100MonthlyUsd / 2, 1e-6);
  EXPECT_NEAR(mig[1], kH100MonthlyUsd / 3, 1e-6);
  EXPECT_NEAR(mig[2], kH100MonthlyUsd / 6, 1e-6);
  EXPECT_EQ(mig[3], 0.0);
}

TEST(Chargeback, JsonCarriesBothModelsAndTheOneInUse) {
  const auto costs = priced(load("mixed-mig-h100.json"), pricing::ChargebackModel::usage);
  const auto json = cost_report_json(costs);
  EXPECT_EQ(json.at("chargeback_model"), "usage");
  const auto& charge = json.at("strategies").at(1).at("chargeback").at(0);  // mig, llm-8b
  EXPECT_EQ(charge.at("tenant"), "llm-8b");
  EXPECT_EQ(charge.at("monthly_usd").get<double>(), charge.at("by_usage").at("monthly_usd").get<double>());
  EXPECT_NEAR(charge.at("by_reservation").at("monthly_usd").get<double>(), kH100MonthlyUsd * 3 / 7, 1e-6);
  EXPECT_NEAR(charge.at("by_reservation").at("reserved_gpus").get<double>(), 3.0 / 7, 1e-12);
  EXPECT_GT(charge.at("by_usage").at("gpu_work_s").get<double>(), 4000.0);
  EXPECT_FALSE(json.contains("baseline_lines"));  // the baseline is the dedicated strategy
}

TEST(Chargeback, ASizedBaselineKeepsItsFleetLines) {
  auto result = load("mixed-mig-h100.json");
  result.strategies.erase(result.strategies.begin());  // no dedicated strategy: one GPU per context
  const auto costs = priced(result);
  EXPECT_EQ(costs.baseline, "dedicated (sized: one GPU per context)");
  ASSERT_EQ(costs.baseline_lines.size(), 1u);
  EXPECT_EQ(costs.baseline_lines[0].instance_type, "p5.4xlarge");
  EXPECT_EQ(costs.baseline_lines[0].count, 4);
  EXPECT_NEAR(costs.strategies[0].monthly_savings_usd, 4 * kH100MonthlyUsd - kH100MonthlyUsd, 1e-6);
  EXPECT_EQ(cost_report_json(costs).at("baseline_lines").at(0).at("count"), 4);
}

TEST(Chargeback, EveryTableNamesTheModelInUse) {
  const auto result = load("mixed-mig-h100.json");
  const auto reservation = priced(result);
  const auto text = chargeback_table_text(reservation);
  EXPECT_EQ(text.rfind("Chargeback by reservation (each tenant pays for the capacity reserved for it", 0), 0u) << text;
  EXPECT_NE(text.find("by usage $/month"), std::string::npos);  // the other model, for comparison
  // mig, notebook-alice: 1/7 of the GPU reserved (14.3 %), $717.49 in use, $50.88 by usage.
  for (const char* figure : {" 0.143 ", " 14.3 ", " 717.49 ", " 50.88"}) {
    EXPECT_NE(text.find(figure), std::string::npos) << figure << "\n" << text;
  }
  const auto report = build_roi_report(result, reservation);
  const auto tenants = report_tables(report).at(2);
  ASSERT_EQ(tenants.id, "tenants");
  EXPECT_EQ(tenants.columns.back(), "chargeback by reservation $/month");
  EXPECT_NE(tenants.intro.find("Chargeback by reservation (each tenant pays"), std::string::npos) << tenants.intro;
  EXPECT_EQ(report.tenants[4].monthly_chargeback_usd, reservation.strategies[1].chargeback[0].monthly_usd);

  const auto usage = priced(result, pricing::ChargebackModel::usage);
  EXPECT_EQ(chargeback_table_text(usage).rfind("Chargeback by usage (", 0), 0u);
  EXPECT_NE(chargeback_table_text(usage).find("by reservation $/month"), std::string::npos);
  EXPECT_EQ(report_tables(build_roi_report(result, usage)).at(2).columns.back(), "chargeback by usage $/month");
}

}  // namespace
}  // namespace slicewise::report
