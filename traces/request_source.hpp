// A stream of requests for one tenant. Readers and generators produce requests one at a time so
// that a replay never holds a whole trace in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace slicewise::traces {

/// One request as the engine needs it.
struct RequestRecord {
  double arrived_at_s = 0.0;   ///< arrival instant, seconds from the start of the simulation
  double prompt_tokens = 0.0;  ///< LLM prompt length (0 for non-LLM work)
  double output_tokens = 0.0;  ///< LLM output length (0 for non-LLM work)
  double work_scale = 1.0;     ///< multiplies the tenant's solo work (1 = a typical request)
  /// Multiplies the tenant's per-request SM and bandwidth demand (1 = the tenant's own figures);
  /// a trace row's GPU share sets it when the load asks for gpu_frac_demand.
  double demand_scale = 1.0;
  /// LLM: hashes of the prompt's blocks of prefix_block_tokens tokens (TraceRow::prefix_hashes);
  /// null when the load carries none. Shared, so that a request costs no copy of them on its way
  /// (most loads have none: a null pointer copies for free).
  std::shared_ptr<const std::vector<std::uint64_t>> prefix_hashes{};
  double prefix_block_tokens = 0.0;
  bool operator==(const RequestRecord&) const = default;
};

/// Produces requests in non-decreasing arrival order.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  /// Writes the next request into `out`; false when the stream is exhausted.
  virtual bool next(RequestRecord& out) = 0;
};

/// Uniform double in [0, 1) from the top 53 bits of a 64-bit word: identical on every platform,
/// unlike std::uniform_real_distribution.
inline double unit_interval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace slicewise::traces
