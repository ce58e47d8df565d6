// The run's event loop: an indexed binary heap of timed wake-ups and a FIFO of the actors due now.
#include "sim/event_loop.hpp"

#include <string>

#include "core/error.hpp"

namespace slicewise::sim {

namespace {
/// The number of actors, checked against what a wake-up's tag can name.
std::size_t checked_actors(std::size_t num_actors, std::size_t most) {
  if (num_actors > most) {
    throw Error("a run of " + std::to_string(num_actors) + " actors (a device or a tenant each): at most " +
                std::to_string(most) + " are supported");
  }
  return num_actors;
}
}  // namespace

EventLoop::EventLoop(std::size_t num_actors)
    : position_(checked_actors(num_actors, kActorMask + 1), kNone), state_(num_actors, State::waiting) {
  heap_.reserve(num_actors);
  due_.reserve(num_actors);
}

void EventLoop::place(std::size_t index, const Entry& entry) {
  heap_[index] = entry;
  position_[entry.actor()] = index;
}

void EventLoop::sift_up(std::size_t index) {
  const Entry entry = heap_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / 2;
    if (!before(entry, heap_[parent])) break;
    place(index, heap_[parent]);
    index = parent;
  }
  place(index, entry);
}

void EventLoop::sift_down(std::size_t index) {
  const Entry entry = heap_[index];
  const std::size_t size = heap_.size();
  while (true) {
    std::size_t child = 2 * index + 1;
    if (child >= size) break;
    if (child + 1 < size && before(heap_[child + 1], heap_[child])) ++child;
    if (!before(heap_[child], entry)) break;
    place(index, heap_[child]);
    index = child;
  }
  place(index, entry);
}

void EventLoop::erase(std::size_t actor) {
  const std::size_t index = position_[actor];
  if (index == kNone) return;
  position_[actor] = kNone;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (index == heap_.size()) return;
  place(index, last);
  sift_down(index);
  sift_up(position_[last.actor()]);
}

std::size_t EventLoop::pop_top() {
  const std::size_t actor = heap_.front().actor();
  erase(actor);
  return actor;
}

void EventLoop::make_due(std::size_t actor) {
  state_[actor] = State::due;
  if (due_head_ == due_.size()) {
    due_.clear();
    due_head_ = 0;
  }
  due_.push_back(actor);
}

void EventLoop::wake_at(std::size_t actor, double at) {
  SW_CHECK(at >= now_, "wake-up in the past");
  if (state_[actor] == State::due || state_[actor] == State::finished) return;
  state_[actor] = State::timed;
  SW_CHECK(order_ < kMaxOrder, "more wake-ups than the event loop counts");
  const Entry entry{time_bits(at), (order_++ << kActorBits) | actor};
  const std::size_t index = position_[actor];
  if (index == kNone) {
    heap_.push_back(entry);
    sift_up(heap_.size() - 1);
    return;
  }
  // It has a wake-up (its held one, or one it replaces): move that entry to the new key in place.
  const bool later = before(heap_[index], entry);
  place(index, entry);
  if (later) {
    sift_down(index);
  } else {
    sift_up(index);
  }
}

void EventLoop::notify(std::size_t actor) {
  if (state_[actor] == State::due || state_[actor] == State::finished) return;
  // Its timed wake-up, if any, stays in the heap until the actor has run: it is later than now,
  // so it cannot come up first, and the actor's next wake_at() then moves it in place.
  make_due(actor);
}

void EventLoop::wait(std::size_t actor) {
  if (state_[actor] == State::due || state_[actor] == State::finished) return;
  erase(actor);
  state_[actor] = State::waiting;
}

void EventLoop::finish(std::size_t actor) {
  erase(actor);
  state_[actor] = State::finished;
}

}  // namespace slicewise::sim
