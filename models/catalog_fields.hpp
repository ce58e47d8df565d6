// Field readers shared by the catalog loaders (gpus.json, mig_profiles.json): the document header
// (schema_version, source, as_of), non-empty strings, dates and integer counts. Internal to sw_models.
#pragma once

#include <string>
#include <string_view>

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

}  // namespace slicewise::models::detail
