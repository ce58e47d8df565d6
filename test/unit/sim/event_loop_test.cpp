// The run's event loop: time order, the order of actors due at one instant, notifications and
// the shortest wait.
#include "sim/event_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::sim {
namespace {

/// Runs the loop to its end: (time, actor) of each run.
std::vector<std::pair<double, std::size_t>> drain(EventLoop& loop) {
  std::vector<std::pair<double, std::size_t>> runs;
  while (const auto actor = loop.next()) runs.emplace_back(loop.now(), *actor);
  return runs;
}

TEST(EventLoop, RunsTimedWakeUpsInTimeOrder) {
  EventLoop loop(4);
  loop.wake_at(0, 3.0);
  loop.wake_at(1, 1.0);
  loop.wake_at(2, 2.0);
  loop.wake_at(3, 0.5);
  using Run = std::pair<double, std::size_t>;
  EXPECT_EQ(drain(loop), (std::vector<Run>{{0.5, 3}, {1.0, 1}, {2.0, 2}, {3.0, 0}}));
}

TEST(EventLoop, ALaterWakeUpReplacesTheEarlierOne) {
  EventLoop loop(2);
  loop.wake_at(0, 1.0);
  loop.wake_at(1, 2.0);
  loop.wake_at(0, 3.0);
  using Run = std::pair<double, std::size_t>;
  EXPECT_EQ(drain(loop), (std::vector<Run>{{2.0, 1}, {3.0, 0}}));
}

TEST(EventLoop, AtOneInstantTimedWakeUpsRunInTheOrderAskedThenNotificationsInTheOrderSent) {
  EventLoop loop(5);
  loop.wake_at(2, 1.0);
  loop.wake_at(0, 1.0);
  loop.wake_at(4, 5.0);
  loop.wake_at(3, 6.0);
  std::vector<std::size_t> order;
  while (const auto actor = loop.next()) {
    order.push_back(*actor);
    if (*actor == 2) {  // at t = 1 it notifies 3, then 4: both timed later, both run now, after 0
      loop.notify(3);
      loop.notify(4);
      loop.notify(3);  // already due: nothing
    }
    EXPECT_EQ(loop.now(), 1.0);
  }
  EXPECT_EQ(order, (std::vector<std::size_t>{2, 0, 3, 4}));
}

TEST(EventLoop, ANotificationWhileRunningRunsTheActorAgainAtOnceAndOverridesItsWakeUp) {
  EventLoop loop(2);
  loop.notify(0);
  int runs_of_0 = 0;
  while (const auto actor = loop.next()) {
    if (*actor != 0) continue;
    ++runs_of_0;
    if (runs_of_0 == 1) {
      loop.notify(0);         // a release while it runs: as SimGrid's semaphore, it runs again
      loop.wake_at(0, 10.0);  // its own wait then returns at once
    } else {
      EXPECT_EQ(loop.now(), 0.0);
    }
  }
  EXPECT_EQ(runs_of_0, 2);
}

TEST(EventLoop, WaitingAndFinishedActorsRunOnlyWhenNotifiedAndNeverAgain) {
  EventLoop loop(3);
  loop.wake_at(0, 1.0);
  loop.wake_at(1, 2.0);
  loop.wake_at(2, 3.0);
  loop.wait(1);    // drops its wake-up at 2
  loop.finish(2);  // drops its wake-up at 3 for good
  std::vector<std::pair<double, std::size_t>> runs;
  while (const auto actor = loop.next()) {
    runs.emplace_back(loop.now(), *actor);
    if (*actor == 0) {
      loop.notify(1);
      loop.notify(2);  // finished: nothing
      EXPECT_TRUE(loop.finished(2));
    }
  }
  using Run = std::pair<double, std::size_t>;
  EXPECT_EQ(runs, (std::vector<Run>{{1.0, 0}, {1.0, 1}}));
}

TEST(EventLoop, ManyActorsComeOutSortedByTimeThenByRequest) {
  // 1,000 actors at 100 distinct times, asked in a scrambled order, one moved later and back.
  const std::size_t n = 1000;
  EventLoop loop(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t actor = (i * 7919) % n;
    loop.wake_at(actor, static_cast<double>(actor % 100));
  }
  loop.wake_at(5, 500.0);
  loop.wake_at(5, 5.0);  // now the last one asked at t = 5
  double last_time = -1.0;
  std::size_t count = 0;
  std::size_t last_at_5 = 0;
  while (const auto actor = loop.next()) {
    EXPECT_GE(loop.now(), last_time);
    EXPECT_EQ(loop.now(), static_cast<double>(*actor % 100));
    if (loop.now() == 5.0) last_at_5 = *actor;
    last_time = loop.now();
    ++count;
  }
  EXPECT_EQ(count, n);
  EXPECT_EQ(last_at_5, 5U);
}

TEST(EventLoop, AnActorThatAsksForNothingWhileItRunsWaits) {
  EventLoop loop(2);
  loop.wake_at(0, 1.0);  // alone at its instant: it runs with its entry kept at the heap's top
  loop.wake_at(1, 2.0);
  std::vector<std::pair<double, std::size_t>> runs;
  while (const auto actor = loop.next()) {
    runs.emplace_back(loop.now(), *actor);
    if (*actor == 1) loop.notify(0);  // 0 waited since its run: only this brings it back
  }
  using Run = std::pair<double, std::size_t>;
  EXPECT_EQ(runs, (std::vector<Run>{{1.0, 0}, {2.0, 1}, {2.0, 0}}));
}

/// The loop's contract written plainly: every timed wake-up in a list, the earliest found by a
/// scan, the actors due at one instant in a FIFO.
class ReferenceLoop {
 public:
  explicit ReferenceLoop(std::size_t n) : state_(n, 'w'), at_(n), order_of_(n) {}
  double now() const { return now_; }
  void wake_at(std::size_t actor, double at) {
    if (state_[actor] == 'd' || state_[actor] == 'f') return;
    state_[actor] = 't';
    at_[actor] = at;
    order_of_[actor] = order_++;
  }
  void notify(std::size_t actor) {
    if (state_[actor] == 'd' || state_[actor] == 'f') return;
    state_[actor] = 'd';
    due_.push_back(actor);
  }
  void wait(std::size_t actor) {
    if (state_[actor] == 't') state_[actor] = 'w';
  }
  void finish(std::size_t actor) { state_[actor] = 'f'; }
  std::optional<std::size_t> next() {
    while (true) {
      if (due_.empty()) {
        std::vector<std::size_t> timed;
        for (std::size_t a = 0; a < state_.size(); ++a) {
          if (state_[a] == 't') timed.push_back(a);
        }
        if (timed.empty()) return std::nullopt;
        std::sort(timed.begin(), timed.end(), [&](std::size_t a, std::size_t b) {
          return at_[a] < at_[b] || (at_[a] == at_[b] && order_of_[a] < order_of_[b]);
        });
        now_ = at_[timed.front()];
        for (const std::size_t a : timed) {
          if (at_[a] != now_) break;
          state_[a] = 'd';
          due_.push_back(a);
        }
      }
      const std::size_t actor = due_.front();
      due_.pop_front();
      if (state_[actor] == 'd') {
        state_[actor] = 'w';
        return actor;
      }
    }
  }

