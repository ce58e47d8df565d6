// Catalog directory lookup.
#include "core/data_dir.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace slicewise {

std::filesystem::path data_dir() {
  std::filesystem::path dir;
  if (const char* env = std::getenv("SLICEWISE_DATA_DIR"); env && *env) {
    dir = env;
  } else {
    dir = SW_DATA_DIR;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw ConfigError(dir.string(), "", "catalog directory not found (set SLICEWISE_DATA_DIR to the data/ folder)");
  }
  return dir;
}

std::filesystem::path path_in_document(const std::filesystem::path& document, const std::string& written) {
  const std::filesystem::path path(written);
  return (path.is_absolute() ? path : document.parent_path() / path).lexically_normal();
}

}  // namespace slicewise
