// `slicewise strategies [KIND]`: the sharing strategies and the keys each reads, as
// scenario/strategy_params.cpp declares them; `--markdown` prints docs/scenario-format.md's tables
// of them, `--example` a scenario that sets every key of every kind.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::cli {

CLI::App* setup_strategies(CLI::App& app, StrategiesOptions& options) {
  auto* sub = app.add_subcommand("strategies", "List the sharing strategies and the scenario keys each reads");
  sub->add_option("kind", options.kind, "A strategy kind: its keys' types, defaults, allowed values and meaning");
  auto* markdown =
      sub->add_flag("--markdown", options.markdown, "Print the keys as docs/scenario-format.md's Markdown tables");
  auto* example = sub->add_flag("--example", options.example,
                                "Print a scenario with one strategy of each kind that sets every key it reads");
  markdown->excludes(example);
  return sub;
}

namespace {

using models::StrategyKind;
using scenario::ParamDecl;

/// The keys `kind` reads by `table` (as the reader asks), in declaration order.
template <class Owner>
std::vector<const ParamDecl<Owner>*> keys_of(const std::vector<ParamDecl<Owner>>& params, StrategyKind kind,
                                             const scenario::KeyKinds<StrategyKind>& table) {
  std::vector<const ParamDecl<Owner>*> read;
  for (const auto& param : params) {
    if (scenario::uses(table, param.key, kind)) read.push_back(&param);
  }
  return read;
}

template <class Owner>
std::string key_list(const std::vector<const ParamDecl<Owner>*>& params) {
  std::vector<std::string> keys;
  keys.reserve(params.size());
  for (const auto* param : params) keys.push_back(param->key);
  return keys.empty() ? "-" : join(keys, ", ");
}

std::vector<std::string> kind_names(const std::vector<StrategyKind>& kinds) {
  std::vector<std::string> names;
  names.reserve(kinds.size());
  for (const auto kind : kinds) names.push_back(models::to_string(kind));
  return names;
}

/// `text` in lines of at most `width` characters after `indent`, broken at spaces.
std::string wrapped(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

/// One key as `slicewise strategies KIND` describes it.
template <class Owner>
std::string key_text(const ParamDecl<Owner>& param) {
  std::string head = param.key + ": " + scenario::type_name(param.type);
  if (!param.unit.empty()) head += " (" + param.unit + ")";
  if (!param.default_text.empty()) head += ", default " + param.default_text;
  if (const auto allowed = param.allowed(); !allowed.empty()) head += "; allowed " + allowed;
  return scenario::plain_help(head) + "\n" + wrapped(scenario::plain_help(param.help), 96, "    ");
}

int list_kinds(Io io) {
  report::TextTable table({{"kind"}, {"keys"}, {"per tenant"}, {"isolation"}});
  for (const auto* policy : scenario::strategy_policies()) {
    const auto kind = policy->kind();
    table.add_row({models::to_string(kind),
                   key_list(keys_of(scenario::strategy_params(), kind, scenario::strategy_keys())),
                   key_list(keys_of(scenario::tenant_params(), kind, scenario::tenant_setting_keys())),
                   models::to_string(policy->isolation())});
  }
  io.out << table.to_text()
         << "\nEvery kind also takes name, placement, sizing, tenants and sidecars (docs/scenario-format.md).\n"
            "`slicewise strategies KIND` describes a kind's keys.\n";
  return 0;
}

int describe_kind(const scenario::StrategyPolicy& policy, Io io) {
  const auto kind = policy.kind();
  io.out << models::to_string(kind) << ": " << policy.summary() << "\n";
  const auto keys = keys_of(scenario::strategy_params(), kind, scenario::strategy_keys());
  const auto settings = keys_of(scenario::tenant_params(), kind, scenario::tenant_setting_keys());
  if (keys.empty() && settings.empty()) io.out << "\nIt takes only the keys every kind takes.\n";
  if (!keys.empty()) io.out << "\nKeys:\n";
  for (const auto* param : keys) io.out << key_text(*param);
  if (!settings.empty()) io.out << "\nPer tenant, in \"tenants\": {\"<tenant name>\": {...}}:\n";
  for (const auto* param : settings) io.out << key_text(*param);
  return 0;
}

/// The table of the kind-specific keys: a column per kind that reads any.
std::string strategy_keys_markdown() {
  std::vector<report::Column> columns = {{"key"}, {"type"}, {"default"}, {"allowed"}};
  std::vector<StrategyKind> kinds;
  for (const auto* policy : scenario::strategy_policies()) {
    if (policy->strategy_keys().empty()) continue;
    kinds.push_back(policy->kind());
    columns.push_back({models::to_string(policy->kind())});
  }
  columns.push_back({"meaning"});
  report::TextTable table(std::move(columns));
  for (const auto& param : scenario::strategy_params()) {
    std::vector<std::string> row = {"`" + param.key + "`",
                                    scenario::type_name(param.type) + (param.unit.empty() ? "" : ", " + param.unit),
                                    param.default_text, param.allowed()};
    const auto reading = scenario::kinds_reading_strategy_key(param.key);
    for (const auto kind : kinds) {
      row.emplace_back(std::find(reading.begin(), reading.end(), kind) != reading.end() ? "✓" : "");
    }
    row.push_back(param.help);
    table.add_row(std::move(row));
  }
  return table.to_markdown();
}

std::string tenant_keys_markdown() {
  report::TextTable table({{"key"}, {"type"}, {"default"}, {"allowed"}, {"kinds"}, {"meaning"}});
  for (const auto& param : scenario::tenant_params()) {
    table.add_row({"`" + param.key + "`",
                   scenario::type_name(param.type) + (param.unit.empty() ? "" : ", " + param.unit), param.default_text,
                   param.allowed(), join(kind_names(scenario::kinds_reading_tenant_key(param.key)), ", "), param.help});
  }
  return table.to_markdown();
}

int print_markdown(Io io) {
  std::vector<std::string> only_common;
  for (const auto* policy : scenario::strategy_policies()) {
    if (policy->strategy_keys().empty()) only_common.push_back("`" + models::to_string(policy->kind()) + "`");
  }
  io.out << "Keys that only some kinds use; any other kind rejects them. Constants left unset take the\n"
            "calibration profile's values (docs/model.md).\n\n"
         << strategy_keys_markdown() << "\n"
         << join(only_common, ", ") << " takes only the common keys.\n\n"
         << "### Per-tenant settings\n\n"
            "`\"tenants\": {\"<tenant name>\": {...}}` overrides the strategy for one tenant; the name must be one\n"
            "of the scenario's tenants.\n\n"
         << tenant_keys_markdown();
  return 0;
}

/// Two small tenants on two H100s, and a strategy of each kind with every key it reads set.
int print_example(Io io) {
  const std::vector<std::string> tenants = {"a", "b"};
  nlohmann::ordered_json scenario = {
      {"schema_version", 1},
      {"name", "every-strategy-key"},
      {"description",
       "One strategy of each kind, each setting every key its kind reads (`slicewise strategies "
       "--example`)."},
      {"seed", 1},
      {"horizon_s", 600},
      {"fleet", {{{"instance_type", "p5.4xlarge"}, {"count", 2}}}}};
  nlohmann::ordered_json tenant_list = nlohmann::ordered_json::array();
  for (const auto& name : tenants) {
    tenant_list.push_back({{"name", name},
                           {"workload",
                            {{"kind", "generic"},
                             {"solo_latency_s", 0.05},
                             {"reference_gpu", "H100-SXM-80GB"},
                             {"gpu_duty_frac", 0.5},
                             {"memory_gib", 8}}},
                           {"load", {{"kind", "poisson"}, {"rate_per_s", 2}}},
                           {"sla", {{"latency_s", 1}}}});
  }
  scenario["tenants"] = tenant_list;
  nlohmann::ordered_json strategies = nlohmann::ordered_json::array();
  for (const auto* policy : scenario::strategy_policies()) {
    strategies.push_back(scenario::example_strategy(policy->kind(), tenants));
  }
  scenario["strategies"] = strategies;
  scenario["pricing"] = {{"table", "aws"}, {"region", "us-east-1"}};
  io.out << scenario.dump(2) << "\n";
  return 0;
}

}  // namespace

int run_strategies(const StrategiesOptions& options, Io io) {
  if (options.markdown) return print_markdown(io);
  if (options.example) return print_example(io);
  if (options.kind.empty()) return list_kinds(io);
  const auto* policy = scenario::policy_named(options.kind);
  if (!policy) {
    const auto names = kind_names([] {
      std::vector<StrategyKind> kinds;
      for (const auto* p : scenario::strategy_policies()) kinds.push_back(p->kind());
      return kinds;
    }());
    throw ConfigError("slicewise strategies", "",
                      "unknown strategy kind " + quoted_excerpt(options.kind) +
                          did_you_mean_suffix(options.kind, names) + "; kinds: " + join(names, ", "));
  }
  return describe_kind(*policy, io);
}

}  // namespace slicewise::cli
