// The serving engine's scheduling, in closed form: KV admission and preemption, chunked prefill's
// chunks, prefill-first steps, and the fluid step clock against a request alone.
#include "sim/llm_engine.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::sim {
namespace {

const models::ModelSpec& llama8b() { return *models::ModelCatalog::shipped().find("Llama-3.1-8B-Instruct"); }

/// Llama-3.1-8B in bf16 on an H100-SXM with the H200-fitted constants and 1 ms of host time a step.
const models::StepModel& h100_step() {
  static const models::StepModel step(llama8b(), 2.0, 2.0, models::StepDevice{989.0, 3350.0}, models::h200_step_fit(),
                                      1e-3);
  return step;
}

EngineConfig config(double kv_blocks, double budget = 8192, BatchPolicy policy = BatchPolicy::chunked_prefill) {
  EngineConfig c;
  c.policy = policy;
  c.max_num_seqs = 256;
  c.max_batched_tokens = budget;
  c.kv_blocks = kv_blocks;
  c.block_size = 16;
  return c;
}

/// Runs the engine to its next event and completes it; what happened.
std::vector<LlmEngine::Outcome> step_to_next(LlmEngine& engine) {
  std::vector<LlmEngine::Outcome> out;
  engine.advance(engine.next_event_s());
  engine.complete_due(out);
  return out;
}

TEST(LlmEngine, TheKvPoolAdmitsExactlyTheSequencesWhoseBlocksFit) {
  // 40-token prompts hold ceil(41 / 16) = 3 blocks each: 10 blocks take three of them.
  LlmEngine engine(h100_step(), config(10));
  for (std::size_t r = 0; r < 4; ++r) ASSERT_TRUE(engine.arrive(r, 40, 100));
  EXPECT_EQ(engine.num_running(), 3u);
  EXPECT_EQ(engine.num_waiting(), 1u);
  EXPECT_EQ(engine.kv_blocks_used(), 9.0);
  EXPECT_EQ(engine.batch().prefill_tokens, 120.0);
}

TEST(LlmEngine, DecodingPastTheFreeBlocksPreemptsTheNewestSequence) {
  LlmEngine engine(h100_step(), config(10));
  for (std::size_t r = 0; r < 3; ++r) ASSERT_TRUE(engine.arrive(r, 40, 100));
  auto out = step_to_next(engine);  // the three prefills end together: first tokens
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].kind, LlmEngine::Outcome::first_token);
  // Each holds 40 tokens in 3 blocks, 41 with the next: room for 3 x 7 more tokens in their last
  // blocks and 16 in the free one. The pool is full after 37 / 3 steps, and the newest (request 2)
  // gives its blocks back.
  EXPECT_LT(engine.next_event_s(), LlmEngine::kNever);
  out = step_to_next(engine);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, LlmEngine::Outcome::preempted);
  EXPECT_EQ(out[0].request, 2u);
  EXPECT_NEAR(engine.steps(), 1.0 + 37.0 / 3.0, 1e-9);
  EXPECT_EQ(engine.num_preemptions(), 1);
  EXPECT_EQ(engine.num_running(), 2u);
  EXPECT_EQ(engine.num_waiting(), 1u);
}

TEST(LlmEngine, ChunkedPrefillSplitsAPromptIntoTheBudgetLeftByTheDecodes) {
  // One request decoding, then a 1,300-token prompt under a 512-token budget: chunks of 511 (one
  // token goes to the decode) for 1300 / 511 steps.
  LlmEngine engine(h100_step(), config(1000, 512));
  ASSERT_TRUE(engine.arrive(0, 100, 1000));
  step_to_next(engine);
  ASSERT_TRUE(engine.arrive(1, 1300, 10));
  EXPECT_EQ(engine.batch().decode_seqs, 1.0);
  EXPECT_EQ(engine.batch().prefill_tokens, 511.0);
  const double start = engine.steps();
  const auto out = step_to_next(engine);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, LlmEngine::Outcome::first_token);
  EXPECT_EQ(out[0].request, 1u);
  EXPECT_NEAR(engine.steps() - start, 1300.0 / 511.0, 1e-9);
  EXPECT_EQ(engine.batch().prefill_tokens, 0.0);
  EXPECT_EQ(engine.batch().decode_seqs, 2.0);
}

