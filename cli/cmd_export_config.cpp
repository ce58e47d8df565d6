// `slicewise export-config ADVICE|RESULT [--strategy NAME] --out DIR`: the files a platform team
// applies to run a simulated configuration (report/deploy_config.hpp, docs/advisor.md).
#include <filesystem>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "report/deploy_config.hpp"
#include "scenario/result_json.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::cli {

CLI::App* setup_export_config(CLI::App& app, ExportConfigOptions& options) {
  auto* sub = app.add_subcommand(
      "export-config",
      "Write the Kubernetes configs (device plugin, mig-parted, Deployments) for a simulated strategy");
  sub->add_option("input", options.input, "An advise folder (its result.json: the answer) or a result JSON")
      ->required();
  sub->add_option(
      "--strategy", options.strategy,
      "Strategy of the result to export (default: the advice's answer, or the result's only shared strategy)");
  sub->add_option("--out", options.out, "Folder for the files")->required();
  sub->add_option("--namespace", options.namespace_name,
                  "Namespace of the GPU operator's ConfigMaps (default: gpu-operator)");
  return sub;
}

int run_export_config(const ExportConfigOptions& options, Io io) {
  std::filesystem::path input = options.input;
  if (std::filesystem::is_directory(input)) input /= "result.json";
  const auto result = scenario::load_result(input);
  std::string strategy = options.strategy;
  if (strategy.empty()) {
    // An advice's result lists the answer first; a result of several strategies must say which.
    std::vector<std::string> shared;
    for (const auto& s : result.strategies) {
      if (!scenario::is_baseline(s.kind)) shared.push_back(s.name);
    }
    if (std::filesystem::is_directory(options.input) || result.strategies.size() == 1) {
      strategy = result.strategies.front().name;
    } else if (shared.size() == 1) {
      strategy = shared.front();
    } else {
      std::vector<std::string> names;
      for (const auto& s : result.strategies) names.push_back(s.name);
      throw ConfigError("--strategy", "", "the result has several strategies (" + join(names, "|") + "): name one");
    }
  }
  const auto files = report::deploy_configs(result, strategy, options.namespace_name);
  const std::filesystem::path out = options.out;
  if (std::filesystem::exists(out) && !std::filesystem::is_directory(out)) {
    throw ConfigError("--out", "", "is not a folder: " + out.string());
  }
  std::vector<OutputFile> outputs;
  outputs.reserve(files.size());
  for (const auto& file : files) outputs.push_back({out / file.name, file.text, file.name.ends_with(".sh")});
  write_files_atomically(outputs);
  for (const auto& file : files) io.out << "wrote " << (out / file.name).string() << "\n";
  return 0;
}

}  // namespace slicewise::cli
