// Subcommand table and error handling of the `slicewise` command.
#include "cli/app.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <new>
#include <optional>

#include <CLI/CLI.hpp>
#include <QtGlobal>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "sim/platform.hpp"

namespace slicewise::cli {

namespace {

/// "PATH: REASON" for a filesystem error (the library's "filesystem error: status: REASON [PATH]").
std::string filesystem_message(const std::filesystem::filesystem_error& e) {
  std::string path = e.path1().string();
  if (!e.path2().empty()) path += " -> " + e.path2().string();
  return "slicewise: " + (path.empty() ? std::string() : path + ": ") + e.code().message();
}

/// --help without CLI11's internals: `--jobs N (1-64)` where CLI11 writes `--jobs INT:INT in [1 - 64]`,
/// `--out PATH` for `--out TEXT:FILE`. CLI11 2.1 joins the type and each validator's description
/// with ':'; this keeps the type, a range as "(lo-hi)" and a path or date validator as the type.
class PlainFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (!opt->get_option_text().empty() || opt->get_type_size() == 0) return CLI::Formatter::make_option_opts(opt);
    const std::vector<std::string> parts = CLI::detail::split(opt->get_type_name(), ':');
    static const std::map<std::string, std::string> kTypes = {{"INT", "N"}, {"UINT", "N"}, {"FLOAT", "NUMBER"}};
    std::string type = parts.empty() ? std::string() : parts.front();
    if (const auto it = kTypes.find(type); it != kTypes.end()) type = it->second;
    std::string range;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string& part = parts[i];
      if (part == "FILE" || part == "DIR" || part == "PATH") type = "PATH";
      if (part == "YYYY-MM-DD") type = part;
      const auto open = part.find(" in [");
      const auto close = part.rfind(']');
      if (open != std::string::npos && close != std::string::npos && close > open) {
        std::string bounds = part.substr(open + 5, close - open - 5);
        if (const auto dash = bounds.find(" - "); dash != std::string::npos) bounds.replace(dash, 3, "-");
        range = " (" + bounds + ")";
      }
    }
    std::string text = opt->get_type_name().empty() ? std::string() : " " + type;
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) text += " ...";
    text += range;
    if (opt->get_required()) text += " REQUIRED";
    if (!opt->get_excludes().empty()) {
      text += " Excludes:";
      for (const CLI::Option* other : opt->get_excludes()) text += " " + other->get_name();
    }
    if (!opt->get_needs().empty()) {
      text += " Needs:";
      for (const CLI::Option* other : opt->get_needs()) text += " " + other->get_name();
    }
    return text;
  }
};

/// A subcommand and the function that runs it.
using Command = std::pair<CLI::App*, std::function<int()>>;

/// True, with the message on `err`, when the first argument looks like a command but names none.
bool reject_unknown_command(const std::vector<std::string>& args, const std::vector<Command>& commands,
                            std::ostream& err) {
  if (args.empty() || args[0].empty() || args[0][0] == '-') return false;
  std::vector<std::string> names;
  names.reserve(commands.size());
  for (const auto& [subcommand, handler] : commands) names.push_back(subcommand->get_name());
  if (std::find(names.begin(), names.end(), args[0]) != names.end()) return false;
  err << "slicewise: unknown command \"" << args[0] << "\"; expected " << join(names, "|")
      << did_you_mean_suffix(args[0], names) << "\nRun with --help for more information.\n";
  return true;
}

/// Parses `args` into `app`. Answers --help and --version on `out` and a usage error on `err`,
/// returning the exit code; nullopt when a subcommand is to run.
std::optional<int> parse_arguments(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                   std::ostream& err) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << version_text() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    err << "slicewise: " << e.what() << "\n";
    err << "Run with --help for more information.\n";
    return 2;
  }
  return std::nullopt;
}

/// Runs the parsed subcommand; the errors a user can fix are printed on `err`, exit code 1.
int run_parsed_command(const std::vector<Command>& commands, std::ostream& err) {
  try {
    for (const auto& [subcommand, handler] : commands) {
      if (subcommand->parsed()) return handler();
    }
  } catch (const Error& e) {
    err << e.what() << "\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the user named that the system refuses (a folder one cannot enter, a symlink loop, a
    // name too long): the user's problem to fix, so exit 1 with the path and the reason.
    err << filesystem_message(e) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    err << "slicewise: out of memory (reduce the run: fewer tenants, contexts or series intervals; "
           "docs/scenario-format.md \"The size of a run\")\n";
    return 1;
  }
  return 2;  // unreachable: require_subcommand(1)
}

}  // namespace

