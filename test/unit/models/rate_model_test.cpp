// Closed-form checks of the per-device rate model (docs/model.md).
#include "models/rate_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::models {
namespace {

ContextDemand busy(double sm, double bw, double duty = 1.0) {
  ContextDemand c;
  c.active = true;
  c.demand_sm = sm;
  c.demand_bw = bw;
  c.duty = duty;
  return c;
}

std::vector<ContextRate> rates(SharingParams params, const std::vector<ContextDemand>& contexts) {
  RateModel model(params);
  std::vector<ContextRate> out;
  model.compute(contexts, out);
  return out;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

/// One model of each discipline that shares a device, off its defaults: MPS with efficiency and
/// interference, time-slicing at a finite roofline sharpness, vGPU fixed shares of 4 slots (an
/// exclusive device has one context: AnExclusiveDeviceHasOneContext).
std::vector<SharingParams> every_discipline() {
  SharingParams mps;
  mps.discipline = SharingDiscipline::concurrent;
  mps.concurrent_efficiency = 0.9;
  mps.concurrent_interference = 0.3;
  SharingParams sliced;
  sliced.discipline = SharingDiscipline::time_sliced;
  sliced.efficiency = 0.95;
  sliced.roofline_sharpness = 2.7;
  SharingParams vgpu;
  vgpu.discipline = SharingDiscipline::fixed_share;
  vgpu.efficiency = 0.9;
  vgpu.total_placed_weight = 4.0;
  return {mps, sliced, vgpu};
}

TEST(RateModel, KeptAnswersReplayTheSolveBitForBit) {
  // A device's life in miniature: each event changes the number of requests in service (0 to 3)
  // of one of the first two contexts, the others keeping one each, so demand vectors recur, each
  // time from the phases the last solve ended at. The model
  // that keeps answers must give the bits of the one that solves every time, under every discipline
  // and for 1 to 9 contexts (those above kMemoMaxContexts never keep any), at finite and hard
  // roofline sharpness.
  for (const SharingParams& params : every_discipline()) {
    for (const std::size_t n : {1U, 2U, 3U, 5U, 8U, 9U}) {
      RateModel keeping(params);
      RateModel solving(params, false);
      std::vector<ContextDemand> contexts(n);
      std::vector<int> in_service(n, 1);
      std::mt19937_64 rng(n);
      std::vector<ContextRate> kept;
      std::vector<ContextRate> solved;
      for (int event = 0; event < 4000; ++event) {
        const std::size_t i =
            event < static_cast<int>(n) ? static_cast<std::size_t>(event) : rng() % std::min<std::size_t>(n, 2);
        if (event >= static_cast<int>(n)) in_service[i] = static_cast<int>(rng() % 4);
        ContextDemand& c = contexts[i];
        c.active = in_service[i] > 0;
        c.demand_sm = 0.15 * in_service[i] * (1.0 + 0.1 * static_cast<double>(i));
        c.demand_bw = 0.1 * in_service[i];
        c.ref_sm = c.demand_sm;
        c.ref_bw = c.demand_bw;
        c.duty = 0.5 + 0.05 * static_cast<double>(i);
        c.priority = static_cast<int>(i % 3);
        keeping.compute(contexts, kept);
        solving.compute(contexts, solved);
        ASSERT_EQ(kept.size(), solved.size());
        for (std::size_t k = 0; k < n; ++k) {
          const ContextRate& a = kept[k];
          const ContextRate& b = solved[k];
          ASSERT_TRUE(same_bits(a.gpu_rate, b.gpu_rate) && same_bits(a.progress_rate, b.progress_rate) &&
                      same_bits(a.gpu_phase_frac, b.gpu_phase_frac) && same_bits(a.sm_usage_frac, b.sm_usage_frac) &&
                      same_bits(a.alone_frac, b.alone_frac) && same_bits(a.alone_gpu_rate, b.alone_gpu_rate) &&
                      same_bits(a.others_busy, b.others_busy))
              << "discipline " << static_cast<int>(params.discipline) << ", " << n << " contexts, event " << event
              << ", context " << k;
        }
      }
      // Up to 2 contexts the pairs (demands, starting phases) recur and most calls are replays.
      // With more, the model solves every time (kMemoMaxContexts).
      if (n <= RateModel::kMemoMaxContexts) {
        EXPECT_GT(keeping.replays(), 1000U) << "discipline " << static_cast<int>(params.discipline) << ", " << n;
      } else {
        EXPECT_EQ(keeping.replays(), 0U) << n;
      }
    }
  }
}

TEST(RateModel, LeavingTheIdleContextsOutGivesTheSameRatesBitForBit) {
  // sim::DeviceState gives the model only the contexts with requests in service, each started from
  // the phase it ended its last solve at (0 when it sat that one out). Over a device's life in
  // miniature, where each event changes one context's requests in service (0 to 3, idle half the
  // time), those rates must be the bits of the solve over every context, idle ones included,
  // under every discipline (fixed shares told every placed weight), with priorities and caps, for
  // 2 to 30 contexts: both sides of kMemoMaxContexts active, of kDirectLimit and of the exact
  // distribution's limit.
  for (const SharingParams& params : every_discipline()) {
    for (const std::size_t n : {2U, 5U, 9U, 30U}) {
      std::vector<ContextDemand> contexts(n);
      double placed = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        contexts[i].duty = 0.5 + 0.4 * static_cast<double>(i % 5) / 4.0;
        contexts[i].weight = 1.0 + static_cast<double>(i % 3);
        contexts[i].cap = i % 4 == 3 ? 0.3 : 1.0;
        contexts[i].priority = static_cast<int>(i % 3);
        placed += contexts[i].weight;
      }
      SharingParams told = params;
      told.total_placed_weight = std::max(params.total_placed_weight, placed);
      RateModel whole(params, false);
      RateModel active_only(told);
      std::vector<double> last_phase(n, 0.0);
      std::vector<ContextRate> all;
      std::vector<ContextRate> some;
      std::mt19937_64 rng(n);
      for (int event = 0; event < 3000; ++event) {
        const std::size_t i = rng() % n;
        const int in_service = rng() % 2 == 0 ? 0 : static_cast<int>(1 + rng() % 3);
        ContextDemand& c = contexts[i];
        c.active = in_service > 0;
        c.demand_sm = 0.15 * in_service * (1.0 + 0.1 * static_cast<double>(i % 7));
        c.demand_bw = 0.1 * in_service;
        c.ref_sm = c.demand_sm;
        c.ref_bw = c.demand_bw;
        whole.compute(contexts, all);
        std::vector<ContextDemand> active;
        std::vector<double> from;
        std::vector<std::size_t> slots;
        for (std::size_t k = 0; k < n; ++k) {
          if (!contexts[k].active) continue;
          active.push_back(contexts[k]);
          from.push_back(last_phase[k]);
          slots.push_back(k);
        }
        active_only.compute(active, from, some);
        ASSERT_EQ(some.size(), active.size());
        std::fill(last_phase.begin(), last_phase.end(), 0.0);
        for (std::size_t a = 0; a < slots.size(); ++a) {
          const ContextRate& x = some[a];
          const ContextRate& y = all[slots[a]];
          ASSERT_TRUE(same_bits(x.gpu_rate, y.gpu_rate) && same_bits(x.progress_rate, y.progress_rate) &&
                      same_bits(x.gpu_phase_frac, y.gpu_phase_frac) && same_bits(x.sm_usage_frac, y.sm_usage_frac) &&
                      same_bits(x.alone_frac, y.alone_frac) && same_bits(x.alone_gpu_rate, y.alone_gpu_rate) &&
                      same_bits(x.others_busy, y.others_busy))
              << "discipline " << static_cast<int>(params.discipline) << ", " << n << " contexts, event " << event
              << ", context " << slots[a];
          last_phase[slots[a]] = x.gpu_phase_frac;
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (!contexts[k].active) {
            ASSERT_EQ(all[k].progress_rate, 0.0) << k;
          }
        }
      }
      if (n == 2) {
        EXPECT_GT(active_only.replays(), 1000U) << "discipline " << static_cast<int>(params.discipline);
      }
    }
  }
}

TEST(RateModel, AModelWhoseInputsNeverRecurStopsKeepingAnswers) {
  SharingParams params;
  params.discipline = SharingDiscipline::concurrent;
  RateModel model(params);
  std::vector<ContextDemand> contexts = {busy(0.5, 0.2), busy(0.5, 0.2)};
  std::vector<ContextRate> out;
  for (std::size_t call = 0; call + 1 < RateMemo::kWindow; ++call) {
    contexts[0].demand_sm = 0.3 + 1e-4 * static_cast<double>(call);  // a demand never seen before
    model.compute(contexts, out);
  }
  EXPECT_TRUE(model.keeps_answers());
  EXPECT_GT(model.kept_answers(), 0U);
  model.compute(contexts, out);  // the window's last call: no replay in it
  EXPECT_FALSE(model.keeps_answers());
  EXPECT_EQ(model.kept_answers(), 0U);
  std::vector<ContextRate> solved;
  RateModel(params, false).compute(contexts, solved);
  EXPECT_EQ(out[0].gpu_rate, solved[0].gpu_rate);
}

TEST(RateModel, OneContextAloneRunsAtSoloSpeedUnderEveryDiscipline) {
  for (auto discipline : {SharingDiscipline::exclusive, SharingDiscipline::time_sliced, SharingDiscipline::concurrent,
                          SharingDiscipline::fixed_share}) {
    SharingParams params;
    params.discipline = discipline;
    params.efficiency = 0.8;  // never applies to a context alone
    const auto out = rates(params, {busy(0.7, 0.4, 0.6)});
    EXPECT_DOUBLE_EQ(out[0].gpu_rate, 1.0) << static_cast<int>(discipline);
    EXPECT_DOUBLE_EQ(out[0].progress_rate, 1.0);
    EXPECT_DOUBLE_EQ(out[0].gpu_phase_frac, 0.6);
    EXPECT_DOUBLE_EQ(out[0].sm_usage_frac, 0.6 * 0.7);
  }
}

TEST(RateModel, AnExclusiveDeviceHasOneContext) {
  // Its context owns it: a second active one is placement's bug, never silently time-sliced.
  SharingParams params{SharingDiscipline::exclusive};
  EXPECT_THROW(rates(params, {busy(0.7, 0.4, 0.6), busy(0.5, 0.3, 0.5)}), InternalError);
  ContextDemand idle = busy(0.5, 0.3, 0.5);
  idle.active = false;
  EXPECT_DOUBLE_EQ(rates(params, {busy(0.7, 0.4, 0.6), idle})[0].gpu_rate, 1.0);
}

TEST(RateModel, InactiveContextsGetNothingAndTakeNothing) {
  SharingParams params{SharingDiscipline::time_sliced};
  ContextDemand idle = busy(1.0, 1.0);
  idle.active = false;
  const auto out = rates(params, {idle, busy(1.0, 0.0)});
  EXPECT_EQ(out[0].progress_rate, 0.0);
  EXPECT_DOUBLE_EQ(out[1].progress_rate, 1.0);
}

TEST(RateModel, NIdenticalSaturatedContextsTimeSlicedEachProgressAtEtaOverN) {
  for (int n : {2, 3, 4, 7, 10}) {
    SharingParams params{SharingDiscipline::time_sliced};
    params.efficiency = 2.0 / (2.0 + 0.1);  // 2 ms quantum, 0.1 ms switch
    const auto out = rates(params, std::vector<ContextDemand>(static_cast<std::size_t>(n), busy(0.9, 0.5)));
    for (const auto& r : out) {
      EXPECT_NEAR(r.gpu_rate, params.efficiency / n, 1e-12) << n;
      EXPECT_NEAR(r.progress_rate, params.efficiency / n, 1e-12);
      EXPECT_DOUBLE_EQ(r.gpu_phase_frac, 1.0);
    }
  }
}

TEST(RateModel, ManySaturatedContextsUseTheMeanFieldApproximationAboveTheExactLimit) {
  SharingParams params{SharingDiscipline::time_sliced};
  const auto out = rates(params, std::vector<ContextDemand>(30, busy(0.5, 0.5)));
  EXPECT_NEAR(out[0].gpu_rate, 1.0 / 30, 1e-12);
}

/// The symmetric fixed point of M identical time-sliced contexts of duty d, solved here on its
/// own: each is in a GPU phase with probability x, so the others busy are K ~ Binomial(M − 1, x)
/// and E[1/(1+K)] = (1 − (1 − x)^M) / (M x), giving the share
///   g(x) = (1 − η)(1 − x)^(M−1) + η (1 − (1 − x)^M) / (M x),
/// and x = (d/g) / ((1 − d) + d/g). Returns g at the fixed point.
double symmetric_time_share(int m, double duty, double eta) {
  double x = duty;
  for (int i = 0; i < 100000; ++i) {
    const double idle = std::pow(1.0 - x, m - 1);
    const double g = (1.0 - eta) * idle + eta * (1.0 - idle * (1.0 - x)) / (m * x);
    const double next = std::min(1.0, (duty / g) / ((1.0 - duty) + duty / g));
    if (std::abs(next - x) < 1e-15) return g;
    x = next;
  }
  return std::nan("");
}

TEST(RateModel, IdenticalTimeSlicedContextsMeetTheBinomialFixedPoint) {
  // Both ways of building each context's view of the others (on its own up to four active
  // contexts, from the class's whole distribution above) and both directions of the division
  // (a light duty keeps x below 1/2, a heavy one above).
  SharingParams params{SharingDiscipline::time_sliced};
  params.efficiency = 0.9;
  for (const int m : {2, 3, 4, 5, 8, 16, 24}) {
    for (const double duty : {0.05, 0.2, 0.6, 0.95}) {
      const auto out = rates(params, std::vector<ContextDemand>(static_cast<std::size_t>(m), busy(1.0, 0.0, duty)));
      const double expected = symmetric_time_share(m, duty, params.efficiency);
      for (const auto& r : out) ASSERT_NEAR(r.gpu_rate, expected, 1e-9) << m << " contexts, duty " << duty;
    }
  }
}

TEST(RateModel, SaturatedWeightedTimeSlicingSplitsEtaByWeight) {
  // Always busy: each gets η w / (w + Σ others' w) = η w / W, above four contexts too.
  SharingParams params{SharingDiscipline::time_sliced};
  params.efficiency = 0.8;
  std::vector<ContextDemand> contexts;
  for (int w = 1; w <= 6; ++w) {
    contexts.push_back(busy(1.0, 0.0));
    contexts.back().weight = w;
  }
  const auto out = rates(params, contexts);
  for (int w = 1; w <= 6; ++w) EXPECT_NEAR(out[static_cast<std::size_t>(w - 1)].gpu_rate, 0.8 * w / 21.0, 1e-12) << w;
}

TEST(RateModel, AHigherClassAlwaysBusyStarvesTheLowerOnes) {
  SharingParams params{SharingDiscipline::time_sliced};
  std::vector<ContextDemand> contexts(8, busy(1.0, 0.0));
  contexts[3].priority = 0;
  contexts[6].priority = 0;
  const auto out = rates(params, contexts);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(out[i].gpu_rate, contexts[i].priority == 0 ? 0.5 : 0.0, 1e-12) << i;
  }
}