TEST(LlmEngine, ARequestAloneTakesItsSoloLatency) {
  LlmEngine engine(h100_step(), config(1000));
  ASSERT_TRUE(engine.arrive(7, 512, 256));
  double solo = 0.0;
  double ttft = 0.0;
  for (int i = 0; i < 2; ++i) {
    const double dt = engine.next_event_s();
    solo += dt;
    engine.advance(dt);
    std::vector<LlmEngine::Outcome> out;
    engine.complete_due(out);
    ASSERT_EQ(out.size(), 1u);
    if (out[0].kind == LlmEngine::Outcome::first_token) ttft = solo;
  }
  EXPECT_FALSE(engine.has_work());
  EXPECT_NEAR(ttft, engine.solo_ttft_s(512), 1e-12);
  EXPECT_NEAR(solo, engine.solo_latency_s(512, 256), 1e-9 * solo);
  // 255 decode steps: the weights' read (15.0 GB at 0.9045 x 3.35 TB/s = 4.95 ms), 32 attention
  // kernels (0.47 ms), 512-767 tokens of KV (0.02-0.03 ms) and 1 ms on the host.
  EXPECT_NEAR((solo - ttft) / 255.0, 6.45e-3, 0.03e-3);
}

TEST(LlmEngine, RefusesWhatItCanNeverHold) {
  EngineConfig c = config(5000);  // 80,000 tokens of KV
  c.max_model_len = 131072;
  LlmEngine engine(h100_step(), c);
  EXPECT_FALSE(engine.arrive(0, 85000, 100));   // an 85k-token prompt: more blocks than the pool
  EXPECT_FALSE(engine.arrive(1, 131000, 100));  // past max_model_len
  EXPECT_TRUE(engine.arrive(2, 70000, 100));
  EXPECT_EQ(engine.num_in_system(), 1u);
}

TEST(LlmEngine, PrefillFirstPausesTheDecodesForAWholePromptStep) {
  LlmEngine engine(h100_step(), config(1000, 4096, BatchPolicy::prefill_first));
  ASSERT_TRUE(engine.arrive(0, 200, 100));
  EXPECT_EQ(engine.batch().prefill_tokens, 200.0);
  step_to_next(engine);
  EXPECT_EQ(engine.batch().decode_seqs, 1.0);
  ASSERT_TRUE(engine.arrive(1, 300, 100));
  EXPECT_EQ(engine.batch().decode_seqs, 0.0);  // the decode waits for the prefill step
  EXPECT_EQ(engine.batch().prefill_tokens, 300.0);
  const auto out = step_to_next(engine);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].request, 1u);
  EXPECT_EQ(engine.batch().decode_seqs, 2.0);
}

