// Model catalog (data/models.json): strict loading, lookup by id or alias, parameter counts.
#include "models/model_catalog.hpp"

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/catalog_fields.hpp"

namespace slicewise::models {

using nlohmann::json;

namespace {

const EnumTable<ModelArchitecture>& architecture_table() {
  static const EnumTable<ModelArchitecture> table = {{"decoder", ModelArchitecture::decoder},
                                                     {"encoder", ModelArchitecture::encoder}};
  return table;
}

/// The mixture-of-experts keys: all three or none, experts_per_token <= num_experts, and an
/// active parameter count below the total.
void read_experts(JsonReader& r, ModelSpec& m) {
  const bool any = r.has("num_experts") || r.has("experts_per_token") || r.has("moe_intermediate_size");
  const bool active_given = r.has("active_params_b");
  if (!any) {
    if (active_given) r.error("active_params_b", "is for mixture-of-experts models (give num_experts too)");
    m.active_params_b = m.params_b;
    return;
  }
  m.num_experts = detail::read_int(r, "num_experts", NumberRange::at_least(2));
  m.experts_per_token = detail::read_int(r, "experts_per_token", NumberRange::at_least(1));
  m.moe_intermediate_size = detail::read_int(r, "moe_intermediate_size", NumberRange::positive());
  m.active_params_b = r.required_number("active_params_b", NumberRange::positive());
  if (m.num_experts > 0 && m.experts_per_token > m.num_experts) {
    r.error("experts_per_token", "must be at most num_experts (" + std::to_string(m.num_experts) + ") (got " +
                                     std::to_string(m.experts_per_token) + ")");
  }
  if (m.active_params_b > m.params_b) {
    r.error("active_params_b", "must be at most params_b (" + format_number(m.params_b) + ") (got " +
                                   format_number(m.active_params_b) + ")");
  }
}

ModelSpec read_model(JsonReader& r, detail::NameRegistry& names) {
  ModelSpec m;
  m.id = detail::read_nonempty_string(r, "id");
  names.claim(m.id, r.pointer("id"));
  m.aliases = detail::read_aliases(r, names);
  m.architecture = r.optional_enum("architecture", ModelArchitecture::decoder, architecture_table());
  m.num_layers = detail::read_int(r, "num_layers", NumberRange::positive());
  m.hidden_size = detail::read_int(r, "hidden_size", NumberRange::positive());
  m.num_attention_heads = detail::read_int(r, "num_attention_heads", NumberRange::positive());
  m.num_kv_heads = detail::read_int(r, "num_kv_heads", NumberRange::positive());
  m.head_dim = detail::read_int(r, "head_dim", NumberRange::positive());
  m.intermediate_size = detail::read_int(r, "intermediate_size", NumberRange::positive());
  m.vocab_size = detail::read_int(r, "vocab_size", NumberRange::positive());
  m.tie_word_embeddings = r.optional_bool("tie_word_embeddings", false);
  m.max_position_embeddings = detail::read_int(r, "max_position_embeddings", NumberRange::positive());
  m.params_b = r.required_number("params_b", NumberRange::positive());
  read_experts(r, m);
  if (m.num_kv_heads > 0 && m.num_attention_heads % m.num_kv_heads != 0) {
    r.error("num_kv_heads", "must divide num_attention_heads (" + std::to_string(m.num_attention_heads) + ") (got " +
                                std::to_string(m.num_kv_heads) + ")");
  }
  m.source = detail::read_nonempty_string(r, "source");
  m.as_of = detail::read_date(r, "as_of");
  r.finish();
  return m;
}

}  // namespace

double ModelSpec::attention_params_per_layer() const {
  const double h = hidden_size;
  const double q = static_cast<double>(num_attention_heads) * head_dim;
  const double kv = static_cast<double>(num_kv_heads) * head_dim;
  return 2.0 * h * q + 2.0 * h * kv;
}

double ModelSpec::mlp_params(int width) const {
  const double matrices = architecture == ModelArchitecture::encoder ? 2.0 : 3.0;
  return matrices * hidden_size * static_cast<double>(width);
}

double ModelSpec::layer_params() const {
  const double mlp =
      moe() ? num_experts * (mlp_params(moe_intermediate_size) + hidden_size) : mlp_params(intermediate_size);
  return num_layers * (attention_params_per_layer() + mlp);
}

double ModelSpec::active_layer_params() const {
  if (!moe()) return layer_params();
  const double mlp =
      experts_per_token * mlp_params(moe_intermediate_size) + static_cast<double>(num_experts) * hidden_size;
  return num_layers * (attention_params_per_layer() + mlp);
}

double ModelSpec::lm_head_params() const {
  return architecture == ModelArchitecture::encoder ? 0.0 : static_cast<double>(vocab_size) * hidden_size;
}

double ModelSpec::computed_params() const {
  const double embeddings = static_cast<double>(vocab_size) * hidden_size;
  const double head = architecture == ModelArchitecture::encoder || tie_word_embeddings ? 0.0 : lm_head_params();
  return layer_params() + embeddings + head;
}

ModelCatalog ModelCatalog::load(const std::filesystem::path& file) {
  const json document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  ModelCatalog catalog;
  JsonReader top(document, "", problems, name);
  top.schema_version(detail::kCatalogSchemaVersion);
  catalog.source_ = detail::read_nonempty_string(top, "source");
  catalog.as_of_ = detail::read_date(top, "as_of");
  top.optional_string("note", "");
  detail::NameRegistry names(problems, name, "model");
  if (const json* models = top.required_array("models")) {
    if (models->empty()) top.error("models", "must list at least one model (got [])");
    for (std::size_t i = 0; i < models->size(); ++i) {
      JsonReader r((*models)[i], "/models/" + std::to_string(i), problems, name);
      catalog.models_.push_back(read_model(r, names));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return catalog;
}

const ModelCatalog& ModelCatalog::shipped() {
  static const ModelCatalog catalog = load(data_dir() / "models.json");
  return catalog;
}

const ModelSpec* ModelCatalog::find(std::string_view id_or_alias) const {
  return detail::find_named(models_, id_or_alias);
}

std::vector<std::string> ModelCatalog::ids() const { return detail::ids_of(models_); }

std::string ModelCatalog::did_you_mean_suffix(std::string_view name) const {
  std::vector<KnownName> known;
  known.reserve(models_.size());
  for (const auto& model : models_) known.push_back(KnownName{model.id, model.aliases});
  return suggestion_suffix(suggestions(name, known));
}

}  // namespace slicewise::models
