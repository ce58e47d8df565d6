// The step roofline: closed forms with simple constants, and the fitted constants against the
// H200 step measurements they were fitted to (data/measurements/h200-llm-step-physics.csv).
#include "models/llm_step.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::models {
namespace {

/// Full bandwidth and compute, a hard knee, no kernel floor: the bare roofline.
StepConstants bare_roofline() {
  StepConstants c;
  c.bandwidth_efficiency = c.compute_efficiency = c.attention_bandwidth_efficiency = 1.0;
  c.sharpness = 200.0;
  c.attention_kernel_s = 0.0;
  return c;
}

const ModelSpec& llama8b() { return *ModelCatalog::shipped().find("Llama-3.1-8B-Instruct"); }

constexpr StepDevice kH100{989.0, 3350.0};

TEST(StepModel, ADecodeStepIsTheRooflineOfTheWeightsAndKvBytes) {
  const StepModel step(llama8b(), 2.0, 2.0, kH100, bare_roofline(), 0.0);
  // Weights: 32 layers (6,979,321,856) + LM head (128,256 x 4,096), 2 bytes each.
  const double weights = (6979321856.0 + 128256.0 * 4096.0) * 2.0;
  EXPECT_DOUBLE_EQ(step.weight_bytes(), (6979321856.0 + 2 * 128256.0 * 4096.0) * 2.0);
  const double kv_per_token = 65536.0 * 2.0;
  const double attention_flops_per_token = 4.0 * 32 * 32 * 128;
  for (const double batch : {1.0, 128.0}) {
    SCOPED_TRACE(batch);
    const double context = batch * 1000.0;
    const StepCost cost = step.cost(StepBatch{batch, context, 0.0, 0.0, 0.0, 0.0});
    const double expected = (weights + context * kv_per_token) / 3350e9 + context * attention_flops_per_token / 989e12;
    EXPECT_NEAR(cost.gpu_s, expected, 1e-9 * expected);
    // Memory-bound: the step streams at full bandwidth but while attention multiplies.
    EXPECT_NEAR(cost.bw_frac, (weights + context * kv_per_token) / 3350e9 / expected, 1e-12);
    EXPECT_GT(cost.bw_frac, 0.99);
  }
}

TEST(StepModel, APrefillStepIsComputeBound) {
  const StepModel step(llama8b(), 2.0, 2.0, kH100, bare_roofline(), 0.0);
  // 4,096 prompt tokens: 2 x params x tokens + 2 x head x 1 sampled row, attention 4 L H d x pairs.
  const double tokens = 4096.0;
  const double pairs = tokens * tokens / 2.0;
  const StepCost cost = step.cost(StepBatch{0.0, 0.0, tokens, 1.0, tokens, pairs});
  const double flops = 2.0 * (6979321856.0 * tokens + 128256.0 * 4096.0) + 4.0 * 32 * 32 * 128 * pairs;
  const double expected = flops / 989e12 + tokens * 65536.0 * 2.0 / 3350e9;
  EXPECT_NEAR(cost.gpu_s, expected, 1e-6 * expected);
  EXPECT_GT(cost.sm_frac, 0.99);
  EXPECT_LT(cost.bw_frac, 0.1);
}

TEST(StepModel, AnMoeStepReadsOnlyTheExpertsItsTokensTouch) {
  const ModelSpec& mixtral = *ModelCatalog::shipped().find("Mixtral-8x7B-Instruct-v0.1");
  const StepModel step(mixtral, 2.0, 2.0, kH100, bare_roofline(), 0.0);
  const double expert = mixtral.mlp_params(mixtral.moe_intermediate_size);
  const double all = (mixtral.layer_params() + mixtral.lm_head_params()) * 2.0;
  // One token: 2 of 8 experts in each layer; many tokens: all of them.
  EXPECT_NEAR(step.weights_read(1.0), all - 32 * 6 * expert * 2.0, 1.0);
  EXPECT_NEAR(step.weights_read(1000.0), all, 1e-6 * all);
}

TEST(StepModel, TensorParallelTwoHalvesTheWeightReadAndAddsTheAllReduces) {
  // Llama-3.1-8B over two H100-SXM (NVLink, 900 GB/s both ways): each GPU reads half the weights
  // and half of each token's KV, and each of the 32 layers sums its attention and MLP outputs over
  // the pair: 2 x 32 all-reduces of batch x 4,096 x 2 bytes, each GPU sending half at 450 GB/s.
  const StepModel one(llama8b(), 2.0, 2.0, kH100, bare_roofline(), 0.0);
  const StepModel two(llama8b(), 2.0, 2.0, kH100, bare_roofline(), 0.0, Parallelism{2, 900.0});
  EXPECT_DOUBLE_EQ(two.weight_bytes(), one.weight_bytes() / 2.0);
  EXPECT_DOUBLE_EQ(two.kv_bytes_per_token(), one.kv_bytes_per_token() / 2.0);
  for (const double batch : {1.0, 64.0}) {
    SCOPED_TRACE(batch);
    const StepBatch b{batch, batch * 1000.0, 0.0, 0.0, 0.0, 0.0};
    const StepCost solo = one.cost(b);
    const StepCost pair = two.cost(b);
    EXPECT_NEAR(pair.linear_s, solo.linear_s / 2.0, 1e-12);  // memory-bound: half the bytes
    EXPECT_NEAR(pair.attention_s, solo.attention_s / 2.0, 1e-12);
    const double allreduce = 2.0 * 32 * (2.0 * 1 / 2 * batch * 4096 * 2.0 / 450e9 + kAllReduceLatencyS);
    EXPECT_NEAR(pair.allreduce_s, allreduce, 1e-15);
    EXPECT_NEAR(pair.gpu_s, pair.linear_s + pair.attention_s + allreduce, 1e-15);
  }
}

/// The H200 rows: part, batch or tokens, context, milliseconds.
struct Row {
  std::string part;
  double n = 0.0;
  double context = 0.0;
  double ms = 0.0;
};

std::vector<Row> h200_rows() {
  std::ifstream in(std::string(SW_SOURCE_DIR) + "/data/measurements/h200-llm-step-physics.csv");
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::stringstream fields(line);
    std::string part, shape, n, context, ms;
    std::getline(fields, part, ',');
    std::getline(fields, shape, ',');
    std::getline(fields, n, ',');
    std::getline(fields, context, ',');
    std::getline(fields, ms, ',');
    rows.push_back({part, std::stod(n), context.empty() ? 0.0 : std::stod(context), std::stod(ms)});
  }
  return rows;
}

