// DeviceState, directly: one device's contexts, queues and fluid progress between events, driven
// by hand as the engine's actors drive it, against figures worked out by hand.
#include "sim/device_state.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace slicewise::sim {
namespace {

/// A generic tenant whose request takes 1 s alone, all of it on the GPU.
struct OneSecondTenant {
  WorkloadShape shape;
  TenantStats stats;
  TenantInfo info;
  OneSecondTenant() {
    shape.duty = 1.0;
    shape.demand = {1.0, 0.0};
    shape.solo_latency_s = 1.0;
    stats.queue_length_integral.assign(10, 0.0);
    info.shape = &shape;
    info.stats = &stats;
    info.ref_sms = 132;  // the device's: its demand is the whole device's SMs
  }
};

/// Two such tenants, one context each, time-sliced with efficiency `efficiency`.
struct TwoTimeSliced {
  OneSecondTenant a;
  OneSecondTenant b;
  std::vector<TenantInfo> tenants{a.info, b.info};
  models::SharingParams sharing;
  explicit TwoTimeSliced(double efficiency) {
    sharing.discipline = models::SharingDiscipline::time_sliced;
    sharing.efficiency = efficiency;
  }
};

/// A device of `contexts` contexts (one per tenant index given) sharing by `sharing`.
PlacedDevice device_of(std::vector<std::size_t> tenants, models::SharingParams sharing) {
  PlacedDevice d;
  d.name = "gpu0";
  d.num_sms = 132;
  d.compute = 989;
  d.bandwidth_gbps = 4800;
  d.sharing = sharing;
  for (const std::size_t t : tenants) d.contexts.push_back(PlacedContext{t, 0, 1.0, 1.0, 1.0, 1});
  return d;
}

Request at(double t) {
  Request r;
  r.record.arrived_at_s = t;
  return r;
}

/// Runs the device's events until nothing is pending; returns the time of the last.
double run_to_idle(DeviceState& device, double now) {
  for (int guard = 0; guard < 1000; ++guard) {
    device.recompute_rates();
    const double next = device.next_completion(now);
    if (next == kNever) return now;
    device.advance(next);
    now = next;
    device.complete_due(now);
  }
  ADD_FAILURE() << "no end";
  return now;
}

TEST(DeviceState, AContextAloneRunsItsRequestsOneAfterAnother) {
  OneSecondTenant a;
  std::vector<TenantInfo> tenants{a.info};
  DeviceState device(device_of({0}, {}), tenants, 1.0, 10, 10.0, 1);
  device.arrive(0, at(0.0), 0.0);
  device.arrive(0, at(0.0), 0.0);  // waits: one request at a time (max_concurrency 1)
  EXPECT_EQ(device.num_in_system(), 2);
  EXPECT_DOUBLE_EQ(run_to_idle(device, 0.0), 2.0);
  EXPECT_EQ(a.stats.num_completed, 2);
  EXPECT_TRUE(device.idle());
  // Latencies 1 s and 2 s; the second waited 1 s: one request waiting for 1 s in bucket 0.
  EXPECT_NEAR(a.stats.latency.quantile(1.0), 2.0, 0.02);
  EXPECT_DOUBLE_EQ(a.stats.queue_length_integral[0], 1.0);
  EXPECT_DOUBLE_EQ(device.busy_series()[0] + device.busy_series()[1], 2.0);
}

TEST(DeviceState, TwoTimeSlicedContextsEachGetHalfTheEfficientGpu) {
  // Both busy for their whole request: each runs at η/2 = 0.4, so both finish at 1 / 0.4 = 2.5 s.
  TwoTimeSliced two(0.8);
  DeviceState device(device_of({0, 1}, two.sharing), two.tenants, 1.0, 10, 10.0, 1);
  device.arrive(0, at(0.0), 0.0);
  device.arrive(1, at(0.0), 0.0);
  EXPECT_DOUBLE_EQ(run_to_idle(device, 0.0), 2.5);
  EXPECT_EQ(two.a.stats.num_completed, 1);
  EXPECT_EQ(two.b.stats.num_completed, 1);
}

TEST(DeviceState, AFullQueueShedsAndATakenDownContextHandsBackItsRequests) {
  OneSecondTenant a;
  a.info.queue_limit = 1;
  std::vector<TenantInfo> tenants{a.info};
  DeviceState device(device_of({0}, {}), tenants, 1.0, 10, 10.0, 1);
  device.arrive(0, at(0.0), 0.0);  // in service
  device.arrive(0, at(0.1), 0.1);  // waits
  device.arrive(0, at(0.2), 0.2);  // the queue holds 1: shed
  EXPECT_EQ(a.stats.num_shed, 1);
  EXPECT_EQ(a.stats.num_failed, 1);
  EXPECT_EQ(device.num_in_system(), 2);
  device.advance(0.5);
  const auto lost = device.take_down(0);
  ASSERT_EQ(lost.size(), 2U);  // in service first, then waiting, as fresh requests
  EXPECT_EQ(lost[0].record.arrived_at_s, 0.0);
  EXPECT_EQ(lost[1].record.arrived_at_s, 0.1);
  EXPECT_FALSE(device.is_up(0));
  EXPECT_EQ(device.num_in_system(), 0);
  device.bring_up(0);
  EXPECT_TRUE(device.is_up(0));
}

TEST(DeviceState, ExactTimeSlicingAlternatesQuantaAndPaysTheSwitch) {
  // Quanta of 0.25 s and switches of 0.05 s between two 1-s requests: each holder runs 0.25 s per
  // 0.6 s round after the first, so the first finishes after 4 of its quanta: at
  // 0.25 + 3 × (0.05 + 0.25 + 0.05 + 0.25) = 2.05 s; the second runs its last quantum alone after
  // one more switch: 2.05 + 0.05 + 0.25 = 2.35 s.
  TwoTimeSliced two(1.0);
  auto placed = device_of({0, 1}, two.sharing);
  placed.exact_quanta = true;
  placed.quantum_s = 0.25;
  placed.switch_cost_s = 0.05;
  DeviceState device(placed, two.tenants, 1.0, 10, 10.0, 1);
  EXPECT_TRUE(device.time_driven());
  device.arrive(0, at(0.0), 0.0);
  device.arrive(1, at(0.0), 0.0);
  EXPECT_NEAR(run_to_idle(device, 0.0), 2.35, 1e-12);
  EXPECT_NEAR(two.a.stats.latency.quantile(1.0), 2.05, 0.03);
}

}  // namespace
}  // namespace slicewise::sim
