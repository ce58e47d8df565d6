// Error and Diagnostic formatting.
#include "core/error.hpp"

#include <map>
#include <utility>

#include "core/spell.hpp"

namespace slicewise {

std::string Diagnostic::format() const {
  std::string out = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  out += ": ";
  if (!pointer.empty()) out += printable(pointer) + ": ";  // its keys are the input's
  out += message;
  return out;
}

std::string format_all(const Diagnostics& diagnostics) {
  // At most kMaxMessagesPerFile lines per file, then one line saying how many more there are: a
  // file with a million problems gets a readable message, not a million lines.
  std::string out;
  std::map<std::string, std::size_t> shown;
  std::map<std::string, std::size_t> left_out;
  for (const auto& d : diagnostics) {
    if (++shown[d.file] > kMaxMessagesPerFile) {
      ++left_out[d.file];
      continue;
    }
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  for (const auto& [file, count] : left_out) {
    out += '\n' + (file.empty() ? std::string("<input>") : file) + ": and " + std::to_string(count) + " more problem" +
           (count == 1 ? "" : "s");
  }
  return out;
}

ConfigError::ConfigError(std::vector<Diagnostic> diagnostics)
    : Error(format_all(diagnostics)), diagnostics_(std::move(diagnostics)) {}

ConfigError::ConfigError(std::string file, std::string pointer, std::string message)
    : ConfigError(Diagnostics{Diagnostic{std::move(file), 0, 0, std::move(pointer), std::move(message)}}) {}

TraceError::TraceError(std::string file, long line, const std::string& column, const std::string& message)
    : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
            (column.empty() ? "" : printable(column) + ": ") + message),
      file_(std::move(file)),
      line_(line) {}

void throw_internal_error(const char* file, int line, const std::string& message) {
  throw InternalError(std::string("internal error at ") + file + ":" + std::to_string(line) + ": " + message);
}

}  // namespace slicewise
