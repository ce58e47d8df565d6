// Spot interruption table.
#include "pricing/spot_interruptions.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "pricing/json_io.hpp"

namespace slicewise::pricing {

namespace {

const NumberRange kPerMonth{0.0, false, 1.0, false};
const NumberRange kSeconds{0.0, false, 86400.0, false};

}  // namespace

SpotInterruptionTable SpotInterruptionTable::load(const std::filesystem::path& file) {
  const auto document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  SpotInterruptionTable table;
  JsonReader top(document, "", problems, name);
  if (!top.schema_version(1)) throw ConfigError(std::move(problems));
  table.source = top.required_string("source");
  table.as_of = read_price_date(top, "as_of");
  table.reading = top.required_string("reading");
  table.replacement_s = top.required_number("replacement_s", kSeconds);
  table.replacement_source = top.required_string("replacement_source");
  if (const auto* providers = top.required_array("providers")) {
    for (std::size_t i = 0; i < providers->size(); ++i) {
      const std::string pointer = "/providers/" + std::to_string(i);
      JsonReader r((*providers)[i], pointer, problems, name);
      SpotProvider p{r.required_string("table"), r.required_number("notice_s", kSeconds), r.required_string("source")};
      r.finish();
      if (std::any_of(table.providers.begin(), table.providers.end(),
                      [&](const SpotProvider& q) { return q.table == p.table; })) {
        problems.push_back({name, 0, 0, pointer + "/table", "provider \"" + p.table + "\" is listed twice"});
      }
      table.providers.push_back(std::move(p));
    }
  }
  if (const auto* rates = top.required_array("rates")) {
    for (std::size_t i = 0; i < rates->size(); ++i) {
      const std::string pointer = "/rates/" + std::to_string(i);
      JsonReader r((*rates)[i], pointer, problems, name);
      Row row;
      row.table = r.required_string("table");
      row.gpu = r.required_string("gpu");
      row.rate.band = r.required_string("band");
      row.rate.per_month = r.required_number("per_month", kPerMonth);
      const std::string instance = r.required_string("instance");
      const std::string as_of = read_price_date(r, "as_of");
      r.finish();
      row.rate.source = "band ";
      row.rate.source += row.rate.band;
      row.rate.source += " read for " + instance;
      row.rate.source += " on " + as_of;
      row.rate.source += " (AWS Spot Instance Advisor)";
      if (std::any_of(table.rates.begin(), table.rates.end(),
                      [&](const Row& q) { return q.table == row.table && q.gpu == row.gpu; })) {
        problems.push_back(
            {name, 0, 0, pointer, "the rate of " + row.gpu + " on \"" + row.table + "\" is listed twice"});
      }
      table.rates.push_back(std::move(row));
    }
  }
  if (const auto* fallback = top.required_object("default")) {
    JsonReader r(*fallback, "/default", problems, name);
    table.fallback.band = r.required_string("band");
    table.fallback.per_month = r.required_number("per_month", kPerMonth);
    table.fallback.source = r.required_string("source");
    table.fallback.assumed = true;
    r.finish();
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return table;
}

SpotRate SpotInterruptionTable::rate(const std::string& table, const std::string& gpu) const {
  for (const auto& row : rates) {
    if (row.table == table && row.gpu == gpu) return row.rate;
  }
  return fallback;
}

double SpotInterruptionTable::notice_s(const std::string& table, bool* assumed) const {
  double shortest = 0.0;
  bool any = false;
  for (const auto& p : providers) {
    if (p.table == table) {
      if (assumed) *assumed = false;
      return p.notice_s;
    }
    shortest = any ? std::min(shortest, p.notice_s) : p.notice_s;
    any = true;
  }
  if (assumed) *assumed = true;
  return shortest;
}

const SpotInterruptionTable& shipped_spot_interruptions() {
  static const SpotInterruptionTable table = SpotInterruptionTable::load(data_dir() / "spot_interruptions.json");
  return table;
}

}  // namespace slicewise::pricing