/// The time-sliced fixed point by brute force: each context's view of the others summed over
/// every subset of them in a GPU phase (2^(n−1) terms), iterated from x = duty like the model.
std::vector<double> brute_force_time_shares(const std::vector<ContextDemand>& c, double eta) {
  const std::size_t n = c.size();
  std::vector<double> x(n), g(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = c[i].duty;
  for (int iteration = 0; iteration < 10000; ++iteration) {
    for (std::size_t i = 0; i < n; ++i) {
      double higher_idle = 1.0, busy_weight = 0.0, busy_mass = 0.0;
      std::vector<std::size_t> mates;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        if (c[j].priority < c[i].priority) higher_idle *= 1.0 - x[j];
        if (c[j].priority != c[i].priority) continue;
        mates.push_back(j);
        busy_weight += x[j] * c[j].weight;
        busy_mass += x[j];
      }
      const double mean_weight = busy_mass > 0.0 ? busy_weight / busy_mass : c[i].weight;
      double share = 0.0;
      for (std::size_t subset = 0; subset < (std::size_t{1} << mates.size()); ++subset) {
        double p = 1.0;
        int k = 0;
        for (std::size_t b = 0; b < mates.size(); ++b) {
          const bool in = (subset >> b) & 1U;
          p *= in ? x[mates[b]] : 1.0 - x[mates[b]];
          k += in ? 1 : 0;
        }
        share += p * (k == 0 ? 1.0 : eta * c[i].weight / (c[i].weight + k * mean_weight));
      }
      g[i] = higher_idle * share;
    }
    double change = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double next =
          g[i] > 0.0 ? std::min(1.0, c[i].duty / g[i] * RateModel::progress_rate(c[i].duty, g[i])) : 1.0;
      change = std::max(change, std::abs(next - x[i]));
      x[i] = next;
    }
    if (change < 1e-15) break;
  }
  return g;
}

