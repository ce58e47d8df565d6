// Placement, directly: which device each context lands on under each kind of sharing, counted by
// hand from the fleet, the strategy's limits and the tenants' memory.
#include "sim/placement.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "test/sim/sim_fixture.hpp"

namespace slicewise::sim {
namespace {

using models::StrategyKind;

constexpr const char* kH100 = "H100-SXM-80GB";

std::vector<FleetGpu> h100s(int n) {
  std::vector<FleetGpu> fleet;
  for (int i = 0; i < n; ++i) fleet.push_back({kH100, {}, static_cast<std::size_t>(i), 8});
  return fleet;
}

scenario::Scenario three_tenants() {
  auto s = test::make_scenario(kH100, 4, 100.0);
  for (const char* name : {"a", "b", "c"}) s.tenants.push_back(test::generic_tenant(name, 0.1));
  return s;
}

Placement place(const scenario::Scenario& s, const scenario::StrategySpec& strategy, int gpus) {
  return place_contexts(s, strategy, h100s(gpus), models::GpuCatalog::shipped(), models::MigCatalog::shipped());
}

std::size_t contexts_of(const Placement& p) {
  std::size_t n = 0;
  for (const auto& d : p.devices) n += d.contexts.size();
  return n;
}

TEST(Placement, DedicatedGivesEachContextAGpuOfItsOwn) {
  const auto s = three_tenants();
  const auto p = place(s, test::strategy(StrategyKind::dedicated), 4);
  ASSERT_EQ(p.devices.size(), 3U);
  EXPECT_EQ(p.num_gpus_used, 3);
  std::set<std::size_t> gpus;
  for (const auto& d : p.devices) {
    EXPECT_EQ(d.contexts.size(), 1U);
    EXPECT_TRUE(d.mig_profile.empty());
    gpus.insert(d.gpu_index);
  }
  EXPECT_EQ(gpus.size(), 3U);
  EXPECT_EQ(p.num_unplaced, (std::vector<int>{0, 0, 0}));
}

TEST(Placement, TimeSlicingPutsAtMostItsReplicasOnAGpu) {
  const auto s = three_tenants();
  auto strategy = test::strategy(StrategyKind::time_slicing);
  strategy.replicas = 2;
  const auto p = place(s, strategy, 2);
  EXPECT_EQ(contexts_of(p), 3U);
  for (const auto& d : p.devices) EXPECT_LE(d.contexts.size(), 2U);
  EXPECT_EQ(p.num_gpus_used, 2);  // three contexts, two a GPU
}

TEST(Placement, MigPlacesOneContextPerInstanceOfTheLayout) {
  const auto s = three_tenants();
  const auto p = place(s, test::strategy(StrategyKind::mig, "3g.40gb+3g.40gb"), 2);
  ASSERT_EQ(p.devices.size(), 3U);  // two instances a GPU, three used
  for (const auto& d : p.devices) {
    EXPECT_EQ(d.mig_profile, "3g.40gb");
    EXPECT_EQ(d.contexts.size(), 1U);
  }
  EXPECT_EQ(p.num_gpus_used, 2);
}

TEST(Placement, AContextThatFitsNoDeviceIsCountedAndExplained) {
  auto s = three_tenants();
  s.tenants[1].workload.memory_gib = 100.0;  // more than an H100's 80 GB
  const auto p = place(s, test::strategy(StrategyKind::dedicated), 4);
  EXPECT_EQ(p.num_unplaced, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(contexts_of(p), 2U);
  ASSERT_FALSE(p.issues.empty());
  EXPECT_EQ(p.issues.front(), "b#0 (100 GiB) is unplaceable: no device left that can take it");
}

}  // namespace
}  // namespace slicewise::sim
