// Model catalog (data/models.json): the shapes of the LLMs and encoders a serving engine runs,
// from each model's published config.json. What a serving step reads and computes follows from
// these (models/llm_step.hpp), so a tenant names a model instead of typing memory and demands.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise::models {

enum class ModelArchitecture {
  decoder,  ///< a causal LM: prefill, then one token per decode step, a KV cache per sequence
  encoder,  ///< an embedding / rerank model: one forward pass per request, nothing kept after it
};

struct ModelSpec {
  std::string id;                    ///< "Llama-3.1-8B-Instruct"
  std::vector<std::string> aliases;  ///< Hugging Face repository names ("meta-llama/Llama-3.1-8B-Instruct")
  ModelArchitecture architecture = ModelArchitecture::decoder;
  int num_layers = 0;
  int hidden_size = 0;
  int num_attention_heads = 0;
  int num_kv_heads = 0;  ///< grouped-query attention: key/value heads (= attention heads without GQA)
  int head_dim = 0;
  int intermediate_size = 0;  ///< dense MLP width
  int vocab_size = 0;
  bool tie_word_embeddings = false;
  int max_position_embeddings = 0;  ///< longest context the model takes
  // Mixture of experts (0 for a dense model): each token goes through experts_per_token of the
  // num_experts MLPs of width moe_intermediate_size in every layer.
  int num_experts = 0;
  int experts_per_token = 0;
  int moe_intermediate_size = 0;
  double params_b = 0.0;         ///< parameters, billions, as the model card states
  double active_params_b = 0.0;  ///< per token (MoE); = params_b for a dense model
  std::string source;
  std::string as_of;

  bool moe() const { return num_experts > 0; }
  /// Parameters of one layer's attention projections (q, k, v, o).
  double attention_params_per_layer() const;
  /// Parameters of one expert's MLP (or the dense MLP): gate, up and down for a decoder; up and
  /// down for an encoder.
  double mlp_params(int width) const;
  /// Parameters of every layer's linear projections (all experts of an MoE).
  double layer_params() const;
  /// The same, with only experts_per_token experts per layer: what one token multiplies by.
  double active_layer_params() const;
  /// Parameters of the output projection (the LM head; 0 for an encoder).
  double lm_head_params() const;
  /// Parameters computed from the shapes: layers, embeddings and head (norms left out); within a
  /// few percent of params_b for every catalog entry (ModelCatalog test).
  double computed_params() const;
  /// Key and value elements one token adds to the KV cache, over every layer.
  double kv_elements_per_token() const { return 2.0 * num_layers * num_kv_heads * head_dim; }

  bool operator==(const ModelSpec&) const = default;
};

class ModelCatalog {
 public:
  /// Loads and strictly validates a catalog file. Throws ConfigError listing every problem.
  static ModelCatalog load(const std::filesystem::path& file);
  /// The shipped catalog, data_dir()/models.json, loaded once per process.
  static const ModelCatalog& shipped();

  const std::vector<ModelSpec>& models() const { return models_; }
  /// By id or alias (exact match); nullptr when unknown.
  const ModelSpec* find(std::string_view id_or_alias) const;
  std::vector<std::string> ids() const;
  /// " (did you mean \"Llama-3.1-8B-Instruct\"?)" for a near miss; "" when nothing is close.
  std::string did_you_mean_suffix(std::string_view name) const;
  const std::string& source() const { return source_; }
  const std::string& as_of() const { return as_of_; }

 private:
  std::vector<ModelSpec> models_;
  std::string source_;
  std::string as_of_;
};

}  // namespace slicewise::models