TEST(RateModel, MixedTimeSlicedContextsMatchTheBruteForceSum) {
  // Unequal weights, duties on both sides of 1/2 and two classes: the class-wide route against
  // a sum over every subset of the others.
  SharingParams params{SharingDiscipline::time_sliced};
  params.efficiency = 0.85;
  const double duties[] = {0.1, 0.35, 0.55, 0.8, 0.3, 0.7, 0.45, 0.25, 0.6};
  const double weights[] = {1.0, 2.0, 1.0, 3.0, 0.5, 1.0, 2.0, 1.5, 1.0};
  const int priorities[] = {1, 1, 0, 1, 1, 2, 1, 1, 2};
  std::vector<ContextDemand> contexts;
  for (std::size_t i = 0; i < 9; ++i) {
    contexts.push_back(busy(1.0, 0.0, duties[i]));
    contexts.back().weight = weights[i];
    contexts.back().priority = priorities[i];
  }
  const auto out = rates(params, contexts);
  const auto expected = brute_force_time_shares(contexts, params.efficiency);
  for (std::size_t i = 0; i < contexts.size(); ++i) EXPECT_NEAR(out[i].gpu_rate, expected[i], 1e-9) << i;
}

TEST(RateModel, TwoHalfDutyContextsTimeSlicedMeetAtOneOverRootTwo) {
  // Symmetric fixed point: g = 1 - x/2 and x = 1/(1+g) give x = 2 - sqrt(2), g = 1/sqrt(2).
  const auto out = rates({SharingDiscipline::time_sliced}, {busy(1.0, 0.0, 0.5), busy(1.0, 0.0, 0.5)});
  for (const auto& r : out) {
    EXPECT_NEAR(r.gpu_phase_frac, 2.0 - std::sqrt(2.0), 1e-9);
    EXPECT_NEAR(r.gpu_rate, 1.0 / std::sqrt(2.0), 1e-9);
    EXPECT_NEAR(r.progress_rate, 1.0 / (0.5 + 0.5 * std::sqrt(2.0)), 1e-9);
  }
}

