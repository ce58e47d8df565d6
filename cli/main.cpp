// `slicewise`: the command-line entry point. All logic lives in sw_cli (cli/app.hpp). What it
// writes reaches the terminal through TerminalSafeBuf (cli/terminal_output.hpp): no control
// sequence from an input file, and no stderr line longer than kMaxErrorLineBytes.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/terminal_output.hpp"
#include "core/atomic_output.hpp"

int main(int argc, char** argv) {
  // A command stopped by Ctrl-C or SIGTERM leaves no hidden ".NAME.tmp-" file behind.
  slicewise::remove_temporaries_on_signals();
  slicewise::cli::TerminalSafeBuf out_buf(std::cout.rdbuf(), 0);
  slicewise::cli::TerminalSafeBuf err_buf(std::cerr.rdbuf(), slicewise::cli::kMaxErrorLineBytes);
  std::ostream out(&out_buf);
  std::ostream err(&err_buf);
  err.setf(std::ios::unitbuf);  // as std::cerr: each message goes out whole, at once
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    const int code = slicewise::cli::run_cli(args, out, err);
    out.flush();
    return code;
  } catch (const std::exception& e) {
    err << "slicewise: internal error: " << e.what() << "\n";
    return 1;
  }
}
