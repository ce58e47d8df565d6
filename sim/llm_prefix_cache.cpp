// LlmEngine (llm_engine.hpp): its prefix cache, as vLLM's: a prompt's blocks are keyed by their
// hashes (a trace's hash_ids); a block no sequence holds stays cached until the KV cache needs its
// room (the one freed longest ago goes first), and a new prompt reuses the leading blocks already
// computed.
#include <algorithm>

#include "sim/llm_engine.hpp"

namespace slicewise::sim {

LlmEngine::PrefixFit LlmEngine::prefix_fit(const Waiting& w) const {
  PrefixFit fit;
  bool leading = true;
  for (const std::uint64_t hash : hashes_of(w.prefix)) {
    const auto it = prefix_blocks_.find(hash);
    const bool held = it != prefix_blocks_.end() && it->second.refs > 0;
    leading = leading && it != prefix_blocks_.end() && it->second.computed;
    if (leading) fit.cached_tokens += prefix_block_tokens_;
    if (!held) fit.new_blocks += prefix_block_kv_blocks_;
  }
  // The last prompt token is always computed: its logits give the first output token.
  fit.cached_tokens = std::min(fit.cached_tokens, w.prompt - 1.0);
  return fit;
}

void LlmEngine::hold_prefix(const Sequence& s) {
  for (const std::uint64_t hash : hashes_of(s.prefix)) {
    PrefixBlock& block = prefix_blocks_[hash];
    if (block.refs++ == 0 && block.computed) cached_free_.erase(block.free_at);
  }
}

double LlmEngine::drop_prefix(const Sequence& s) {
  // Tail first, as vLLM frees a request's blocks: the free cache then gives up its tails first.
  double freed = 0.0;
  const auto hashes = hashes_of(s.prefix);
  for (std::size_t i = hashes.size(); i-- > 0;) {
    const std::uint64_t hash = hashes[i];
    const auto it = prefix_blocks_.find(hash);
    if (--it->second.refs > 0) continue;
    freed += prefix_block_kv_blocks_;
    if (it->second.computed) {
      it->second.free_at = cached_free_.insert(cached_free_.end(), hash);
    } else {
      prefix_blocks_.erase(it);
    }
  }
  return freed;
}

void LlmEngine::evict_cached() {
  const double room = kv_room_tokens();
  const double tokens_each = prefix_block_kv_blocks_ * config_.block_size;
  while (!cached_free_.empty() && static_cast<double>(cached_free_.size()) * tokens_each > room) {
    prefix_blocks_.erase(cached_free_.front());
    cached_free_.pop_front();
  }
}

void LlmEngine::forget_prefix_list(std::uint32_t prefix) {
  if (prefix == 0) return;
  prefix_lists_[prefix].clear();
  free_prefix_lists_.push_back(prefix);
}

}  // namespace slicewise::sim
