// Helpers every test folder may use (the repository root is the include root).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>

namespace slicewise::test {

/// what() of the exception `f` throws, or "(no error)" when it returns normally: for asserting a
/// whole error message.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

/// Standard output of a shell command (empty when it fails): for tests that read a file back with
/// an independent tool (pdftotext, unzip, python3-openpyxl).
inline std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

/// True when `name` is a program on PATH.
inline bool have_tool(const std::string& name) {
  return std::system(("command -v " + name + " > /dev/null 2>&1").c_str()) == 0;
}

/// `p` in single quotes, for a shell command line (the tests' paths hold no quote).
inline std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace slicewise::test
