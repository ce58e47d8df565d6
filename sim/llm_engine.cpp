// One LLM serving engine: continuous batching, chunked prefill or prefill first, a paged KV cache
// (its prefix cache is llm_prefix_cache.cpp's).
#include "sim/llm_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "models/gpu_catalog.hpp"

namespace slicewise::sim {

namespace {
/// Relative tolerance of "due": an event computed for step n fires within n × 1e-9 of it.
constexpr double kDueTolerance = 1e-9;
}  // namespace

LlmEngine::LlmEngine(const models::StepModel& step, const EngineConfig& config) : model_(&step), config_(config) {}

double LlmEngine::blocks_for(double tokens) const { return std::ceil(tokens / config_.block_size - 1e-9); }

double LlmEngine::tokens_of(const Sequence& s) const {
  return s.decoding ? s.prompt + (decode_clock_ - s.decode_from) : s.prefilled;
}

EngineConfig engine_config(const scenario::EngineOnDevice& on) {
  EngineConfig c;
  c.policy = on.chunked_prefill ? BatchPolicy::chunked_prefill : BatchPolicy::prefill_first;
  c.max_num_seqs = on.max_num_seqs;
  c.max_batched_tokens = on.max_batched_tokens;
  c.block_size = on.block_size;
  c.kv_blocks = std::isfinite(on.kv_capacity_tokens) ? std::floor(on.kv_capacity_tokens / on.block_size)
                                                     : std::numeric_limits<double>::max();
  c.max_model_len = on.max_model_len;
  c.max_input_len = on.max_input_len;
  c.reserve_whole_request = !on.chunked_prefill;
  c.prefix_caching = on.prefix_caching;
  return c;
}

models::StepModel step_model_for(const scenario::Workload& workload, const std::string& gpu_id,
                                 const models::StepDevice& device) {
  const auto& model = scenario::model_of(workload);
  const auto* gpu = models::GpuCatalog::shipped().find(gpu_id);
  const models::Parallelism parallelism{workload.engine->tensor_parallel, gpu ? gpu->interconnect_gbps : 0.0};
  return models::StepModel(model, scenario::weight_bytes_per_param(workload), scenario::kv_bytes_per_element(workload),
                           device, models::h200_step_fit(), models::default_step_overhead_s(model), parallelism);
}

bool LlmEngine::arrive(std::size_t request, double prompt_tokens, double output_tokens, std::vector<Outcome>& out,
                       PromptPrefix prefix) {
  const double prompt = std::max(1.0, prompt_tokens);
  const double output = std::max(0.0, output_tokens);
  const double whole = config_.reserve_whole_request ? prompt + output + 1.0 : prompt + 1.0;
  if (prompt + output > config_.max_model_len || prompt > config_.max_input_len ||
      blocks_for(whole) > config_.kv_blocks) {
    return false;
  }
  Waiting w{request, prompt, std::max(0.0, output - 1.0), false};
  if (config_.prefix_caching && !prefix.hashes.empty() && prefix.block_tokens > 0.0) {
    if (prefix_block_tokens_ == 0.0) {
      prefix_block_tokens_ = prefix.block_tokens;
      prefix_block_kv_blocks_ = blocks_for(prefix.block_tokens);
    }
    SW_CHECK(prefix.block_tokens == prefix_block_tokens_, "one engine's prompts hash blocks of one size");
    // Its whole blocks only: a last, partial block is its own.
    const auto whole_blocks =
        std::min(prefix.hashes.size(), static_cast<std::size_t>(std::floor(prompt / prefix_block_tokens_)));
    if (whole_blocks > 0) {
      if (free_prefix_lists_.empty()) {
        w.prefix = static_cast<std::uint32_t>(prefix_lists_.size());
        prefix_lists_.emplace_back();
      } else {
        w.prefix = free_prefix_lists_.back();
        free_prefix_lists_.pop_back();
      }
      prefix_lists_[w.prefix].assign(prefix.hashes.begin(),
                                     prefix.hashes.begin() + static_cast<std::ptrdiff_t>(whole_blocks));
      w.shared_tokens = static_cast<double>(whole_blocks) * prefix_block_tokens_;
    }
  }
  waiting_.push_back(w);
  compose(out);
  return true;
}

double LlmEngine::duty() const {
  const double total = step_.total_s();
  return total > 0.0 ? step_.gpu_s / total : 1.0;
}

void LlmEngine::release(const Sequence& s) {  // whole blocks: exact
  blocks_used_ -= s.blocks + (s.prefix != 0 ? drop_prefix(s) : 0.0);
}

void LlmEngine::forget_decoding(const Sequence& s) {
  num_decoding_ -= 1.0;
  decode_context_ -= tokens_of(s);
  decode_blocks_ -= s.blocks;
  decode_shared_ -= s.shared_tokens;
}

void LlmEngine::admit(double own, const PrefixFit& fit, double chunk, std::vector<Outcome>& out) {
  const Waiting& w = waiting_.front();
  Sequence s{w.request, w.prompt, w.output};
  s.emitted = w.emitted;
  s.blocks = own;
  s.prefilled = fit.cached_tokens;
  s.chunk = chunk;
  s.prefix = w.prefix;
  s.shared_tokens = w.shared_tokens;
  waiting_.pop_front();
  if (s.prefix != 0) hold_prefix(s);
  blocks_used_ += own + fit.new_blocks;
  if (s.prefix != 0) evict_cached();
  out.push_back({Outcome::admitted, s.request, fit.cached_tokens});
  running_.push_back(s);
  ++num_prefilling_;
}

void LlmEngine::admit_chunked(double& budget, std::vector<Outcome>& out) {
  while (!waiting_.empty() && budget > 0.0 && running_.size() < static_cast<std::size_t>(config_.max_num_seqs)) {
    const Waiting& w = waiting_.front();
    if (w.prefix != 0) evict_cached();  // what the decodes grew into is no longer cached
    const PrefixFit fit = prefix_fit(w);
    const double own = blocks_for(w.prompt + 1.0 - w.shared_tokens);
    const double need = own + fit.new_blocks;
    // Its prompt's blocks must be free, with room left for one more token of every decoding
    // sequence (else the pool would be full at once and the newest, this one, preempted again).
    if (blocks_used_ + need > config_.kv_blocks || kv_room_tokens() - need * config_.block_size < num_decoding_) {
      break;
    }
    const double chunk = std::min(w.prompt - fit.cached_tokens, budget);
    budget -= chunk;
    admit(own, fit, chunk, out);
  }
}

void LlmEngine::start_prefill_step(std::vector<Outcome>& out) {
  // TGI: the waiting requests, FIFO, whose prompts fit max_batch_prefill_tokens together (the
  // first always does: longer prompts were refused at arrival) and whose whole requests' blocks
  // are free.
  double budget = config_.max_batched_tokens;
  bool any = false;
  while (!waiting_.empty() && running_.size() < static_cast<std::size_t>(config_.max_num_seqs)) {
    const Waiting& w = waiting_.front();
    if (w.prefix != 0) evict_cached();
    const PrefixFit fit = prefix_fit(w);
    const double own = blocks_for(w.prompt + w.output + 2.0 - w.shared_tokens);
    const double computed = w.prompt - fit.cached_tokens;
    if ((any && computed > budget) || blocks_used_ + own + fit.new_blocks > config_.kv_blocks) break;
    budget -= computed;
    admit(own, fit, computed, out);
    any = true;
  }
  if (any) {
    prefill_step_ = true;
    prefill_step_done_ = 0.0;
  }
}

void LlmEngine::compose(std::vector<Outcome>& out) {
  if (config_.policy == BatchPolicy::chunked_prefill) {
    double budget = config_.max_batched_tokens - num_decoding_;
    for (auto& s : prefilling()) {
      s.chunk = std::min(s.prompt - s.prefilled, std::max(0.0, budget));
      budget -= s.chunk;
    }
    admit_chunked(budget, out);
  } else if (!prefill_step_) {
    start_prefill_step(out);
  }
  price_step();
}

void LlmEngine::price_step() {
  const double per_token = model_->seconds_per_context_token();
  const double per_pair = model_->seconds_per_attention_pair();
  models::StepBatch batch;
  double growth = 0.0;
  const bool prefill_only = config_.policy == BatchPolicy::prefill_first && prefill_step_;
  if (!prefill_only) {
    batch.decode_seqs = num_decoding_;
    batch.decode_context_tokens = decode_context_;
    growth += num_decoding_ * (per_token + per_pair);
  }
  if (prefill_only || config_.policy == BatchPolicy::chunked_prefill) {
    for (const auto& s : prefilling()) {
      if (s.chunk <= 0.0) continue;
      batch.prefill_tokens += s.chunk;
      batch.prefill_seqs += 1.0;
      batch.prefill_context_tokens += s.prefilled + s.chunk;
      batch.prefill_attention_pairs += s.chunk * (s.prefilled + s.chunk / 2.0);
      if (!prefill_only) growth += s.chunk * per_token + s.chunk * s.chunk * per_pair;
    }
  }
  step_ = model_->cost(batch);
  batch_ = batch;
  step_growth_s_ = step_.gpu_s > 0.0 ? growth : 0.0;
}

// Step j of the batch (from 0) takes T0 + β j, so n steps take T0 n + β n (n - 1) / 2: the
// discrete sum at whole n, and additive when the batch is re-priced part-way (T0 + β n after n).
double LlmEngine::solo_time_of(double n) const {
  return (step_.total_s() - step_growth_s_ / 2.0) * n + step_growth_s_ * n * n / 2.0;
}

double LlmEngine::steps_in(double solo_s) const {
  const double a = step_.total_s() - step_growth_s_ / 2.0;
  if (step_.total_s() <= 0.0) return 0.0;
  if (step_growth_s_ <= 0.0) return solo_s / a;
  return 2.0 * solo_s / (a + std::sqrt(a * a + 2.0 * step_growth_s_ * solo_s));
}

void LlmEngine::advance(double solo_s) {
  if (solo_s <= 0.0 || step_.total_s() <= 0.0) return;
  const double n = steps_in(solo_s);
  steps_ += n;
  step_.gpu_s += step_growth_s_ * n;
  if (prefill_step_) {
    prefill_step_done_ += n;
    return;
  }
  if (num_decoding_ > 0.0) {
    decode_clock_ += n;
    decode_context_ += num_decoding_ * n;
  }
  if (config_.policy == BatchPolicy::chunked_prefill) {
    for (auto& s : prefilling()) {
      if (s.chunk > 0.0) s.prefilled = std::min(s.prompt, s.prefilled + s.chunk * n);
    }
  }
}

double LlmEngine::kv_room_tokens() const {
  // Free blocks plus the unused tail of each decoding sequence's last block, as one pool (fluid:
  // a sequence may run out of its tail a few steps before the pool does): Σ over the decoding
  // sequences of (blocks × block size − (tokens − shared tokens + 1)), kept as running sums.
  return (config_.kv_blocks - blocks_used_ + decode_blocks_) * config_.block_size - (decode_context_ - decode_shared_) -
         num_decoding_;
}

double LlmEngine::next_event_s() const {
  if (!has_work() || step_.total_s() <= 0.0) return kNever;
  double n = kNever;
  if (prefill_step_) {
    n = 1.0 - prefill_step_done_;
  } else {
    if (num_decoding_ > 0.0) n = next_finish_ - decode_clock_;
    for (const auto& s : prefilling()) {
      if (s.chunk > 0.0) n = std::min(n, (s.prompt - s.prefilled) / s.chunk);
    }
    if (!config_.reserve_whole_request && num_decoding_ > 0.0) n = std::min(n, kv_room_tokens() / num_decoding_);
  }
  if (n == kNever) return kNever;
  return solo_time_of(std::max(0.0, n));
}

void LlmEngine::finish_prefill(Sequence& s, std::vector<Outcome>& out) {
  s.decoding = true;
  s.chunk = 0.0;
  s.prefilled = s.prompt;
  s.decode_from = decode_clock_;
  s.finish_at = decode_clock_ + s.output;
  if (!s.emitted) out.push_back({Outcome::first_token, s.request});
  s.emitted = true;
  num_decoding_ += 1.0;
  decode_context_ += s.prompt;
  decode_blocks_ += s.blocks;
  decode_shared_ += s.shared_tokens;
  for (const std::uint64_t hash : hashes_of(s.prefix)) prefix_blocks_[hash].computed = true;
  next_finish_ = std::min(next_finish_, s.finish_at);
}

void LlmEngine::preempt_newest(std::vector<Outcome>& out) {
  // vLLM V1: the newest running request gives its blocks back and starts over (recompute), first
  // in line; the tokens it generated are prompt tokens then.
  Sequence s = running_.back();
  running_.pop_back();
  Waiting w{s.request, s.prompt, s.output, s.emitted, s.prefix, s.shared_tokens};
  if (!s.decoding) {
    --num_prefilling_;
  } else {
    const double generated = decode_clock_ - s.decode_from;
    forget_decoding(s);
    w.prompt = s.prompt + generated;
    w.output = std::max(0.0, s.finish_at - decode_clock_ - 1.0);
    if (s.finish_at <= next_finish_) recompute_next_finish();
  }
  release(s);
  waiting_.push_front(w);
  ++preemptions_;
  out.push_back({Outcome::preempted, s.request});
}

void LlmEngine::finish_due_prefills(double tolerance, std::vector<Outcome>& out) {
  auto suffix = prefilling();
  if (suffix.empty()) return;
  if (prefill_step_) {
    if (prefill_step_done_ < 1.0 - tolerance) return;
    prefill_step_ = false;
    for (auto& s : suffix) finish_prefill(s, out);
  } else {
    for (auto& s : suffix) {
      if (s.chunk > 0.0 && s.prompt - s.prefilled <= s.chunk * tolerance) finish_prefill(s, out);
    }
  }
  // The running sequences stay decoding first, then prefilling, each in admission order.
  const auto first = running_.begin() + static_cast<std::ptrdiff_t>(running_.size() - suffix.size());
  std::stable_partition(first, running_.end(), [](const Sequence& s) { return s.decoding; });
  num_prefilling_ =
      static_cast<std::size_t>(std::count_if(first, running_.end(), [](const Sequence& s) { return !s.decoding; }));
}

void LlmEngine::finish_due_sequences(double tolerance, std::vector<Outcome>& out) {
  if (num_decoding_ <= 0.0 || next_finish_ - decode_clock_ > tolerance) return;
  // In admission order.
  std::erase_if(running_, [&](const Sequence& s) {
    if (!s.decoding || s.finish_at - decode_clock_ > tolerance) return false;
    forget_decoding(s);
    release(s);
    forget_prefix_list(s.prefix);
    out.push_back({Outcome::finished, s.request});
    return true;
  });
  if (num_decoding_ < 0.5) {
    num_decoding_ = 0.0;
    decode_context_ = 0.0;
    decode_blocks_ = 0.0;
    decode_shared_ = 0.0;
  }
  recompute_next_finish();
}

void LlmEngine::recompute_next_finish() {
  next_finish_ = kNever;
  for (const auto& s : running_) {
    if (s.decoding) next_finish_ = std::min(next_finish_, s.finish_at);
  }
}

void LlmEngine::relieve_kv_pressure(double tolerance, std::vector<Outcome>& out) {
  // The decoding sequences grow into their last blocks and then into the free ones, as one pool;
  // while it has no room for their next tokens, the newest sequence is preempted.
  while (!running_.empty() && num_decoding_ > 0.0 && kv_room_tokens() <= tolerance * config_.block_size) {
    preempt_newest(out);
  }
}

bool LlmEngine::complete_due(std::vector<Outcome>& out) {
  if (running_.empty() && waiting_.empty()) return false;
  const std::size_t before = out.size();
  const double tolerance = kDueTolerance * std::max(1.0, steps_);
  finish_due_prefills(tolerance, out);
  finish_due_sequences(tolerance, out);
  if (!config_.reserve_whole_request && !prefill_step_) relieve_kv_pressure(tolerance, out);
  compose(out);
  return out.size() != before;
}

void LlmEngine::drop_waiting(std::span<const std::size_t> requests) {
  std::size_t next = 0;
  const auto kept = std::remove_if(waiting_.begin(), waiting_.end(), [&](const Waiting& w) {
    if (next == requests.size() || w.request != requests[next]) return false;
    ++next;
    forget_prefix_list(w.prefix);
    return true;
  });
  SW_CHECK(next == requests.size(), "dropped a request that does not wait, or out of queue order");
  waiting_.erase(kept, waiting_.end());
}

std::vector<std::size_t> LlmEngine::take_all() {
  std::vector<std::size_t> taken;
  taken.reserve(num_in_system());
  for (const auto& s : running_) taken.push_back(s.request);
  for (const auto& w : waiting_) taken.push_back(w.request);
  running_.clear();
  waiting_.clear();
  num_prefilling_ = 0;
  next_finish_ = kNever;
  blocks_used_ = 0.0;
  num_decoding_ = 0.0;
  decode_context_ = 0.0;
  decode_blocks_ = 0.0;
  decode_shared_ = 0.0;
  prefix_blocks_.clear();  // the device went down: its KV cache with it
  cached_free_.clear();
  prefix_lists_.resize(1);
  free_prefix_lists_.clear();
  prefill_step_ = false;
  price_step();
  return taken;
}

double LlmEngine::solo_ttft_s(double prompt_tokens) const {
  // Alone: the prompt in chunks of the step budget (prefill first: one step), each chunk's
  // attention over the prefix before it.
  const double prompt = std::max(1.0, prompt_tokens);
  const double chunk_max = config_.policy == BatchPolicy::chunked_prefill ? config_.max_batched_tokens : prompt;
  double done = 0.0;
  double total = 0.0;
  while (done < prompt) {
    const double chunk = std::min(chunk_max, prompt - done);
    models::StepBatch batch;
    batch.prefill_tokens = chunk;
    batch.prefill_seqs = 1.0;
    batch.prefill_context_tokens = done + chunk;
    batch.prefill_attention_pairs = chunk * (done + chunk / 2.0);
    total += model_->cost(batch).total_s();
    done += chunk;
  }
  return total;
}

double LlmEngine::solo_latency_s(double prompt_tokens, double output_tokens) const {
  const double prompt = std::max(1.0, prompt_tokens);
  const double decode_steps = std::max(0.0, output_tokens - 1.0);
  models::StepBatch batch;
  batch.decode_seqs = 1.0;
  batch.decode_context_tokens = prompt;
  const double t0 = model_->cost(batch).total_s();
  const double growth = model_->seconds_per_context_token() + model_->seconds_per_attention_pair();
  return solo_ttft_s(prompt) + t0 * decode_steps + growth * decode_steps * (decode_steps - 1.0) / 2.0;
}

}  // namespace slicewise::sim