/// Llama-3.1-8B's 32 layers without embeddings or head: what the H200 rows measured.
ModelSpec measured_layers() {
  ModelSpec m = llama8b();
  m.vocab_size = 0;
  return m;
}

TEST(StepModel, TheH200StepMeasurementsComeOutOfTheFittedModel) {
  const ModelSpec layers = measured_layers();
  const StepModel step(layers, 2.0, 2.0, StepDevice{989.0, 4800.0}, h200_step_fit(), 0.0);
  const auto rows = h200_rows();
  ASSERT_EQ(rows.size(), 28u);
  std::vector<double> linear_decode;  // by batch, for the whole decode steps
  double worst_linear = 0.0;
  double worst_step = 0.0;
  std::size_t steps = 0;
  for (const auto& row : rows) {
    SCOPED_TRACE(row.part + " " + std::to_string(row.n) + " " + std::to_string(row.context));
    if (row.part == "linear_decode" || row.part == "linear_prefill") {
      const double predicted = step.cost(StepBatch{row.n, 0.0, 0.0, 0.0, 0.0, 0.0}).linear_s * 1e3;
      worst_linear = std::max(worst_linear, std::abs(predicted / row.ms - 1.0));
      continue;
    }
    // attn_decode: a decode step is its batch's linear layers plus this attention.
    for (const auto& linear : rows) {
      if (linear.part != "linear_decode" || linear.n != row.n) continue;
      const StepCost cost = step.cost(StepBatch{row.n, row.n * row.context, 0.0, 0.0, 0.0, 0.0});
      worst_step = std::max(worst_step, std::abs(cost.gpu_s * 1e3 / (linear.ms + row.ms) - 1.0));
      ++steps;
    }
  }
  EXPECT_EQ(steps, 15u);
  EXPECT_LT(worst_linear, 0.10);  // 8.8 % at batch 256, the knee
  EXPECT_LT(worst_step, 0.06);    // 5.0 % at batch 128 x 8,192 tokens
}

}  // namespace
}  // namespace slicewise::models
