// Field readers shared by the catalog loaders.
#include "models/catalog_fields.hpp"

#include <cctype>

#include <nlohmann/json.hpp>

namespace slicewise::models::detail {

namespace {

constexpr std::int64_t kMaxInt = 1000000;

/// "YYYY-MM" or "YYYY-MM-DD" with a month in 1..12 and a day in 1..31.
bool is_date(const std::string& text) {
  if (text.size() != 7 && text.size() != 10) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? text[i] != '-' : !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  const int month = std::stoi(text.substr(5, 2));
  if (month < 1 || month > 12) return false;
  if (text.size() == 10) {
    const int day = std::stoi(text.substr(8, 2));
    if (day < 1 || day > 31) return false;
  }
  return true;
}

}  // namespace

std::string read_nonempty_string(JsonReader& r, std::string_view key) {
  const std::size_t before = r.diagnostics().size();
  std::string value = r.required_string(key);
  if (r.diagnostics().size() == before && r.valid() && value.empty()) r.error(key, "must not be empty");
  return value;
}

std::string read_date(JsonReader& r, std::string_view key) {
  const std::size_t before = r.diagnostics().size();
  std::string value = r.required_string(key);
  if (r.diagnostics().size() == before && r.valid() && !is_date(value)) {
    r.error(key, "expected a date YYYY-MM or YYYY-MM-DD (got \"" + value + "\")");
    return {};
  }
  return value;
}

int read_int(JsonReader& r, std::string_view key, const NumberRange& range) {
  // Checked before required_integer() so that a huge value never reaches an integer conversion.
  if (const auto* raw = r.optional_value(key); raw && raw->is_number() && raw->get<double>() > kMaxInt) {
    r.error(key, "must be <= " + std::to_string(kMaxInt) + " (got " + describe_json(*raw) + ")");
    return 0;
  }
  return static_cast<int>(r.required_integer(key, range));
}

void NameRegistry::claim(const std::string& key, const std::string& pointer) {
  if (key.empty()) return;
  auto [it, inserted] = first_use_.emplace(key, pointer);
  if (!inserted) {
    out_->push_back(Diagnostic{file_, 0, 0, pointer,
                               "duplicate " + noun_ + " id or alias \"" + key + "\" (also " + it->second + ")"});
  }
}

std::vector<std::string> read_aliases(JsonReader& r, NameRegistry& names) {
  std::vector<std::string> aliases;
  const nlohmann::json* array = r.optional_array("aliases");
  if (!array) return aliases;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const nlohmann::json& value = (*array)[i];
    const std::string pointer = r.pointer("aliases") + "/" + std::to_string(i);
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      r.diagnostics().push_back(
          Diagnostic{r.file(), 0, 0, pointer, "expected a non-empty string (got " + describe_json(value) + ")"});
      continue;
    }
    aliases.push_back(value.get<std::string>());
    names.claim(aliases.back(), pointer);
  }
  return aliases;
}

}  // namespace slicewise::models::detail