CLI::Option* plain_choices(CLI::Option* option, const std::vector<std::string>& names,
                           const std::string& default_text) {
  // --help writes the type name, then ":" and each validator's description that is not empty.
  option->type_name("TEXT");
  try {
    for (int i = 0;; ++i) option->get_validator(i)->description("");
  } catch (const CLI::OptionNotFound&) {
    // past the last validator (CLI11 2.1 does not say how many an option has)
  }
  option->description(option->get_description() + " (one of: " + join(names, ", ") +
                      (default_text.empty() ? std::string() : "; default: " + default_text) + ")");
  return option;
}

namespace {

CLI::Validator choice_of(const std::vector<std::string>& names) {
  // CLI11's own validators word a wrong value as "Check fancy value in {bar->1,...} FAILED"; this
  // one says `unknown "fancy"; expected bar|json|none` (core/spell.hpp unknown_choice).
  return {[names](const std::string& value) {
            return std::find(names.begin(), names.end(), value) != names.end() ? std::string()
                                                                               : unknown_choice(value, names);
          },
          "", "one of"};
}

}  // namespace

CLI::Option* one_of(CLI::Option* option, const std::vector<std::string>& names, const std::string& default_text) {
  return plain_choices(option->check(choice_of(names)), names, default_text);
}

CLI::Option* add_progress_option(CLI::App& sub, ProgressMode& mode, const std::string& description) {
  static const std::map<std::string, ProgressMode> modes = {
      {"bar", ProgressMode::bar}, {"json", ProgressMode::json}, {"none", ProgressMode::none}};
  auto* option = sub.add_option_function<std::string>(
      "--progress", [&mode](const std::string& value) { mode = modes.at(value); }, description);
  // Any case ("JSON"), then checked against the three names.
  option->transform([](std::string value) {
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return value;
  });
  return plain_choices(option->check(choice_of({"bar", "json", "none"})), {"bar", "json", "none"},
                       "bar on a terminal, else none");
}

std::string version_text() {
  return std::string("slicewise ") + SW_VERSION + " (SimGrid " + sim::simgrid_version() + ", Qt " + QT_VERSION_STR +
         ")";
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"slicewise: what happens to my workloads and my bill if we share GPUs this way?", "slicewise"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.fallthrough(false);
  app.formatter(std::make_shared<PlainFormatter>());

  ValidateOptions validate;
  GpusOptions gpus;
  ModelsOptions models;
  StrategiesOptions strategies;
  MigOptions mig;
  PricesOptions prices;
  SimulateOptions simulate;
  AdviseOptions advise;
  ExportConfigOptions export_config;
  RoiOptions roi;
  TraceOptions trace;
  CalibrateOptions calibrate;
  ValidateModelOptions validate_model;
  SweepOptions sweep;
  MergeOptions merge;
  ReportOptions report;
  ProfileOptions profile;
  Io io{out, err};
  // name -> (subcommand, handler): ninja's kTools idea.
  const std::vector<Command> commands = {
      {setup_validate(app, validate), [&] { return run_validate(validate, io); }},
      {setup_simulate(app, simulate), [&] { return run_simulate(simulate, io); }},
      {setup_advise(app, advise), [&] { return run_advise(advise, io); }},
      {setup_export_config(app, export_config), [&] { return run_export_config(export_config, io); }},
      {setup_roi(app, roi), [&] { return run_roi(roi, io); }},
      {setup_gpus(app, gpus), [&] { return run_gpus(gpus, io); }},
      {setup_models(app, models), [&] { return run_models(models, io); }},
      {setup_strategies(app, strategies), [&] { return run_strategies(strategies, io); }},
      {setup_mig(app, mig), [&] { return run_mig(mig, io); }},
      {setup_prices(app, prices), [&] { return run_prices(prices, io); }},
      {setup_trace(app, trace), [&] { return run_trace(trace, io); }},
      {setup_profile(app, profile), [&] { return run_profile(profile, io); }},
      {setup_calibrate(app, calibrate), [&] { return run_calibrate(calibrate, io); }},
      {setup_validate_model(app, validate_model), [&] { return run_validate_model(validate_model, io); }},
      {setup_sweep(app, sweep), [&] { return run_sweep(sweep, io); }},
      {setup_merge(app, merge), [&] { return run_merge(merge, io); }},
      {setup_report(app, report), [&] { return run_report(report, io); }},
  };

  if (reject_unknown_command(args, commands, err)) return 2;
  if (const auto code = parse_arguments(app, args, out, err)) return *code;
  return run_parsed_command(commands, err);
}

}  // namespace slicewise::cli