TEST(RateModel, CpuGapsOfOneContextAreTheOtherContextsGain) {
  // A saturated context next to a 20%-duty one: the saturated one gets the GPU whenever the
  // other is in its CPU phase, so it does much better than half speed.
  const auto out = rates({SharingDiscipline::time_sliced}, {busy(1.0, 0.0, 1.0), busy(1.0, 0.0, 0.2)});
  EXPECT_GT(out[0].gpu_rate, 0.7);
  EXPECT_LT(out[0].gpu_rate, 1.0);
  EXPECT_NEAR(out[1].gpu_rate, 0.5, 1e-12);  // the other is always in its GPU phase
  EXPECT_NEAR(out[1].progress_rate, 1.0 / (0.8 + 0.2 / 0.5), 1e-12);
}

/// Time slices of 2 ms, 0.125 ms to switch when a context yields, 0.2 ms when its slice is cut.
SharingParams time_slices() {
  SharingParams params{SharingDiscipline::time_sliced};
  params.timeslice_s = 2e-3;
  params.yield_switch_s = 0.125e-3;
  params.preempt_switch_s = 0.2e-3;
  return params;
}

ContextDemand bursts_of(double burst_s) {
  ContextDemand c = busy(1.0, 0.0);
  c.burst_s = burst_s;
  return c;
}

