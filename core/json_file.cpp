// JSON files: precise parse errors, duplicate keys, atomic writes.
#include "core/json_file.hpp"
#include "core/atomic_output.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise {

using nlohmann::json;

namespace {

/// Converts nlohmann's byte offset (1-based, of the last character read) to line and column.
std::pair<int, int> line_and_column(const std::string& text, std::size_t byte) {
  int line = 1;
  int column = 1;
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// Strips nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 5: " prefix.
/// The bytes nlohmann quotes as "last read" are the input's: a control character it leaves as it
/// is (DEL, a C1 control) is escaped, and a long token is cut, as excerpt() quotes file text.
std::string parse_problem(const std::string& what) {
  const auto colon = what.find(": ");
  return printable(colon == std::string::npos ? std::string_view(what) : std::string_view(what).substr(colon + 2));
}

/// Strips nlohmann's "[json.exception.out_of_range.406] " prefix.
std::string range_problem(const std::string& what) {
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

/// Tracks where the parser is so that a repeated key can be reported with its JSON pointer.
struct Frame {
  bool is_array = false;
  long index = -1;             // current element in an array
  std::string key;             // current key in an object
  std::set<std::string> keys;  // keys seen so far in an object
};

constexpr int kMaxDepth = 256;  // far beyond any slicewise document; keeps recursive code off the stack's end

/// Byte offset (1-based, as nlohmann counts) of the first byte outside JSON strings (escapes
/// skipped) for which `problem_at(i)` is true, or 0. `problem_at` may move `i` past the bytes it
/// has read (a whole number token, say).
template <typename ProblemAt>
std::size_t first_outside_strings(const std::string& text, ProblemAt problem_at) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (problem_at(i)) {
      return i + 1;
    }
  }
  return 0;
}

/// Byte offset (1-based) of the first bracket that opens a level deeper than kMaxDepth, or 0.
std::size_t too_deep_at(const std::string& text) {
  int depth = 0;
  return first_outside_strings(text, [&](std::size_t i) {
    if (text[i] == '[' || text[i] == '{') return ++depth > kMaxDepth;
    if (text[i] == ']' || text[i] == '}') --depth;
    return false;
  });
}

/// Byte offset (1-based) of the first number outside strings that does not fit a double, or 0.
std::size_t overflowing_number_at(const std::string& text) {
  return first_outside_strings(text, [&](std::size_t& i) {
    if (text[i] != '-' && (text[i] < '0' || text[i] > '9')) return false;
    std::size_t end = i + 1;
    while (end < text.size() && std::strchr("0123456789.eE+-", text[end]) != nullptr) ++end;
    if (!std::isfinite(std::strtod(text.substr(i, end - i).c_str(), nullptr))) return true;
    i = end - 1;
    return false;
  });
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& file) {
  if (const std::size_t at = too_deep_at(text); at > 0) {
    auto [line, column] = line_and_column(text, at);
    throw ConfigError(Diagnostics{Diagnostic{file, line, column, "",
                                             "parse error: nested more than " + std::to_string(kMaxDepth) +
                                                 " levels deep (objects and arrays inside each other)"}});
  }
  std::vector<Frame> stack;
  Diagnostics duplicates;
  auto path_of = [&stack]() {
    std::string path;
    for (const auto& frame : stack) {
      if (frame.is_array) {
        if (frame.index >= 0) path += "/" + std::to_string(frame.index);
      } else if (!frame.key.empty()) {
        path += "/" + json_pointer_token(frame.key);
      }
    }
    return path;
  };
  auto element_starts = [&stack]() {
    if (!stack.empty() && stack.back().is_array) ++stack.back().index;
  };
  json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        element_starts();
        stack.push_back(Frame{false, -1, {}, {}});
        break;
      case json::parse_event_t::array_start:
        element_starts();
        stack.push_back(Frame{true, -1, {}, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case json::parse_event_t::key: {
        auto& frame = stack.back();
        frame.key = parsed.get<std::string>();
        if (!frame.keys.insert(frame.key).second) {
          duplicates.push_back(Diagnostic{file, 0, 0, path_of(), "duplicate key (each key may appear once)"});
        }
        break;
      }
      case json::parse_event_t::value: element_starts(); break;
    }
    return true;
  };
  try {
    json document = json::parse(text, callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
    if (!duplicates.empty()) throw ConfigError(std::move(duplicates));
    return document;
  } catch (const json::parse_error& e) {
    auto [line, column] = line_and_column(text, e.byte);
    throw ConfigError(Diagnostics{Diagnostic{file, line, column, "", "parse error: " + parse_problem(e.what())}});
  } catch (const json::out_of_range& e) {  // 406: a number beyond the range of a double, e.g. 1e999
    auto [line, column] = line_and_column(text, overflowing_number_at(text));
    throw ConfigError(Diagnostics{Diagnostic{file, line, column, "",
                                             "parse error: " + range_problem(e.what()) +
                                                 " (a number must fit a double: at most about 1.8e308 in magnitude)"}});
  }
}

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    throw ConfigError(path.string(), "", "cannot read file: is a directory");
  }
  // A device or a pipe (/dev/zero, a FIFO) could be read forever; a regular file has a size.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw ConfigError(path.string(), "", "cannot read file: not a regular file");
  }
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxTextFileBytes) {
    throw ConfigError(path.string(), "",
                      "file too large: " + std::to_string(size) + " bytes; at most " +
                          std::to_string(kMaxTextFileBytes) + " (1 GiB)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError(path.string(), "", std::string("cannot open file: ") + std::strerror(errno));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

json read_json_file(const std::filesystem::path& path) { return parse_json_text(read_text_file(path), path.string()); }

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  AtomicOutput out(path);
  out.write(text);
  out.commit();
}

namespace {

/// Makes the folders `file` needs that do not exist, outermost first, adding each to `made`.
void make_folders_for(const std::filesystem::path& file, std::vector<std::filesystem::path>& made) {
  std::vector<std::filesystem::path> missing;
  std::error_code ec;
  auto folder = file.parent_path();
  for (; !folder.empty() && !std::filesystem::exists(folder, ec); folder = folder.parent_path()) {
    missing.push_back(folder);
    if (folder == folder.parent_path()) break;
  }
  if (!folder.empty() && std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec)) {
    throw Error(file.string() + ": cannot write: " + folder.string() + " is in the way: a file, not a folder");
  }
  std::reverse(missing.begin(), missing.end());  // outermost first
  for (const auto& create : missing) {
    if (!std::filesystem::create_directory(create, ec) && !std::filesystem::is_directory(create)) {
      throw Error(file.string() + ": cannot write: cannot create the folder " + create.string() + ": " +
                  (ec ? ec.message() : std::string("a file of that name is in the way")));
    }
    made.push_back(create);
  }
}

}  // namespace

void write_files_atomically(const std::vector<OutputFile>& files) {
  std::vector<std::filesystem::path> made;  // so that a failure can take them away again
  try {
    for (const auto& file : files) make_folders_for(file.path, made);
    std::vector<std::unique_ptr<AtomicOutput>> outputs;
    outputs.reserve(files.size());
    for (const auto& file : files) {
      outputs.push_back(std::make_unique<AtomicOutput>(file.path));
      outputs.back()->write(file.text);
      if (file.executable) outputs.back()->add_permissions(0111);
    }
    for (auto& output : outputs) output->finish();
    for (auto& output : outputs) output->commit();
  } catch (...) {
    std::error_code ignored;
    for (; !made.empty(); made.pop_back()) std::filesystem::remove(made.back(), ignored);  // innermost first; if empty
    throw;
  }
}

}  // namespace slicewise
