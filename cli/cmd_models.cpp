// `slicewise models`: the model catalog an LLM tenant names its model from, as a table (or JSON).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/json_reader.hpp"
#include "models/model_catalog.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

CLI::App* setup_models(CLI::App& app, ModelsOptions& options) {
  auto* sub = app.add_subcommand(
      "models",
      "List the model catalog an LLM tenant's llm.model names (layers, heads, parameters, KV bytes per token)");
  sub->add_flag("--json", options.json, "Print JSON instead of a table");
  return sub;
}

namespace {
std::string architecture_name(models::ModelArchitecture a) {
  return a == models::ModelArchitecture::encoder ? "encoder" : "decoder";
}
}  // namespace

int run_models(const ModelsOptions& options, Io io) {
  const auto& catalog = models::ModelCatalog::shipped();
  if (options.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& m : catalog.models()) {
      out.push_back({{"id", m.id},
                     {"aliases", m.aliases},
                     {"architecture", architecture_name(m.architecture)},
                     {"num_layers", m.num_layers},
                     {"hidden_size", m.hidden_size},
                     {"num_attention_heads", m.num_attention_heads},
                     {"num_kv_heads", m.num_kv_heads},
                     {"head_dim", m.head_dim},
                     {"params_b", m.params_b},
                     {"active_params_b", m.active_params_b},
                     {"max_position_embeddings", m.max_position_embeddings},
                     {"kv_bytes_per_token_bf16", m.kv_elements_per_token() * 2.0},
                     {"source", m.source},
                     {"as_of", m.as_of}});
    }
    io.out << out.dump(2) << "\n";
    return 0;
  }
  using report::Align;
  report::TextTable table({{"id"},
                           {"kind"},
                           {"layers", Align::right},
                           {"hidden", Align::right},
                           {"heads q/kv", Align::right},
                           {"params B", Align::right},
                           {"active B", Align::right},
                           {"KiB/token (bf16)", Align::right},
                           {"max context", Align::right}});
  for (const auto& m : catalog.models()) {
    const bool decoder = m.architecture == models::ModelArchitecture::decoder;
    table.add_row({m.id, architecture_name(m.architecture), std::to_string(m.num_layers), std::to_string(m.hidden_size),
                   std::to_string(m.num_attention_heads) + "/" + std::to_string(m.num_kv_heads),
                   format_number(m.params_b), format_number(m.active_params_b),
                   decoder ? format_number(m.kv_elements_per_token() * 2.0 / 1024.0) : "-",
                   std::to_string(m.max_position_embeddings)});
  }
  io.out << table.to_text();
  io.out << "\nSource: " << catalog.source() << " (as of " << catalog.as_of()
         << "). A tenant names a model by its id or its Hugging Face name (an alias).\n";
  return 0;
}

}  // namespace slicewise::cli
