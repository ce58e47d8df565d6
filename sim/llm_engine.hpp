// One LLM serving engine (vLLM, SGLang, TGI) as the engines schedule (docs/model.md, "LLM
// serving"): continuous batching of up to max_num_seqs sequences, a token budget per step shared
// by decodes and prefill chunks (chunked prefill) or prefill steps that pause decoding (prefill
// first), a paged KV cache that admits a sequence only while its blocks are free and preempts the
// newest sequence (recompute) when decoding runs out of blocks. Pure C++: sim::DeviceState owns
// one per LLM context and tells it how much solo time has passed.
//
// Fluid between events. The batch changes only at arrivals, admissions, prefill ends,
// completions and preemptions; in between, every step has the same sequences and chunks, and the
// step time grows linearly with the step count (each step adds a token to each decoding
// sequence's KV cache and a chunk to each prefill's prefix). So n steps take T0 n + β n (n - 1) / 2
// of solo time, which the engine inverts in closed form: no event per token.
//
// Prefix caching (vLLM V1, SGLang's radix cache): a prompt that arrives with the hashes of its
// blocks (a Mooncake trace's hash_ids) skips the leading blocks whose KV is still cached, and the
// sequences that hold a block share its memory. A computed block no sequence holds stays cached in
// the free memory until the pool needs its room, least recently used first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/llm_step.hpp"
#include "scenario/llm_serving.hpp"

namespace slicewise::sim {

enum class BatchPolicy {
  chunked_prefill,  ///< vLLM V1, SGLang: decodes first, then prompt chunks FCFS in the same step
  prefill_first,    ///< TGI: a step of whole prompts (decodes wait), then decode steps
};

struct EngineConfig {
  BatchPolicy policy = BatchPolicy::chunked_prefill;
  int max_num_seqs = 256;
  /// Tokens one step may batch (chunked prefill); prompt tokens one prefill step may batch
  /// (prefill first: TGI's max_batch_prefill_tokens).
  double max_batched_tokens = 8192;
  double kv_blocks = 0;  ///< blocks of block_size tokens in the KV pool
  double block_size = 16;
  /// Longest request (prompt + output) the engine takes; longer ones are refused at arrival.
  double max_model_len = std::numeric_limits<double>::infinity();
  /// Longest prompt it takes (TGI's max_input_length).
  double max_input_len = std::numeric_limits<double>::infinity();
  /// Reserve the whole request's blocks (prompt + output) at admission, as TGI's router does;
  /// no preemption then.
  bool reserve_whole_request = false;
  /// Reuse the cached KV of a prompt's leading hashed blocks (PromptPrefix).
  bool prefix_caching = false;
};

/// The hashes of a prompt's blocks of `block_tokens` tokens, first block first: equal leading hashes
/// mean an equal prefix. Empty when the load carries none.
struct PromptPrefix {
  std::span<const std::uint64_t> hashes;
  double block_tokens = 0.0;
};

/// The scheduler's settings from what the tenant's engine does on its device.
EngineConfig engine_config(const scenario::EngineOnDevice& on);

/// What `workload`'s engine prices its steps with on a device (a GPU of `gpu_id`, or one of its
/// MIG instances) of `device`'s compute and bandwidth: its model and dtypes, the fitted constants,
/// the host time and its tensor parallelism over the GPUs' interconnect.
models::StepModel step_model_for(const scenario::Workload& workload, const std::string& gpu_id,
                                 const models::StepDevice& device);

class LlmEngine {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  LlmEngine(const models::StepModel& step, const EngineConfig& config);

  /// What happened to a request at the last complete_due().
  struct Outcome {
    enum Kind { admitted, first_token, finished, preempted } kind;
    std::size_t request;
    double cached_tokens = 0.0;  ///< admitted: prompt tokens its prefix cache served
  };

