// Field readers shared by the catalog loaders (gpus.json, mig_profiles.json, models.json): the document header
// (schema_version, source, as_of), non-empty strings, dates and integer counts. Internal to sw_models.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json_reader.hpp"

namespace slicewise::models::detail {

/// The schema version every catalog document carries.
inline constexpr int kCatalogSchemaVersion = 1;

/// A required string that must not be empty; "" after a diagnostic.
std::string read_nonempty_string(JsonReader& r, std::string_view key);

/// A required date "YYYY-MM" or "YYYY-MM-DD"; "" after a diagnostic.
std::string read_date(JsonReader& r, std::string_view key);

/// A required integer inside `range` and at most 1,000,000 (so it fits an int); 0 after a diagnostic.
int read_int(JsonReader& r, std::string_view key, const NumberRange& range);

/// Ids and aliases of one catalog share one namespace; the first pointer that used a name keeps
/// it, and a second use is a diagnostic ("duplicate GPU id or alias ...").
class NameRegistry {
 public:
  NameRegistry(Diagnostics& out, std::string file, std::string noun)
      : out_(&out), file_(std::move(file)), noun_(std::move(noun)) {}
  void claim(const std::string& key, const std::string& pointer);

 private:
  Diagnostics* out_;
  std::string file_;
  std::string noun_;
  std::map<std::string, std::string, std::less<>> first_use_;
};

/// The entry of `entries` (each with an `id` and `aliases`) named `id_or_alias` (exact match, ids
/// first); nullptr when none is.
template <class Entry>
const Entry* find_named(const std::vector<Entry>& entries, std::string_view id_or_alias) {
  for (const auto& entry : entries) {
    if (entry.id == id_or_alias) return &entry;
  }
  for (const auto& entry : entries) {
    for (const auto& alias : entry.aliases) {
      if (alias == id_or_alias) return &entry;
    }
  }
  return nullptr;
}

/// Every entry's id, in catalog order.
template <class Entry>
std::vector<std::string> ids_of(const std::vector<Entry>& entries) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const auto& entry : entries) out.push_back(entry.id);
  return out;
}

/// The optional "aliases" array: non-empty strings, each claimed in `names`.
std::vector<std::string> read_aliases(JsonReader& r, NameRegistry& names);

}  // namespace slicewise::models::detail
