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

/// The optional "aliases" array: non-empty strings, each claimed in `names`.
std::vector<std::string> read_aliases(JsonReader& r, NameRegistry& names);

}  // namespace slicewise::models::detail
