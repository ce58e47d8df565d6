// The answers a RateModel keeps (rate_model.hpp): a device with a context or two meets the same
// inputs (each context's demands and the phase its solve starts from) again and again, so their
// answers are kept and replayed bit for bit without a solve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "models/rate_types.hpp"

namespace slicewise::models {

/// An open-addressing table on a hash of the solve's input, at most half full, grown from 8 slots
/// as needed up to kContextSlots / kMaxContexts slots (each of room for kMaxContexts contexts;
/// 147 KB per device at most) and emptied when full. Slot s holds, at [s·W, s·W + n),
/// W = kMaxContexts, the n demands and starting phases of a solve of n contexts, its n rates and
/// the n phases it ended at; its key is 0 when empty. Solves of 1 and of 2 contexts share it.
class RateMemo {
 public:
  static constexpr std::size_t kContextSlots = 1024;
  /// A memo that replays fewer than a quarter of its answers over this many calls is freed.
  static constexpr std::size_t kWindow = 1024;
  /// Only solves of this many contexts or fewer are kept: with more, the warm start leaves the
  /// phases of contexts that did not change different in their last bits from visit to visit, and
  /// inputs seldom recur (RateModel.KeptAnswersReplayTheSolveBitForBit).
  static constexpr std::size_t kMaxContexts = 2;
  static constexpr std::size_t kNoSlot = std::numeric_limits<std::size_t>::max();

  /// The key of a solve's input, never 0 (an empty slot's key): what changes from event to event,
  /// each context's demands and starting phase (0 when idle). recall() compares every field.
  static std::uint64_t key_of(std::span<const ContextDemand> contexts, std::span<const double> start);

  /// Counts a call; false when the window it ends replayed fewer than a quarter of its calls: the
  /// memo is then freed, and keeping answers is not worth it for this device.
  bool count_call();
  /// The slot of the kept answer for `contexts` starting from `start` (hash `key`), or kNoSlot.
  std::size_t recall(std::uint64_t key, std::span<const ContextDemand> contexts, std::span<const double> start) const;
  /// Replays slot's answer of `n` contexts: their rates and the phases the solve ended at.
  void replay(std::size_t slot, std::size_t n, std::vector<ContextRate>& rates, std::vector<double>& end);
  /// Keeps an answer: the solve of `contexts` from `start` gave `rates` and ended at `end`.
  void keep(std::uint64_t key, std::span<const ContextDemand> contexts, std::span<const double> start,
            std::span<const ContextRate> rates, std::span<const double> end);

  std::size_t size() const { return size_; }
  std::size_t replays() const { return replays_; }

 private:
  /// Puts one answer in the first free slot from its key's (the table has room).
  void insert(std::uint64_t key, std::span<const ContextDemand> demands, std::span<const double> start,
              std::span<const ContextRate> rates, std::span<const double> end);
  void grow(std::size_t slots);

  std::size_t size_ = 0;   // slots in use
  std::size_t calls_ = 0;  // calls and replays in the current window of kWindow calls
  std::size_t hits_ = 0;
  std::size_t replays_ = 0;
  std::vector<std::uint64_t> key_;
  std::vector<std::uint8_t> count_;  // n of each slot's answer
  std::vector<ContextDemand> demands_;
  std::vector<double> start_;
  std::vector<ContextRate> rates_;
  std::vector<double> end_;
};

}  // namespace slicewise::models
