// The run's event loop: time order, the order of actors due at one instant, notifications and
// the shortest wait.
#include "sim/event_loop.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

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

TEST(EventLoop, AWaitShorterThanANanosecondLastsANanosecond) {
  EXPECT_EQ(wake_time(2.0, 3.0), 3.0);
  EXPECT_EQ(wake_time(2.0, 2.0 + 2e-9), 2.0 + 2e-9);
  EXPECT_EQ(wake_time(2.0, 2.0 + 1e-12), 2.0 + kMinWaitS);
  EXPECT_EQ(wake_time(1e6, std::nextafter(1e6, 2e6)), 1e6 + kMinWaitS);
}

TEST(EventLoop, AWakeUpInThePastIsAProgrammingError) {
  EventLoop loop(2);
  loop.wake_at(0, 2.0);
  ASSERT_EQ(loop.next(), 0U);
  EXPECT_THROW(loop.wake_at(1, 1.0), std::exception);
}

}  // namespace
}  // namespace slicewise::sim
