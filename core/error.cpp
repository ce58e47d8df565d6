// Error and Diagnostic formatting.
#include "core/error.hpp"

#include <utility>

namespace slicewise {

std::string Diagnostic::format() const {
  std::string out = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  out += ": ";
  if (!pointer.empty()) out += pointer + ": ";
  out += message;
  return out;
}

std::string format_all(const Diagnostics& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  return out;
}

ConfigError::ConfigError(std::vector<Diagnostic> diagnostics)
    : Error(format_all(diagnostics)), diagnostics_(std::move(diagnostics)) {}

ConfigError::ConfigError(std::string file, std::string pointer, std::string message)
    : ConfigError(Diagnostics{Diagnostic{std::move(file), 0, 0, std::move(pointer), std::move(message)}}) {}

TraceError::TraceError(std::string file, long line, std::string column, std::string message)
    : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
            (column.empty() ? "" : column + ": ") + message),
      file_(std::move(file)),
      line_(line) {}

void throw_internal_error(const char* file, int line, const std::string& message) {
  throw InternalError(std::string("internal error at ") + file + ":" + std::to_string(line) + ": " +
                      message);
}

}  // namespace slicewise
