// Price tables from files (price_table.hpp): PriceTable::load, with a shipped table it extends,
// and the shipped tables of data/prices/.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "pricing/json_io.hpp"
#include "pricing/price_table.hpp"

namespace slicewise::pricing {

PriceTable PriceTable::load(const std::filesystem::path& file, const std::vector<std::string>& known_gpu_ids) {
  PriceTable table = parse_price_table(read_json_file(file), file.string(), known_gpu_ids);
  if (table.extends.empty()) return table;
  const PriceTable* base = find_shipped_price_table(table.extends);
  if (!base) {
    std::vector<std::string> names;
    for (const auto& shipped : shipped_price_tables()) names.push_back(shipped.name);
    throw ConfigError(file.string(), "/extends", unknown_choice(table.extends, names));
  }
  if (base->currency != table.currency) {
    throw ConfigError(file.string(), "/currency",
                      "must match the extended table \"" + base->name + "\" (got " + table.currency + "; expected " +
                          base->currency + ")");
  }
  for (const auto& row : base->instances) {
    if (!table.find(row.instance_type, row.region)) table.instances.push_back(row);
  }
  return table;
}

const std::vector<PriceTable>& shipped_price_tables() {
  static const std::vector<PriceTable> tables = [] {
    const auto folder = data_dir() / "prices";
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
      throw ConfigError(folder.string(), "",
                        "price table folder not found (set SLICEWISE_DATA_DIR to the data/ folder)");
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<PriceTable> loaded;
    std::vector<std::filesystem::path> loaded_from;
    for (const auto& file : files) {
      PriceTable table = PriceTable::load(file);
      for (std::size_t i = 0; i < loaded.size(); ++i) {
        if (loaded[i].name == table.name) {
          throw ConfigError(file.string(), "/name",
                            "table name \"" + table.name + "\" is already used by " + loaded_from[i].string());
        }
      }
      loaded.push_back(std::move(table));
      loaded_from.push_back(file);
    }
    // Name order (the file names usually give it already); find_shipped_price_table() relies on
    // names being unique, checked above.
    std::stable_sort(loaded.begin(), loaded.end(),
                     [](const PriceTable& a, const PriceTable& b) { return a.name < b.name; });
    return loaded;
  }();
  return tables;
}

const PriceTable* find_shipped_price_table(std::string_view name) {
  for (const auto& table : shipped_price_tables()) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

}  // namespace slicewise::pricing