TEST(LlmEngine, AFaultTakesEveryRequestRunningThenWaiting) {
  LlmEngine engine(h100_step(), config(6));
  for (std::size_t r = 0; r < 3; ++r) ASSERT_TRUE(engine.arrive(r, 40, 10));
  EXPECT_EQ(engine.take_all(), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_FALSE(engine.has_work());
  EXPECT_EQ(engine.kv_blocks_used(), 0.0);
  EXPECT_EQ(engine.next_event_s(), LlmEngine::kNever);
}

TEST(LlmEngine, ClientsThatGaveUpLeaveTheQueueAndTheOthersKeepTheirOrder) {
  // 10 blocks hold three 40-token prompts (3 blocks each): requests 3, 4 and 5 wait.
  LlmEngine engine(h100_step(), config(10));
  for (std::size_t r = 0; r < 6; ++r) ASSERT_TRUE(engine.arrive(r, 40, 10));
  ASSERT_EQ(engine.num_waiting(), 3u);
  const std::vector<std::size_t> gone = {3, 5};
  engine.drop_waiting(gone);
  ASSERT_EQ(engine.num_waiting(), 1u);
  EXPECT_EQ(engine.waiting_request(0), 4u);
  EXPECT_EQ(engine.num_running(), 3u);
  EXPECT_EQ(engine.kv_blocks_used(), 9.0);  // the running sequences' blocks are untouched
  EXPECT_EQ(engine.take_all(), (std::vector<std::size_t>{0, 1, 2, 4}));
}

// Prefix caching with hashed blocks of 64 tokens (4 KV blocks of 16): a 200-token prompt has
// ceil(200 / 64) = 4 hashes, of which its 3 whole blocks (192 tokens) can be shared.
EngineConfig caching(double kv_blocks) {
  EngineConfig c = config(kv_blocks);
  c.prefix_caching = true;
  return c;
}

PromptPrefix prefix(const std::vector<std::uint64_t>& hashes) { return PromptPrefix{hashes, 64.0}; }

/// Runs the engine until it has nothing to do; everything that happened.
std::vector<LlmEngine::Outcome> drain(LlmEngine& engine) {
  std::vector<LlmEngine::Outcome> all;
  while (engine.has_work()) {
    const auto out = step_to_next(engine);
    all.insert(all.end(), out.begin(), out.end());
  }
  return all;
}

TEST(LlmEngine, ACachedPrefixIsNotComputedAgain) {
  LlmEngine engine(h100_step(), caching(1000));
  const std::vector<std::uint64_t> first = {1, 2, 3, 4}, second = {1, 2, 9, 10};
  std::vector<LlmEngine::Outcome> out;
  ASSERT_TRUE(engine.arrive(0, 200, 2, out, prefix(first)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cached_tokens, 0.0);
  // Its own block (201 - 192 tokens) and its 3 hashed blocks of 4.
  EXPECT_EQ(engine.kv_blocks_used(), 13.0);
  drain(engine);
  EXPECT_EQ(engine.kv_blocks_used(), 0.0);
  EXPECT_EQ(engine.num_cached_free_blocks(), 3u);  // its whole blocks stay cached in free memory
  // Blocks 1 and 2 lead the next prompt: 128 tokens served from the cache, 72 computed, attending
  // over all 200.
  out.clear();
  ASSERT_TRUE(engine.arrive(1, 200, 2, out, prefix(second)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cached_tokens, 128.0);
  EXPECT_EQ(engine.batch().prefill_tokens, 72.0);
  EXPECT_EQ(engine.batch().prefill_context_tokens, 200.0);
  EXPECT_EQ(engine.batch().prefill_attention_pairs, 72.0 * (128.0 + 36.0));
  EXPECT_EQ(engine.kv_blocks_used(), 13.0);
  EXPECT_EQ(engine.num_cached_free_blocks(), 1u);  // block 3, unused
}

TEST(LlmEngine, SequencesHoldingOnePrefixShareItsBlocks) {
  // Both arrive before either computed the prefix: the second computes it too (no hit) but holds
  // the same blocks, so the pool takes 13 + 1 blocks, not 26.
  LlmEngine engine(h100_step(), caching(1000));
  const std::vector<std::uint64_t> a = {1, 2, 3, 4}, b = {1, 2, 3, 5};
  ASSERT_TRUE(engine.arrive(0, 200, 50, prefix(a)));
  ASSERT_TRUE(engine.arrive(1, 200, 50, prefix(b)));
  EXPECT_EQ(engine.kv_blocks_used(), 14.0);
  EXPECT_EQ(engine.batch().prefill_tokens, 400.0);
  drain(engine);
  EXPECT_EQ(engine.kv_blocks_used(), 0.0);
  EXPECT_EQ(engine.num_cached_free_blocks(), 3u);
}

TEST(LlmEngine, TheFreeCacheGivesUpItsTailBlocksFirstWhenThePoolNeedsTheRoom) {
  // 21 blocks. Request 0 leaves hashed blocks 1, 2, 3 cached (12 KV blocks). Request 2 takes 13
  // blocks, leaving 8 free: room for two hashed blocks, so one goes, the tail (3) first, as vLLM
  // frees a request's blocks in reverse. A later prompt 1, 2, 3 then finds 1 and 2: 128 tokens.
  LlmEngine engine(h100_step(), caching(21));
  const std::vector<std::uint64_t> a = {1, 2, 3, 4}, other = {7, 8, 9, 10};
  ASSERT_TRUE(engine.arrive(0, 200, 2, prefix(a)));
  drain(engine);
  ASSERT_TRUE(engine.arrive(2, 200, 2, prefix(other)));
  EXPECT_EQ(engine.kv_blocks_used(), 13.0);
  EXPECT_EQ(engine.num_cached_free_blocks(), 2u);
  drain(engine);
  EXPECT_EQ(engine.num_cached_free_blocks(), 5u);  // 1, 2 and 7, 8, 9: 20 of the 21 blocks
  std::vector<LlmEngine::Outcome> out;
  ASSERT_TRUE(engine.arrive(3, 200, 2, out, prefix(a)));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cached_tokens, 128.0);
}

TEST(LlmEngine, WithoutPrefixCachingHashesChangeNothing) {
  LlmEngine engine(h100_step(), config(1000));
  const std::vector<std::uint64_t> a = {1, 2, 3, 4};
  ASSERT_TRUE(engine.arrive(0, 200, 2, prefix(a)));
  drain(engine);
  std::vector<LlmEngine::Outcome> out;
  ASSERT_TRUE(engine.arrive(1, 200, 2, out, prefix(a)));
  EXPECT_EQ(out[0].cached_tokens, 0.0);
  EXPECT_EQ(engine.kv_blocks_used(), 13.0);  // ceil(201 / 16)
  EXPECT_EQ(engine.batch().prefill_tokens, 200.0);
}

}  // namespace
}  // namespace slicewise::sim
