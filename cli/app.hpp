// The `slicewise` command line: subcommands wired over the libraries. main.cpp only forwards here,
// and tests drive it in-process.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class Option;
}

namespace slicewise::cli {

/// Runs the CLI on `args` (without the program name). Output goes to `out`, errors to `err`.
/// Returns the exit code: 0 ok, 1 bad input or failed run, 2 usage error.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// "slicewise 0.1.0 (SimGrid 3.32, Qt 6.4.2)".
std::string version_text();

/// Writes the values `option` allows plainly in --help, after its description: "Progress on stderr
/// (one of: bar, json, none; default: bar on a terminal)", with TEXT as its type. CLI11 2.1 shows
/// its validator instead (`--progress ENUM:value in {bar->1,json->2,none->3} OR {1,2,3}`). Call it
/// after the option's check() or transform(), which go on checking the value; for every option
/// with a fixed set of values (an enum, CLI::IsMember, or one checked by hand).
CLI::Option* plain_choices(CLI::Option* option, const std::vector<std::string>& names,
                           const std::string& default_text = "");
/// An option that must be one of `names` (CLI::IsMember), written plainly: plain_choices().
CLI::Option* one_of(CLI::Option* option, const std::vector<std::string>& names, const std::string& default_text = "");

}  // namespace slicewise::cli
