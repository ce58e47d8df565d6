// A strategy's energy from its result (scenario/energy.hpp): closed forms for constant utilisation,
// an idle fleet, a MIG GPU's instances, unused GPUs, a GPU without a TDP, and the result file's
// energy read back.
#include "scenario/energy.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scenario/result_json.hpp"

namespace slicewise::scenario {
namespace {

const models::GpuCatalog& catalog() { return models::GpuCatalog::shipped(); }

DeviceResult device(const std::string& gpu, int gpu_index, double sm_util, const std::string& profile = "") {
  DeviceResult d;
  d.name = "gpu" + std::to_string(gpu_index) + (profile.empty() ? "" : "/" + profile);
  d.gpu = gpu;
  d.mig_profile = profile;
  d.gpu_index = gpu_index;
  d.sm_util_frac = sm_util;
  d.busy_frac = sm_util;
  return d;
}

StrategyResult strategy_on(std::vector<DeviceResult> devices) {
  StrategyResult s;
  s.name = "dedicated";
  s.kind = "dedicated";
  s.devices = std::move(devices);
  return s;
}

TEST(Energy, OneGpuAtConstantUtilisationDrawsItsCurveTimesTheHours) {
  // An H100 SXM (85 W idle, 700 W TDP) at 25 % for 2 h: (85 + 615 x 0.25) W x 2 h / 1000 kWh.
  const auto e = strategy_energy(strategy_on({device("H100-SXM-80GB", 0, 0.25)}), {"H100-SXM-80GB"}, 7200.0, catalog());
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(e->hours, 2.0);
  EXPECT_DOUBLE_EQ(e->mean_power_w, 238.75);
  EXPECT_DOUBLE_EQ(e->gpu_kwh, 238.75 * 2.0 / 1000.0);  // 0.4775
  EXPECT_DOUBLE_EQ(e->monthly_kwh, 238.75 * 730.0 / 1000.0);
  ASSERT_EQ(e->per_gpu.size(), 1u);
  const auto& g = e->per_gpu[0];
  EXPECT_EQ(g.gpu, "H100-SXM-80GB");
  EXPECT_DOUBLE_EQ(g.util_frac, 0.25);
  EXPECT_DOUBLE_EQ(g.idle_w, 85.0);
  EXPECT_DOUBLE_EQ(g.max_w, 700.0);
  EXPECT_FALSE(g.idle_estimated);
  EXPECT_DOUBLE_EQ(g.kwh, e->gpu_kwh);
  EXPECT_EQ(e->unused_gpus, 0);
  // Full load: the TDP for the hour.
  const auto full = strategy_energy(strategy_on({device("L4", 0, 1.0)}), {"L4"}, 3600.0, catalog());
  EXPECT_DOUBLE_EQ(full->gpu_kwh, 72.0 / 1000.0);
}

TEST(Energy, AnIdleFleetDrawsIdlePowerTimesGpusTimesHours) {
  // Three L40S with contexts and no work for 10 h: 3 x 33 W x 10 h; two more of the fleet unused,
  // counted apart.
  const auto e = strategy_energy(strategy_on({device("L40S", 0, 0.0), device("L40S", 1, 0.0), device("L40S", 2, 0.0)}),
                                 {"L40S", "L40S", "L40S", "L40S", "L40S"}, 36000.0, catalog());
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(e->gpu_kwh, 3 * 33.0 * 10.0 / 1000.0);
  EXPECT_DOUBLE_EQ(e->mean_power_w, 99.0);
  EXPECT_EQ(e->unused_gpus, 2);
  EXPECT_DOUBLE_EQ(e->unused_idle_w, 66.0);
}

TEST(Energy, AMigGpuCountsItsInstancesBySmShareAndItsEmptySlicesAsIdle) {
  // An H100 with a 3g.40gb instance (60 of 132 SMs) fully used and a 1g.10gb (16 SMs) at half:
  // u = 60/132 + 16/132 x 0.5 = 68/132; the 3 slices without an instance add nothing.
  const auto s = strategy_on({device("H100-SXM-80GB", 0, 1.0, "3g.40gb"), device("H100-SXM-80GB", 0, 0.5, "1g.10gb")});
  const auto utilisation = gpu_utilisation(s);
  ASSERT_EQ(utilisation.size(), 1u);
  EXPECT_NEAR(utilisation[0].util_frac, 68.0 / 132.0, 1e-15);
  const auto e = strategy_energy(s, {"H100-SXM-80GB"}, 3600.0, catalog());
  EXPECT_NEAR(e->mean_power_w, 85.0 + 615.0 * 68.0 / 132.0, 1e-12);
}

TEST(Energy, AGpuWithoutMeasuredIdleIsEstimatedAndOneWithoutTdpHasNoEnergy) {
  const auto a30 = strategy_energy(strategy_on({device("A30-24GB", 0, 0.0)}), {}, 3600.0, catalog());
  ASSERT_TRUE(a30.has_value());
  EXPECT_TRUE(a30->per_gpu[0].idle_estimated);
  EXPECT_DOUBLE_EQ(a30->per_gpu[0].idle_w, 85.0 / 700.0 * 165.0);  // the median measured share of its TDP
  const auto b200 = strategy_on({device("B200", 0, 0.5), device("H100-SXM-80GB", 1, 0.5)});
  EXPECT_FALSE(strategy_energy(b200, {}, 3600.0, catalog()).has_value());
  EXPECT_EQ(gpus_without_power(b200, catalog()), (std::vector<std::string>{"B200"}));
  // An unused GPU without a TDP leaves the energy unknown too.
  EXPECT_FALSE(strategy_energy(strategy_on({device("L4", 0, 0.5)}), {"L4", "B200"}, 3600.0, catalog()).has_value());
}

TEST(Energy, AResultCarriesItsEnergyAndAnOlderOneGetsItFromItsDevices) {
  auto result = load_result(std::string(SW_TEST_DATA_DIR) + "/results/seed.json");
  ASSERT_FALSE(result.strategies[0].energy.has_value());  // written before energy was modelled
  const auto computed = energy_of(result, 0);
  ASSERT_TRUE(computed.has_value());
  // dedicated: two L40S at SM utilisation 0.3975 and 0.6272 for 600 s.
  EXPECT_NEAR(computed->mean_power_w, 2 * 33.0 + 317.0 * (0.3975 + 0.6272), 1e-9);
  EXPECT_DOUBLE_EQ(computed->gpu_kwh, computed->mean_power_w * (600.0 / 3600.0) / 1000.0);
  // Written and read back whole.
  result.strategies[0].energy = computed;
  const auto text = result_to_text(result);
  EXPECT_NE(text.find("\"monthly_kwh\""), std::string::npos);
  const auto back = result_from_json(nlohmann::json::parse(text), "r.json", "");
  ASSERT_TRUE(back.strategies[0].energy.has_value());
  EXPECT_EQ(*back.strategies[0].energy, *computed);
  EXPECT_FALSE(back.strategies[1].energy.has_value());
  EXPECT_EQ(energy_of(back, 0), computed);  // the carried one
}

}  // namespace
}  // namespace slicewise::scenario
