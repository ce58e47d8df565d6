// Where the shipped catalogs (data/) are found at run time.
#pragma once

#include <filesystem>

namespace slicewise {

/// The catalog directory: $SLICEWISE_DATA_DIR if set, else the directory configured at build time
/// (the source tree's data/). Throws ConfigError when it does not exist.
std::filesystem::path data_dir();

}  // namespace slicewise
