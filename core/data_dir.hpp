// Where slicewise finds files at run time: the shipped catalogs (data/), and the files a document
// names (a scenario's trace, a sweep's base scenario).
#pragma once

#include <filesystem>
#include <string>

namespace slicewise {

/// The catalog directory: $SLICEWISE_DATA_DIR if set, else the directory configured at build time
/// (the source tree's data/). Throws ConfigError when it does not exist.
std::filesystem::path data_dir();

/// A path written in `document`, relative to the document's folder (not to the working directory)
/// unless absolute, and normalised ("examples/../t.csv" -> "t.csv").
std::filesystem::path path_in_document(const std::filesystem::path& document, const std::string& written);

}  // namespace slicewise
