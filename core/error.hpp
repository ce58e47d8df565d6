// Error types thrown by the slicewise libraries. Libraries never print or exit; only the two
// main()s catch these, print what() to stderr and choose the exit code (CONTRIBUTING.md, "House rules").
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"

namespace slicewise {

/// Base of every error slicewise throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad user input in a configuration document (scenario, catalog, price table, profile).
/// Carries every problem found, each with its file, position and JSON pointer; what() lists
/// them one per line in the order they were found.
class ConfigError : public Error {
 public:
  explicit ConfigError(std::vector<Diagnostic> diagnostics);
  ConfigError(std::string file, std::string pointer, std::string message);

  /// The individual problems (at least one).
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

/// A malformed trace row or trace file: `file:line: column: problem`. Line 0 means the file as a
/// whole (`file: problem`); in a JSON-array trace the column is the entry's JSON pointer.
class TraceError : public Error {
 public:
  TraceError(std::string file, long line, const std::string& column, const std::string& message);
  const std::string& file() const { return file_; }
  long line() const { return line_; }

 private:
  std::string file_;
  long line_;
};

/// A fit that could not produce usable parameters, or a bad measurement set.
class CalibrationError : public Error {
 public:
  using Error::Error;
};

/// A broken internal invariant: a bug in slicewise, never a user mistake.
class InternalError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void throw_internal_error(const char* file, int line, const std::string& message);

}  // namespace slicewise

/// Checks an internal invariant; throws slicewise::InternalError naming the source location.
#define SW_CHECK(cond, msg)                                                                                    \
  do {                                                                                                         \
    if (!(cond))                                                                                               \
      ::slicewise::throw_internal_error(__FILE__, __LINE__, std::string("check failed: " #cond ": ") + (msg)); \
  } while (0)
