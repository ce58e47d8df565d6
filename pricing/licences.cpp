// Licence table.
#include "pricing/licences.hpp"

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/units.hpp"
#include "pricing/json_io.hpp"

namespace slicewise::pricing {

namespace {

Licence read_licence(JsonReader& r) {
  Licence l;
  l.id = r.required_string("id");
  l.name = r.required_string("name");
  l.usd_per_gpu_year = r.required_number("usd_per_gpu_year", {0.0, true, 1e9, false});
  l.source = r.required_string("source");
  l.as_of = read_price_date(r, "as_of");
  r.finish();
  return l;
}

}  // namespace

double Licence::usd_per_gpu_hour() const { return usd_per_gpu_year / (kMonthsPerYear * kHoursPerMonth); }

LicenceTable LicenceTable::load(const std::filesystem::path& file) {
  const auto document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  LicenceTable table;
  JsonReader top(document, "", problems, name);
  top.schema_version(1);
  table.currency = top.required_string("currency");
  table.source = top.required_string("source");
  table.as_of = read_price_date(top, "as_of");
  if (const auto* licences = top.required_array("licences")) {
    for (std::size_t i = 0; i < licences->size(); ++i) {
      const std::string pointer = "/licences/" + std::to_string(i);
      JsonReader r((*licences)[i], pointer, problems, name);
      auto licence = read_licence(r);
      if (!licence.id.empty() && table.find(licence.id)) {
        problems.push_back({name, 0, 0, pointer + "/id", "licence \"" + licence.id + "\" is listed twice"});
      }
      table.licences.push_back(std::move(licence));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return table;
}

const Licence* LicenceTable::find(const std::string& id) const {
  for (const auto& licence : licences) {
    if (licence.id == id) return &licence;
  }
  return nullptr;
}

const LicenceTable& shipped_licences() {
  static const LicenceTable table = LicenceTable::load(data_dir() / "licences.json");
  return table;
}

}  // namespace slicewise::pricing
