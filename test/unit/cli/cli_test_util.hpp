// The command line run in-process with its outputs captured, for the CLI tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace slicewise::cli::test {

/// Exit code and everything written to standard output and error.
struct CliRun {
  int code;
  std::string out;
  std::string err;
};

inline CliRun run(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace slicewise::cli::test
