// The run's own event loop (docs/architecture.md, "The event loop"): each actor of a run (a
// device, a tenant's request source) waits for its next wake-up, and the loop runs them one at a
// time in time order, in one SimGrid actor: no thread and no context switch per event. Pure C++,
// so that it is unit-tested directly.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace slicewise::sim {

/// The shortest wait: a wake-up asked for less than this after now comes this long after now.
/// SimGrid's precision/timing (1 ns), which the runs kept while every actor was a SimGrid actor;
/// keeping it keeps their results.
inline constexpr double kMinWaitS = 1e-9;

/// When an actor that is at `now` and asks to run at `until` (> now) runs.
inline double wake_time(double now, double until) { return until - now < kMinWaitS ? now + kMinWaitS : until; }

class EventLoop {
 public:
  explicit EventLoop(std::size_t num_actors);

  /// The time of the actor running now (of the last one run).
  double now() const { return now_; }
  /// Runs `actor` at `at` (>= now), in place of a wake-up it had. Nothing when the actor was
  /// notified since it last ran: it runs now anyway, as SimGrid's semaphore would let it.
  void wake_at(std::size_t actor, double at);
  /// `actor` runs at the current instant, after those already due now: a notification. Cancels
  /// its timed wake-up; nothing when it is already due or has finished.
  void notify(std::size_t actor);
  /// `actor` waits for a notification only.
  void wait(std::size_t actor);
  /// `actor` never runs again.
  void finish(std::size_t actor);
  bool finished(std::size_t actor) const { return state_[actor] == State::finished; }

  /// The next actor to run, the clock moved to its time; none when no actor will run again.
  /// Actors due at one instant run in the order they became due (timed wake-ups at one instant
  /// in the order they were asked for, then notifications in the order they were sent).
  std::optional<std::size_t> next();

 private:
  enum class State : std::uint8_t { waiting, timed, due, finished };
  /// A wake-up in 16 bytes: its time's bits (a time is >= 0, where IEEE order is integer order)
  /// and its order of asking with the actor in the low bits. Orders are distinct, so comparing
  /// (bits, tag) as integers is comparing (at, order), without a branch.
  struct Entry {
    std::uint64_t at_bits;
    std::uint64_t tag;
    double at() const { return std::bit_cast<double>(at_bits); }
    std::size_t actor() const { return static_cast<std::size_t>(tag & kActorMask); }
  };
  static constexpr int kActorBits = 24;
  static constexpr std::uint64_t kActorMask = (std::uint64_t{1} << kActorBits) - 1;
  static constexpr std::uint64_t kMaxOrder = (std::uint64_t{1} << (64 - kActorBits)) - 1;
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  static bool before(const Entry& a, const Entry& b) {
    return (a.at_bits < b.at_bits) | ((a.at_bits == b.at_bits) & (a.tag < b.tag));
  }
  static std::uint64_t time_bits(double at) { return std::bit_cast<std::uint64_t>(at + 0.0); }  // -0 is +0
  void place(std::size_t index, const Entry& entry);
  void sift_up(std::size_t index);
  void sift_down(std::size_t index);
  void erase(std::size_t actor);
  void drop_stale_hold();
  bool alone_at_top() const;
  std::size_t pop_top();
  void make_due(std::size_t actor);
  std::size_t run(std::size_t actor);

  std::vector<Entry> heap_;            ///< timed wake-ups, a binary min-heap on (at, order)
  std::vector<std::size_t> position_;  ///< per actor, its index in heap_ or kNone
  std::vector<State> state_;
  std::vector<std::size_t> due_;  ///< FIFO of the actors due at now_ (head below)
  std::size_t due_head_ = 0;
  /// The actor that runs now. Its wake-up may still be in the heap (at the top, when it was alone
  /// due at its instant; anywhere, when a notification made it due): its next wake_at() moves
  /// that entry in place instead of a pop and a push, and next() drops it if it asked for none.
  std::size_t held_ = kNone;
  double now_ = 0.0;
  std::uint64_t order_ = 0;
};

// The hot path of every run, inline so that the engine's scheduler loop compiles it in place.

inline void EventLoop::drop_stale_hold() {
  // The actor that ran last asked for nothing: it waits, and the wake-up it ran with, still in the
  // heap, goes. (After wake_at() it is timed; after wait() or finish() its entry is gone; after a
  // notification it is due and runs again, with the same entry held.)
  if (held_ != kNone && state_[held_] == State::waiting) erase(held_);
  held_ = kNone;
}

inline bool EventLoop::alone_at_top() const {
  // The heap orders by time first, so no one else is due now when neither child of the top is.
  const std::size_t size = heap_.size();
  const std::uint64_t now_bits = time_bits(now_);
  return (size < 2 || heap_[1].at_bits != now_bits) && (size < 3 || heap_[2].at_bits != now_bits);
}

inline std::optional<std::size_t> EventLoop::next() {
  drop_stale_hold();
  while (true) {
    if (due_head_ == due_.size()) {
      if (heap_.empty()) return std::nullopt;
      now_ = heap_.front().at();
      if (alone_at_top()) {
        // The common case, one actor due at this instant: it runs with its entry left at the top,
        // so that its next wake_at() is one sift down rather than a pop and a push. The order in
        // which actors run is the same: every key (at, order) is distinct, so any valid heap
        // yields the same sequence.
        return run(heap_.front().actor());
      }
      while (!heap_.empty() && heap_.front().at() == now_) make_due(pop_top());
    }
    const std::size_t actor = due_[due_head_++];
    if (state_[actor] == State::due) return run(actor);
  }
}

inline std::size_t EventLoop::run(std::size_t actor) {
  // Running: until it asks for its next wake-up it waits, and a notification makes it due again.
  state_[actor] = State::waiting;
  held_ = actor;
  return actor;
}

}  // namespace slicewise::sim
