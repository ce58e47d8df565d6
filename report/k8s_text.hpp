// Text that reaches Kubernetes objects and the YAML a platform team applies: the one place that
// turns a tenant, sweep or strategy name into a Kubernetes name or label and writes a string so
// that kubectl (YAML 1.1) and every YAML 1.2 reader read it back as that string.
#pragma once

#include <string>
#include <string_view>

namespace YAML {
class Emitter;
}

namespace slicewise::report {

/// The longest Kubernetes object name, label value and namespace slicewise writes (an RFC 1123
/// label: a Service's or pod's hostname must fit one).
inline constexpr std::size_t kMaxKubernetesName = 63;

/// `name` + `suffix` as an RFC 1123 label: lower-case letters, digits and '-', starting and ending
/// alphanumeric, at most 63 characters with the suffix ("Job_01", "-2" -> "job-01-2"); the name is
/// shortened, never the suffix. An empty result becomes "tenant".
std::string kubernetes_name(std::string_view name, std::string_view suffix = "");

/// Why `name` cannot be a Kubernetes namespace ("" when it can): an RFC 1123 label, at most 63.
std::string namespace_problem(std::string_view name);

/// True when `text`, written plain (unquoted), reads back as this very string under YAML 1.1 (what
/// kubectl and the device plugin read: yes/no/on/off/y/n are booleans, 0123 octal, 1:20
/// sexagesimal) and YAML 1.2 (1e3 a float): no boolean, null, number, timestamp or merge key, no
/// indicator in front and nothing yaml-cpp would have to quote.
bool yaml_plain_is_string(std::string_view text);

/// A string for a YAML::Emitter that stays a string: double-quoted whenever written plain it
/// would not (yaml_plain_is_string), plain otherwise.
struct YamlString {
  std::string_view text;
};
YAML::Emitter& operator<<(YAML::Emitter& y, const YamlString& s);

}  // namespace slicewise::report
