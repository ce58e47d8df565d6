// `slicewise`: the command-line entry point. All logic lives in sw_cli (cli/app.hpp).
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return slicewise::cli::run_cli(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "slicewise: internal error: " << e.what() << "\n";
    return 1;
  }
}