TEST(RateModel, AShortBurstBesideALongOneGetsOneBurstPerSliceOfTheOther) {
  // A decode-like loop (0.8 ms bursts, then it syncs) beside a prefill-like one (21.5 ms kernels):
  // each turn the decode runs its burst and yields (0.125 ms), the prefill runs a 2 ms slice and is
  // cut (0.2 ms); its kernel takes m = ceil(21.5 / 2) = 11 turns of 21.5 / 11 ms, 10 of them cut.
  // So a round is 0.925 + 21.5 / 11 + (10 x 0.2 + 0.125) / 11 ms, and each gets its useful part.
  const auto out = rates(time_slices(), {bursts_of(0.8e-3), bursts_of(21.5e-3)});
  const double prefill_turn = 21.5 / 11.0 + (10.0 * 0.2 + 0.125) / 11.0;
  const double round = 0.8 + 0.125 + prefill_turn;
  EXPECT_NEAR(out[0].gpu_rate, 0.8 / round, 1e-12);            // 0.260
  EXPECT_NEAR(out[1].gpu_rate, (21.5 / 11.0) / round, 1e-12);  // 0.636
}

TEST(RateModel, IdenticalBurstsShareEquallyAtTheirOwnEfficiency) {
  // n loops of 0.5 ms bursts: each turn 0.5 + 0.125 ms, η = 0.8, each 0.8 / n. Bursts of 5 ms run
  // in 3 turns (two cut at 2 ms): η = 5 / (5 + 2 x 0.2 + 0.125).
  for (int n : {2, 3, 4}) {
    const auto size = static_cast<std::size_t>(n);
    for (const auto& r : rates(time_slices(), std::vector<ContextDemand>(size, bursts_of(0.5e-3)))) {
      EXPECT_NEAR(r.gpu_rate, 0.8 / n, 1e-12) << n;
    }
    for (const auto& r : rates(time_slices(), std::vector<ContextDemand>(size, bursts_of(5e-3)))) {
      EXPECT_NEAR(r.gpu_rate, 5.0 / 5.525 / n, 1e-12) << n;
    }
  }
  // An unknown burst takes whole slices, each cut: η = 2 / 2.2.
  const auto unknown = rates(time_slices(), {busy(1.0, 0.0), busy(1.0, 0.0)});
  EXPECT_NEAR(unknown[0].gpu_rate, 2.0 / 2.2 / 2.0, 1e-12);
}

TEST(RateModel, TimeSlicesWeighBurstsUnderTheClassWideRouteAsUnderTheDirectOne) {
  // Six contexts take the class-wide route (more than 4): two kinds of bursts, all saturated, so
  // each gets its useful time over the round of every turn.
  std::vector<ContextDemand> contexts;
  for (int i = 0; i < 3; ++i) contexts.push_back(bursts_of(0.8e-3));
  for (int i = 0; i < 3; ++i) contexts.push_back(bursts_of(21.5e-3));
  const auto out = rates(time_slices(), contexts);
  const double prefill_turn = 21.5 / 11.0 + (10.0 * 0.2 + 0.125) / 11.0;
  const double round = 3.0 * (0.8 + 0.125) + 3.0 * prefill_turn;
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(out[static_cast<std::size_t>(i)].gpu_rate, 0.8 / round, 1e-12);
  for (int i = 3; i < 6; ++i) EXPECT_NEAR(out[static_cast<std::size_t>(i)].gpu_rate, 21.5 / 11.0 / round, 1e-12);
}

TEST(RateModel, MpsContextsWhoseOccupanciesSumToAtMostOneAreNotSlowed) {
  const auto out = rates({SharingDiscipline::concurrent}, {busy(0.3, 0.2), busy(0.5, 0.3), busy(0.2, 0.5)});
  for (const auto& r : out) EXPECT_DOUBLE_EQ(r.progress_rate, 1.0);
}

