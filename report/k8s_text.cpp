// Kubernetes names and YAML strings (k8s_text.hpp).
#include "report/k8s_text.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace slicewise::report {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The label part of a name: runs of anything else become one '-', none at either end.
std::string label_of(std::string_view name) {
  std::string out;
  for (const unsigned char c : name) {
    if (std::isalnum(c) && c < 0x80) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace

std::string kubernetes_name(std::string_view name, std::string_view suffix) {
  std::string base = label_of(name);
  if (base.empty()) base = "tenant";
  const std::string tail = label_of(suffix);
  const std::size_t room = kMaxKubernetesName - (tail.empty() ? 0 : tail.size() + 1);
  if (base.size() > room) base.resize(room);
  while (!base.empty() && base.back() == '-') base.pop_back();
  if (base.empty()) base = "t";
  return tail.empty() ? base : base + "-" + tail;
}

std::string namespace_problem(std::string_view name) {
  if (name.empty()) return "must not be empty";
  if (name.size() > kMaxKubernetesName) {
    return "has " + std::to_string(name.size()) + " characters; a namespace has at most 63";
  }
  const bool chars_ok =
      std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || digit(c) || c == '-'; });
  if (!chars_ok || !alnum(name.front()) || !alnum(name.back())) {
    return "is not a namespace: lower-case letters, digits and '-', starting and ending with a letter or digit "
           "(an RFC 1123 label)";
  }
  return "";
}

bool yaml_plain_is_string(std::string_view text) {
  if (text.empty()) return false;  // null
  // Booleans (YAML 1.1: y, n, yes, no, on, off, true, false in any case) and null.
  static constexpr std::array<std::string_view, 11> kWords = {"y",    "n",     "yes",  "no", "on", "off",
                                                              "true", "false", "null", "<<", "="};
  const std::string folded = lower(text);
  if (std::find(kWords.begin(), kWords.end(), folded) != kWords.end()) return false;
  // Numbers of either version (0123, 0x1f, 0b1, 0o7, 1_000, 1:20, 1e3, .5, +1, -1, .inf, .nan) and
  // timestamps (2026-11-29) all start with a digit, a sign or a dot: written plain, none is safe.
  const char first = text.front();
  if (digit(first) || first == '+' || first == '-' || first == '.') return false;
  // Indicators that start something else, and what would end or break a plain scalar.
  static constexpr std::string_view kIndicators = "~?:,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(first) != std::string_view::npos) return false;
  if (text.back() == ' ' || text.back() == ':' || first == ' ') return false;
  if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos) return false;
  return std::none_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
}

YAML::Emitter& operator<<(YAML::Emitter& y, const YamlString& s) {
  const std::string text(s.text);
  if (yaml_plain_is_string(s.text)) return y << text;
  return y << YAML::DoubleQuoted << text;
}

}  // namespace slicewise::report
