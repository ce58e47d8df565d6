// The model catalog: the shipped data/models.json (shapes that add up to each model's stated
// parameter count) and the strict loader's messages.
#include "models/model_catalog.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::models {
namespace {

TEST(ModelCatalog, ShippedShapesAddUpToTheStatedParameterCounts) {
  const auto& catalog = ModelCatalog::shipped();
  ASSERT_GE(catalog.models().size(), 20u);
  for (const auto& m : catalog.models()) {
    SCOPED_TRACE(m.id);
    // Norms and biases are left out: within 2 % of the model card's count.
    EXPECT_NEAR(m.computed_params() / 1e9, m.params_b, 0.02 * m.params_b);
    if (m.moe()) {
      const double embeddings = static_cast<double>(m.vocab_size) * m.hidden_size;
      EXPECT_NEAR((m.active_layer_params() + embeddings + m.lm_head_params()) / 1e9, m.active_params_b,
                  0.03 * m.active_params_b);
    } else {
      EXPECT_EQ(m.active_params_b, m.params_b);
    }
  }
}

TEST(ModelCatalog, Llama8BLayersAreTheMeasured6Point98BillionParameters) {
  const auto* m = ModelCatalog::shipped().find("meta-llama/Llama-3.1-8B-Instruct");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->id, "Llama-3.1-8B-Instruct");
  // q, o: 4096 x 4096; k, v: 4096 x 1024; gate, up, down: 4096 x 14336; 32 layers.
  EXPECT_DOUBLE_EQ(m->layer_params(), 32.0 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336));
  EXPECT_DOUBLE_EQ(m->layer_params(), 6979321856.0);
  // 2 (K, V) x 32 layers x 8 heads x 128: 65,536 elements, 128 KiB a token in bf16.
  EXPECT_DOUBLE_EQ(m->kv_elements_per_token(), 65536.0);
}

TEST(ModelCatalog, CoversTheFamiliesTheScenariosUse) {
  const auto& catalog = ModelCatalog::shipped();
  for (const char* id :
       {"Llama-3.2-1B-Instruct", "Llama-3.1-70B-Instruct", "Qwen2.5-7B-Instruct", "Qwen3-8B", "Qwen3-30B-A3B",
        "Mistral-7B-Instruct-v0.3", "Mixtral-8x7B-Instruct-v0.1", "Phi-3.5-mini-instruct",
        "DeepSeek-R1-Distill-Llama-8B", "DeepSeek-R1-Distill-Qwen-32B", "bge-large-en-v1.5"}) {
    EXPECT_NE(catalog.find(id), nullptr) << id;
  }
  EXPECT_EQ(catalog.find("bge-m3")->architecture, ModelArchitecture::encoder);
  EXPECT_EQ(catalog.did_you_mean_suffix("Llama-3.1-8B-Instruc"), " (did you mean \"Llama-3.1-8B-Instruct\"?)");
}

TEST(ModelCatalog, ABadEntryIsReportedWithItsPointer) {
  const auto file = std::filesystem::temp_directory_path() / "slicewise-model-catalog-test.json";
  {
    std::ofstream out(file);
    out << R"({"schema_version": 1, "source": "test", "as_of": "2026-11-28", "models": [
      {"id": "m", "num_layers": 2, "hidden_size": 64, "num_attention_heads": 6, "num_kv_heads": 4, "head_dim": 16,
       "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 512, "params_b": 0.001,
       "num_experts": 4, "experts_per_token": 8, "moe_intermediate_size": 32, "active_params_b": 0.002,
       "source": "x", "as_of": "2026-11-28", "layers": 3}]})";
  }
  std::string message;
  try {
    ModelCatalog::load(file);
  } catch (const ConfigError& e) {
    message = e.what();
  }
  std::filesystem::remove(file);
  const std::string f = file.string();
  for (const std::string line :
       {": /models/0/experts_per_token: must be at most num_experts (4) (got 8)\n",
        ": /models/0/active_params_b: must be at most params_b (0.001) (got 0.002)\n",
        ": /models/0/num_kv_heads: must divide num_attention_heads (6) (got 4)\n", ": /models/0/layers: unknown key"}) {
    EXPECT_NE(message.find(f + line), std::string::npos) << line << " in\n" << message;
  }
}

}  // namespace
}  // namespace slicewise::models