TEST(RateModel, MpsClientsThatWantTheSameSmsTakeTurnsAndKeepTheRest) {
  // Reaches 0.8 + 0.8: 0.6 of the SMs are wanted by both. Equal (default) kernels: each holds the
  // overlap half the time and keeps its own 0.2 the other half: g = 0.5 + 0.5 · 0.2/0.8 = 0.625.
  auto out = rates({SharingDiscipline::concurrent}, {busy(0.8, 0.1), busy(0.8, 0.1)});
  EXPECT_NEAR(out[0].gpu_rate, 0.625, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 0.625, 1e-12);
  // A small client inside a big one's reach waits its turn: it has no SMs of its own (0.5); the
  // big one keeps 0.8 of the SMs during the small one's turns: 0.5 + 0.5 · 0.8 = 0.9.
  out = rates({SharingDiscipline::concurrent}, {busy(0.2, 0.0), busy(1.0, 0.0)});
  EXPECT_NEAR(out[0].gpu_rate, 0.5, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 0.9, 1e-12);
  // Bandwidth-bound pair on SMs of their own (0.9 + 0.6 of the bandwidth): water filling gives
  // each 0.5 of the bandwidth.
  out = rates({SharingDiscipline::concurrent}, {busy(0.1, 0.9), busy(0.1, 0.6)});
  EXPECT_NEAR(out[0].gpu_rate, 0.5 / 0.9, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 0.5 / 0.6, 1e-12);
  // Water filling: a client that wants less than the level keeps it (0.2), the others split the
  // rest (0.4 each of 0.8 and 0.9 wanted).
  out = rates({SharingDiscipline::concurrent}, {busy(0.1, 0.2), busy(0.1, 0.8), busy(0.1, 0.9)});
  EXPECT_NEAR(out[0].gpu_rate, 1.0, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 0.4 / 0.8, 1e-12);
  EXPECT_NEAR(out[2].gpu_rate, 0.4 / 0.9, 1e-12);
}

/// A client whose kernels fill the SMs (an LLM step's GEMMs): SM need `sm`, bandwidth `bw`, one
/// kernel of `kernel_ms`.
ContextDemand filling(double sm, double bw, double kernel_ms) {
  ContextDemand c = busy(sm, bw);
  c.occupancy = 1.0;
  c.kernel_s = kernel_ms * 1e-3;
  return c;
}

TEST(RateModel, MpsShortKernelsBehindLongOnesGetOneKernelPerTurn) {
  // A decode-like client (1 ms kernels, bandwidth-bound) beside a prefill-like one (20 ms,
  // compute-bound), both filling the SMs: the block scheduler runs one kernel of each in turn, so
  // each holds the GPU for its kernel's share of a round: 1/21 and 20/21 (the H200 measured 0.036
  // and 0.958 for 0.8 and 21.5 ms).
  const auto out = rates({SharingDiscipline::concurrent}, {filling(0.01, 1.0, 1.0), filling(1.0, 0.05, 20.0)});
  EXPECT_NEAR(out[0].gpu_rate, 1.0 / 21.0, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 20.0 / 21.0, 1e-12);
  // Three identical ones: a third each.
  const auto three = rates({SharingDiscipline::concurrent}, std::vector<ContextDemand>(3, filling(0.01, 1.0, 1.0)));
  for (const auto& r : three) EXPECT_NEAR(r.gpu_rate, 1.0 / 3.0, 1e-12);
}

TEST(RateModel, MpsAThreadCapGivesTheOthersSmsOfTheirOwn) {
  // The prefill capped at half the SMs: its 20 ms kernels take 40 ms there. The decode keeps the
  // other half, where its bandwidth-bound kernels run at full speed; it holds the capped half for
  // 1/41 of the time, at full speed too: g = 1. The prefill holds its half 40/41 of the time, at
  // half speed: 20/41.
  ContextDemand prefill = filling(1.0, 0.0, 20.0);
  prefill.cap = 0.5;
  const auto out = rates({SharingDiscipline::concurrent}, {filling(0.01, 1.0, 1.0), prefill});
  EXPECT_NEAR(out[0].gpu_rate, 1.0, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 20.0 / 41.0, 1e-12);
  // The efficiency η counts while another client runs beside it: the decode off its turns (the
  // prefill has no SMs of its own, so nobody runs beside the decode's turns): (1 + 40 · 0.8)/41;
  // the prefill during its turns: 0.8 · 20/41.
  SharingParams params{SharingDiscipline::concurrent};
  params.concurrent_efficiency = 0.8;
  const auto slowed = rates(params, {filling(0.01, 1.0, 1.0), prefill});
  EXPECT_NEAR(slowed[0].gpu_rate, (1.0 + 40.0 * 0.8) / 41.0, 1e-12);
  EXPECT_NEAR(slowed[1].gpu_rate, 0.8 * 20.0 / 41.0, 1e-12);
}

