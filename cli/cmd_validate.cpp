// `slicewise validate FILE...`: load each scenario strictly and summarise it.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "scenario/json_io.hpp"

namespace slicewise::cli {

CLI::App* setup_validate(CLI::App& app, ValidateOptions& options) {
  auto* sub = app.add_subcommand("validate", "Check scenario files strictly; report every problem at once");
  sub->add_option("files", options.files, "Scenario JSON files")->required();
  return sub;
}

namespace {
std::string summary(const scenario::Scenario& s) {
  std::string text = std::to_string(s.tenants.size()) + (s.tenants.size() == 1 ? " tenant, " : " tenants, ") +
                     std::to_string(s.strategies.size()) + (s.strategies.size() == 1 ? " strategy (" : " strategies (");
  for (std::size_t i = 0; i < s.strategies.size(); ++i) {
    text += (i ? ", " : "") + s.strategies[i].name;
  }
  text += "); fleet ";
  for (std::size_t i = 0; i < s.fleet.size(); ++i) {
    const auto& entry = s.fleet[i];
    text += (i ? " + " : "") + std::to_string(entry.count) + " x " +
            (entry.instance_type.empty() ? entry.gpu : entry.instance_type + " (" + entry.gpu + ")");
  }
  return text;
}
}  // namespace

int run_validate(const ValidateOptions& options, Io io) {
  int exit_code = 0;
  for (const auto& file : options.files) {
    try {
      const auto scenario = scenario::load_scenario(file);
      io.out << file << ": ok: " << summary(scenario) << "\n";
    } catch (const ConfigError& e) {
      io.err << e.what() << "\n";
      exit_code = 1;
    }
  }
  return exit_code;
}

}  // namespace slicewise::cli
