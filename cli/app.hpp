// The `slicewise` command line: subcommands wired over the libraries. main.cpp only forwards here,
// and tests drive it in-process.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace slicewise::cli {

/// Runs the CLI on `args` (without the program name). Output goes to `out`, errors to `err`.
/// Returns the exit code: 0 ok, 1 bad input or failed run, 2 usage error.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// "slicewise 0.1.0 (SimGrid 3.32, Qt 6.4.2)".
std::string version_text();

}  // namespace slicewise::cli