TEST(RateModel, MpsTwoIdenticalMemoryBoundClientsShareTheBandwidth) {
  // On SMs of their own (0.2 each), both at once want 1.6 of the bandwidth: 0.5 each, g = 0.625.
  auto out = rates({SharingDiscipline::concurrent}, {busy(0.2, 0.8), busy(0.2, 0.8)});
  for (const auto& r : out) EXPECT_NEAR(r.gpu_rate, 0.5 / 0.8, 1e-12);
  // Filling the SMs, they take turns: half the time each, at full speed, and 0.4 + 0.4 of the
  // bandwidth fits: g = 0.5 (the H200 measured 0.519 for two decode GEMMs).
  out = rates({SharingDiscipline::concurrent}, {filling(0.01, 0.8, 1.0), filling(0.01, 0.8, 1.0)});
  for (const auto& r : out) EXPECT_NEAR(r.gpu_rate, 0.5, 1e-12);
}

TEST(RateModel, MpsActiveThreadPercentageCapsAContextEvenAlone) {
  ContextDemand c = busy(1.0, 0.0);
  c.cap = 0.25;
  const auto out = rates({SharingDiscipline::concurrent}, {c});
  EXPECT_NEAR(out[0].gpu_rate, 0.25, 1e-12);
}

TEST(RateModel, AThreadCapLimitsAMemoryBoundClientsBandwidthBelowTheSmsThatSaturateIt) {
  // A streaming client (bandwidth 1, compute next to none) where 0.316 of the SMs saturate the
  // memory system (the H200's, from green contexts): capped at 25 % it pulls 0.25 / 0.316 of the
  // bandwidth (the H200 measured 0.632); at 50 % all of it (measured 0.974). Without the
  // constant a cap costs it nothing.
  SharingParams params{SharingDiscipline::concurrent};
  params.bandwidth_sm_frac = 0.316;
  ContextDemand stream = filling(0.005, 1.0, 0.1);
  stream.cap = 0.25;
  EXPECT_NEAR(rates(params, {stream})[0].gpu_rate, 0.25 / 0.316, 1e-12);
  stream.cap = 0.5;
  EXPECT_NEAR(rates(params, {stream})[0].gpu_rate, 1.0, 1e-12);
  stream.cap = 0.25;
  EXPECT_NEAR(rates({SharingDiscipline::concurrent}, {stream})[0].gpu_rate, 1.0, 1e-12);
  // A client moving half the bandwidth needs half those SMs: at 25 % it keeps full speed
  // (0.25 / 0.316 = 0.79 of the bandwidth reachable, 0.5 wanted).
  ContextDemand half = filling(0.005, 0.5, 0.1);
  half.cap = 0.25;
  EXPECT_NEAR(rates(params, {half})[0].gpu_rate, 1.0, 1e-12);
  // Beside a compute-bound client capped at 75 %, a streaming one keeps the 25 % nobody else reaches
  // off its turns: there it pulls 0.25 / 0.316 of the bandwidth, not all of it.
  ContextDemand compute = filling(1.0, 0.0, 0.1);
  compute.cap = 0.75;
  ContextDemand free_stream = filling(0.005, 1.0, 0.1);
  const auto pair = rates(params, {free_stream, compute});
  const double hard = 0.1 / 0.75;  // the compute client's kernels on its 75 %
  const double turn = 0.1 / (0.1 + hard);
  EXPECT_NEAR(pair[0].gpu_rate, turn + (1.0 - turn) * 0.25 / 0.316, 1e-12);
}

SharingParams mps_with_interference(double kappa) {
  SharingParams params{SharingDiscipline::concurrent};
  params.concurrent_interference = kappa;
  return params;
}

TEST(RateModel, MpsInterferenceSlowsClientsWhoseDemandsFitByExactlyItsFactor) {
  // SMs 0.6 and bandwidth 0.8 in all: the split leaves both at full speed, but each sees the other's
  // traffic (always in a GPU phase, bw 0.4): g = 1 / (1 + κ · 1 · 0.4), 1 / 1.2 for κ = 0.5.
  const auto out = rates(mps_with_interference(0.5), {busy(0.3, 0.4), busy(0.3, 0.4)});
  for (const auto& r : out) {
    EXPECT_NEAR(r.gpu_rate, 1.0 / 1.2, 1e-12);
    EXPECT_NEAR(r.progress_rate, 1.0 / 1.2, 1e-12);
  }
  // Only the others' traffic counts: a compute-bound client next to a streaming one is slowed by
  // 1 + 0.5 · 0.5; the streaming one, whose company moves no memory, keeps its speed.
  const auto mixed = rates(mps_with_interference(0.5), {busy(0.3, 0.0), busy(0.3, 0.5)});
  EXPECT_NEAR(mixed[0].gpu_rate, 1.0 / 1.25, 1e-12);
  EXPECT_NEAR(mixed[1].gpu_rate, 1.0, 1e-12);
}