 private:
  std::vector<char> state_;  // w waiting, t timed, d due, f finished
  std::vector<double> at_;
  std::vector<std::uint64_t> order_of_;
  std::deque<std::size_t> due_;
  std::uint64_t order_ = 0;
  double now_ = 0.0;
};

TEST(EventLoop, RandomRunsMatchTheContractWrittenPlainly) {
  // Each run: the running actor and others get random calls (wake-ups on a coarse grid, so that
  // instants are shared; notifications; waits; finishes; or nothing at all), in both loops.
  for (const std::size_t n : {1U, 2U, 3U, 7U, 24U, 100U}) {
    std::mt19937_64 rng(n);
    EventLoop loop(n);
    ReferenceLoop reference(n);
    for (std::size_t a = 0; a < n; ++a) {
      loop.wake_at(a, static_cast<double>(a % 3));
      reference.wake_at(a, static_cast<double>(a % 3));
    }
    std::size_t runs = 0;
    std::size_t revivals = 0;
    while (runs < 20000) {
      const auto actor = loop.next();
      ASSERT_EQ(actor, reference.next()) << "n " << n << ", run " << runs;
      if (!actor) {  // everyone waits or has finished: notify them all, as a source's end does
        if (++revivals == 50) break;
        for (std::size_t a = 0; a < n; ++a) {
          loop.notify(a);
          reference.notify(a);
        }
        continue;
      }
      ASSERT_EQ(loop.now(), reference.now());
      ++runs;
      const std::size_t calls = rng() % 4;
      for (std::size_t c = 0; c < calls; ++c) {
        const std::size_t target = c == 0 ? *actor : rng() % n;
        const double at = loop.now() + static_cast<double>(rng() % 4) * 0.5;
        switch (rng() % 16) {
          case 0:
            loop.notify(target);
            reference.notify(target);
            break;
          case 1:
            loop.wait(target);
            reference.wait(target);
            break;
          case 2:
            if (rng() % 64 == 0) {
              loop.finish(target);
              reference.finish(target);
            }
            break;
          case 3: break;  // asks for nothing
          default: loop.wake_at(target, at); reference.wake_at(target, at);
        }
      }
    }
    EXPECT_GT(runs, 100U) << "n " << n;
  }
}

TEST(EventLoop, AWaitShorterThanANanosecondLastsANanosecond) {
  EXPECT_EQ(wake_time(2.0, 3.0), 3.0);
  EXPECT_EQ(wake_time(2.0, 2.0 + 2e-9), 2.0 + 2e-9);
  EXPECT_EQ(wake_time(2.0, 2.0 + 1e-12), 2.0 + kMinWaitS);
  EXPECT_EQ(wake_time(1e6, std::nextafter(1e6, 2e6)), 1e6 + kMinWaitS);
}

TEST(EventLoop, MinusZeroIsTheSameInstantAsZero) {
  // The heap compares times by their bits, where -0 would sort after every positive time.
  EventLoop loop(3);
  loop.wake_at(1, -0.0);
  loop.wake_at(0, 0.0);
  loop.wake_at(2, 1e-300);
  using Run = std::pair<double, std::size_t>;
  EXPECT_EQ(drain(loop), (std::vector<Run>{{0.0, 1}, {0.0, 0}, {1e-300, 2}}));
}

TEST(EventLoop, MoreActorsThanAWakeUpCanNameAreRefusedWithTheLimit) {
  try {
    EventLoop loop((std::size_t{1} << 24) + 1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a run of 16777217 actors (a device or a tenant each): at most 16777216 are supported");
  }
}

TEST(EventLoop, AWakeUpInThePastIsAProgrammingError) {
  EventLoop loop(2);
  loop.wake_at(0, 2.0);
  ASSERT_EQ(loop.next(), 0U);
  EXPECT_THROW(loop.wake_at(1, 1.0), std::exception);
}

}  // namespace
}  // namespace slicewise::sim