  /// A request arrives (waits FIFO). False when the engine refuses it: longer than max_model_len
  /// or max_input_len, or more KV blocks than the whole pool holds. `prefix` is used when the
  /// engine caches prefixes.
  bool arrive(std::size_t request, double prompt_tokens, double output_tokens, std::vector<Outcome>& out,
              PromptPrefix prefix = {});
  bool arrive(std::size_t request, double prompt_tokens, double output_tokens, PromptPrefix prefix = {}) {
    std::vector<Outcome> admitted;
    return arrive(request, prompt_tokens, output_tokens, admitted, prefix);
  }
  /// `solo_s` seconds of the engine's own time pass (time at full speed; the device's rate model
  /// says how fast that is).
  void advance(double solo_s);
  /// Solo seconds until the batch next changes; kNever when there is nothing to run.
  double next_event_s() const;
  /// Ends what is due now (prefills, sequences, steps), preempts where the KV cache is full and
  /// admits waiting requests; appends what happened to `out`. True when anything changed.
  bool complete_due(std::vector<Outcome>& out);
  /// Every request in the engine, running then waiting, each once (a fault takes them).
  std::vector<std::size_t> take_all();

  /// The step the batch runs now (zero when idle).
  const models::StepCost& step() const { return step_; }
  /// What that step batches.
  const models::StepBatch& batch() const { return batch_; }
  /// The GPU-busy fraction of a step: its GPU time over its whole time.
  double duty() const;
  bool has_work() const { return !running_.empty() || prefill_step_; }
  std::size_t num_running() const { return running_.size(); }
  std::size_t num_waiting() const { return waiting_.size(); }
  /// The request of the i-th waiting entry (preempted sequences first, then arrivals in order).
  std::size_t waiting_request(std::size_t i) const { return waiting_[i].request; }
  /// Takes `requests` (waiting, in queue order) out of the queue: their clients gave up.
  void drop_waiting(std::span<const std::size_t> requests);
  std::size_t num_in_system() const { return running_.size() + waiting_.size(); }
  std::int64_t num_preemptions() const { return preemptions_; }
  double kv_blocks_used() const { return blocks_used_; }
  bool caches_prefixes() const { return config_.prefix_caching; }
  /// Prefix blocks cached that no sequence holds (their room is free, reused least recent first).
  std::size_t num_cached_free_blocks() const { return cached_free_.size(); }
  double steps() const { return steps_; }
  /// Solo time of a request alone on an idle engine: its prefill steps, then a step per further
  /// output token (first token at the end of the prefill).
  double solo_latency_s(double prompt_tokens, double output_tokens) const;
  /// The same, up to the first token.
  double solo_ttft_s(double prompt_tokens) const;

 private:
  struct Sequence {
    std::size_t request;
    double prompt;             ///< tokens to prefill (a preempted sequence recomputes its output so far too)
    double output;             ///< tokens still to generate after the prefill's first one
    double prefilled = 0.0;    ///< prompt tokens computed
    double chunk = 0.0;        ///< prompt tokens it computes per step in the current batch
    double decode_from = 0.0;  ///< decode clock when it started decoding
    double finish_at = 0.0;    ///< decode clock when it is done
    double blocks = 0.0;       ///< KV blocks held
    bool decoding = false;
    bool emitted = false;  ///< its first token went out (a preempted one does not send it again)
    /// Its prompt's whole hashed blocks (prefix caching: prefix_lists_[prefix], 0 = none), shared
    /// with the sequences that hold them: the first shared_tokens of its KV, outside its `blocks`.
    /// An index, so that a sequence stays a plain value that the batch moves by copying bytes.
    std::uint32_t prefix = 0;
    double shared_tokens = 0.0;
  };
  struct Waiting {
    std::size_t request;
    double prompt;
    double output;
    bool emitted;
    std::uint32_t prefix = 0;
    double shared_tokens = 0.0;
  };
  /// A hashed prefix block in the KV pool: held by `refs` sequences, or (refs 0, computed) cached
  /// in free memory at `free_at` in cached_free_.
  struct PrefixBlock {
    int refs = 0;
    bool computed = false;  ///< a sequence that holds it finished its prefill
    std::list<std::uint64_t>::iterator free_at;
  };
  /// What admitting `w` would take from the prefix cache.
  struct PrefixFit {
    double cached_tokens = 0.0;  ///< prompt tokens whose KV is cached (its leading computed blocks)
    double new_blocks = 0.0;     ///< KV blocks of its hashed blocks that no sequence holds now
  };