TEST(RateModel, MpsInterferenceWeighsTheOthersByTheirGpuPhaseProbability) {
  // Two identical clients, duty d = 0.5, bandwidth b = 0.5, κ = 1: u = 1/g solves
  // u = 1 + κ b x with x = d u / ((1 - d) + d u), i.e. d u² + (1 - 2d - κ b d) u - (1 - d) = 0:
  // u² - u/2 - 1 = 0, u = (1 + √17) / 4.
  const double g = 4.0 / (1.0 + std::sqrt(17.0));
  const auto out = rates(mps_with_interference(1.0), {busy(0.2, 0.5, 0.5), busy(0.2, 0.5, 0.5)});
  for (const auto& r : out) {
    EXPECT_NEAR(r.gpu_rate, g, 1e-9);
    EXPECT_NEAR(r.progress_rate, 1.0 / (0.5 + 0.5 / g), 1e-9);
  }
}

TEST(RateModel, MpsInterferenceLeavesAClientAloneOrWithIdleCompanyAtFullSpeed) {
  EXPECT_DOUBLE_EQ(rates(mps_with_interference(3.0), {busy(0.5, 0.9)})[0].gpu_rate, 1.0);
  ContextDemand idle = busy(0.5, 0.9);
  idle.active = false;
  EXPECT_DOUBLE_EQ(rates(mps_with_interference(3.0), {busy(0.5, 0.9), idle})[0].gpu_rate, 1.0);
}

TEST(RateModel, MpsWithoutInterferenceGivesTheTurnsAloneBitForBit) {
  // κ = 0 must reproduce the model before the term existed, oversubscribed, capped and with CPU gaps.
  ContextDemand capped = busy(0.9, 0.2, 0.7);
  capped.cap = 0.4;
  const std::vector<ContextDemand> contexts = {busy(0.8, 0.1), busy(0.8, 0.6, 0.5), capped, busy(0.1, 0.9, 0.3)};
  const auto before = rates({SharingDiscipline::concurrent}, contexts);
  const auto with_zero = rates(mps_with_interference(0.0), contexts);
  ASSERT_EQ(before.size(), with_zero.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].gpu_rate, with_zero[i].gpu_rate) << i;
    EXPECT_EQ(before[i].progress_rate, with_zero[i].progress_rate) << i;
    EXPECT_EQ(before[i].gpu_phase_frac, with_zero[i].gpu_phase_frac) << i;
  }
  EXPECT_LT(before[0].gpu_rate, 1.0);  // a real split, not everyone at full speed
}

TEST(RateModel, ADemandAboveTheDeviceSlowsEvenAlone) {
  // A compute-bound workload measured on a 98-SM 7g instance, run on a 14-SM 1g instance.
  ContextDemand compute = busy(98.0 / 14.0, 0.0);
  ContextDemand memory = busy(0.0, 8.0);
  const auto out = rates({SharingDiscipline::exclusive}, {compute});
  EXPECT_NEAR(out[0].gpu_rate, 14.0 / 98.0, 1e-12);
  EXPECT_NEAR(rates({SharingDiscipline::exclusive}, {memory})[0].gpu_rate, 1.0 / 8.0, 1e-12);
}

TEST(RateModel, FixedShareHoldsItsShareEvenWhenAlone) {
  SharingParams params{SharingDiscipline::fixed_share};
  params.total_placed_weight = 4.0;
  const auto out = rates(params, {busy(1.0, 0.0)});
  EXPECT_NEAR(out[0].gpu_rate, 0.25, 1e-12);
}

TEST(RateModel, HamiCoreCapAppliesOnlyWithCompanyUnlessForced) {
  ContextDemand capped = busy(1.0, 0.0);
  capped.cap = 0.3;
  SharingParams params{SharingDiscipline::time_sliced};
  EXPECT_NEAR(rates(params, {capped})[0].gpu_rate, 1.0, 1e-12);
  EXPECT_NEAR(rates(params, {capped, busy(1.0, 0.0)})[0].gpu_rate, 0.3, 1e-12);
  params.cap_when_alone = true;
  EXPECT_NEAR(rates(params, {capped})[0].gpu_rate, 0.3, 1e-12);
}

TEST(RateModel, LaunchOverheadSlowsEveryKernel) {
  SharingParams params{SharingDiscipline::time_sliced};
  params.launch_overhead_frac = 0.05;
  EXPECT_NEAR(rates(params, {busy(1.0, 0.0)})[0].gpu_rate, 1.0 / 1.05, 1e-12);
}

TEST(RateModel, WeightsSplitSaturatedTimeSlicing) {
  ContextDemand heavy = busy(1.0, 0.0);
  heavy.weight = 3.0;
  const auto out = rates({SharingDiscipline::time_sliced}, {heavy, busy(1.0, 0.0)});
  EXPECT_NEAR(out[0].gpu_rate, 0.75, 1e-12);
  EXPECT_NEAR(out[1].gpu_rate, 0.25, 1e-12);
}

}  // namespace
}  // namespace slicewise::models