  double blocks_for(double tokens) const;
  double tokens_of(const Sequence& s) const;
  /// Sets each prefill's chunk, admits what fits, and prices the step.
  void compose(std::vector<Outcome>& out);
  void admit_chunked(double& budget, std::vector<Outcome>& out);
  void start_prefill_step(std::vector<Outcome>& out);
  void price_step();
  /// Solo time of n steps of the current batch, and its inverse.
  double solo_time_of(double n) const;
  double steps_in(double solo_s) const;
  double kv_room_tokens() const;
  void finish_prefill(Sequence& s, std::vector<Outcome>& out);
  // complete_due(), in its order: prefills that ended, sequences done, then the KV pool's blocks.
  void finish_due_prefills(double tolerance, std::vector<Outcome>& out);
  void finish_due_sequences(double tolerance, std::vector<Outcome>& out);
  void relieve_kv_pressure(double tolerance, std::vector<Outcome>& out);
  void recompute_next_finish();
  /// The prefilling sequences: the last num_prefilling_ of running_ (a prompt's chunks come first
  /// come, first served, so prefills end in admission order and the newest are still prefilling).
  std::span<Sequence> prefilling() { return std::span<Sequence>(running_).subspan(running_.size() - num_prefilling_); }
  std::span<const Sequence> prefilling() const {
    return std::span<const Sequence>(running_).subspan(running_.size() - num_prefilling_);
  }
  void preempt_newest(std::vector<Outcome>& out);
  /// Gives back the blocks `s` holds: its own, and the hashed ones no other sequence holds.
  void release(const Sequence& s);
  PrefixFit prefix_fit(const Waiting& w) const;
  /// `s` holds its hashed blocks (taking them out of the free cache).
  void hold_prefix(const Sequence& s);
  /// `s` lets go of its hashed blocks; the KV blocks that no sequence holds any more.
  double drop_prefix(const Sequence& s);
  /// Forgets the least recently used free cached blocks while they would not fit the free room.
  void evict_cached();
  /// Admits the first waiting request as the newest running sequence, holding `own` blocks and
  /// `fit`'s prefix, computing `chunk` prompt tokens a step.
  void admit(double own, const PrefixFit& fit, double chunk, std::vector<Outcome>& out);
  std::span<const std::uint64_t> hashes_of(std::uint32_t prefix) const {
    return prefix == 0 ? std::span<const std::uint64_t>() : std::span<const std::uint64_t>(prefix_lists_[prefix]);
  }
  /// A request's hashed blocks leave the engine with it.
  void forget_prefix_list(std::uint32_t prefix);
  /// Takes a decoding sequence out of the decode sums (it finished or was preempted).
  void forget_decoding(const Sequence& s);

  const models::StepModel* model_;
  EngineConfig config_;
  /// Decoding sequences, then prefilling ones, each in admission order (the newest last: the one
  /// preempted first).
  std::vector<Sequence> running_;
  std::size_t num_prefilling_ = 0;
  double next_finish_ = kNever;  ///< the decode clock at which the first decoding sequence is done
  std::deque<Waiting> waiting_;
  double blocks_used_ = 0.0;
  double steps_ = 0.0;
  double decode_clock_ = 0.0;  ///< steps that decoded
  double num_decoding_ = 0.0;
  double decode_context_ = 0.0;     ///< Σ KV tokens of the decoding sequences
  double decode_blocks_ = 0.0;      ///< Σ KV blocks the decoding sequences hold
  bool prefill_step_ = false;       ///< prefill first: a prefill step is under way
  double prefill_step_done_ = 0.0;  ///< its fraction done
  models::StepCost step_;
  models::StepBatch batch_;
  double step_growth_s_ = 0.0;  ///< β: step time added per step
  std::int64_t preemptions_ = 0;
  double decode_shared_ = 0.0;  ///< Σ shared_tokens of the decoding sequences
  std::unordered_map<std::uint64_t, PrefixBlock> prefix_blocks_;
  std::list<std::uint64_t> cached_free_;  ///< computed blocks no sequence holds, least recently used first
  double prefix_block_tokens_ = 0.0;      ///< tokens per hashed block (the first prefix given sets it)
  double prefix_block_kv_blocks_ = 0.0;   ///< KV blocks per hashed block
  /// The hashed blocks of each request in the engine (slot 0 unused: none), and the free slots.
  std::vector<std::vector<std::uint64_t>> prefix_lists_{1};
  std::vector<std::uint32_t> free_prefix_lists_;
};

}  // namespace slicewise::sim
