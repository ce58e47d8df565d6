// Scenario format v1: strict reading of the top level (phase 1 of loading) and load_scenario. The
// nested sections are read by json_read_tenant.cpp, json_read_load.cpp, json_read_strategy.cpp and
// json_read_faults.cpp; writing is in json_write.cpp.
#include "scenario/json_io.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario {

using detail::element_pointer;
using detail::nonempty_array;
using detail::nonempty_string;
using detail::read_count;
using nlohmann::json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr double kMaxSeed = 9007199254740992.0;  // 2^53: the largest integer every JSON reader keeps exact
constexpr double kMaxHorizonS = 1e8;             // about 3 years: longer than any trace slicewise reads

/// name, description, seed and the run's time settings.
void read_run_settings(JsonReader& r, Scenario& s) {
  s.name = read_name(r, "name", true);
  s.description = r.optional_string("description", "");
  s.seed = static_cast<std::uint64_t>(r.optional_integer("seed", 1, NumberRange::between(0, kMaxSeed)));
  s.horizon_s = r.optional_number("horizon_s", 3600.0, NumberRange::positive());
  if (s.horizon_s > kMaxHorizonS) {
    r.error("horizon_s",
            "must be <= 100000000, about 3 years (got " + describe_json(*r.optional_value("horizon_s")) + ")");
  }
  s.warmup_s = r.optional_number("warmup_s", 0.0, NumberRange::non_negative());
  if (s.warmup_s >= s.horizon_s) {
    r.error("warmup_s", "must be < horizon_s (got " + format_number(s.warmup_s) + "; horizon_s is " +
                            format_number(s.horizon_s) + ")");
  }
  s.metrics_interval_s = r.optional_number("metrics_interval_s", 60.0, NumberRange::positive());
}

/// A fleet entry's `tenants` (a pool reserved for them): non-empty, distinct, non-empty strings.
/// Whether each names a tenant is validate_scenario's question.
std::vector<std::string> read_pool_tenants(JsonReader& r) {
  std::vector<std::string> names;
  if (!r.has("tenants")) return names;
  const json* list = nonempty_array(r, "tenants", "tenant");
  if (!list) return names;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& item = (*list)[i];
    const std::string here = element_pointer(r.pointer("tenants"), i);
    auto error = [&](std::string message) { r.diagnostics().push_back({r.file(), 0, 0, here, std::move(message)}); };
    if (!item.is_string() || item.get<std::string>().empty()) {
      error("must be a tenant's name (got " + describe_json(item) + ")");
    } else if (std::find(names.begin(), names.end(), item.get<std::string>()) != names.end()) {
      error("\"" + item.get<std::string>() + "\" is listed twice");
    } else {
      names.push_back(item.get<std::string>());
    }
  }
  return names;
}

FleetEntry read_fleet_entry(JsonReader& top, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, top.diagnostics(), top.file());
  FleetEntry e;
  const bool has_gpu = r.has("gpu");
  const bool has_instance = r.has("instance_type");
  if (r.valid() && has_gpu && has_instance) {
    r.error_here("give either \"gpu\" or \"instance_type\", not both");
  } else if (r.valid() && !has_gpu && !has_instance) {
    r.error_here("missing required key \"gpu\" or \"instance_type\" (give exactly one)");
  }
  e.gpu = nonempty_string(r, "gpu", false);
  e.instance_type = nonempty_string(r, "instance_type", false);
  e.count = read_count(r, "count", 1);
  e.tenants = read_pool_tenants(r);
  r.finish();
  return e;
}

PricingSpec read_pricing(JsonReader& top, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, top.diagnostics(), top.file());
  PricingSpec p;
  p.table = r.has("table") ? nonempty_string(r, "table", false) : p.table;
  p.region = nonempty_string(r, "region", false);
  p.option = r.optional_enum("option", pricing::PurchaseOption::on_demand, pricing::purchase_option_table());
  p.monthly_revenue_usd = r.optional_number("monthly_revenue_usd", 0.0, NumberRange::non_negative());
  p.abandonment_per_100ms_frac = r.optional_number("abandonment_per_100ms_frac", 0.01, NumberRange::fraction());
  r.finish();
  return p;
}

/// Reports the second and later uses of a name at its pointer: `what` is "tenant" or "strategy",
/// `hint` is appended to the message.
void check_unique(JsonReader& top, const std::vector<std::string>& names, const std::vector<std::string>& pointers,
                  const char* what, const char* hint) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    auto [it, inserted] = first.emplace(names[i], i);
    if (!inserted) {
      top.diagnostics().push_back(
          {top.file(), 0, 0, pointers[i],
           std::string("duplicate ") + what + " name \"" + names[i] + "\" (also " + pointers[it->second] + ")" + hint});
    }
  }
}

void read_fleet(JsonReader& r, Scenario& s) {
  const json* fleet = nonempty_array(r, "fleet", "entry");
  if (!fleet) return;
  for (std::size_t i = 0; i < fleet->size(); ++i) {
    s.fleet.push_back(read_fleet_entry(r, (*fleet)[i], element_pointer("/fleet", i)));
  }
}

void read_tenants(JsonReader& r, Scenario& s, bool legacy_llm) {
  const json* tenants = nonempty_array(r, "tenants", "tenant");
  if (!tenants) return;
  std::vector<std::string> names, pointers;
  for (std::size_t i = 0; i < tenants->size(); ++i) {
    const std::string pointer = element_pointer("/tenants", i);
    s.tenants.push_back(detail::read_tenant((*tenants)[i], pointer, r.diagnostics(), r.file(), legacy_llm));
    names.push_back(s.tenants.back().name);
    pointers.push_back(pointer + "/name");
  }
  check_unique(r, names, pointers, "tenant", "");
}

/// A strategy without a "name" takes its kind's, so a clash is reported at the strategy itself.
void read_strategies(JsonReader& r, Scenario& s) {
  const json* strategies = nonempty_array(r, "strategies", "strategy");
  if (!strategies) return;
  std::vector<std::string> names, pointers;
  for (std::size_t i = 0; i < strategies->size(); ++i) {
    const auto& element = (*strategies)[i];
    const std::string pointer = element_pointer("/strategies", i);
    s.strategies.push_back(detail::read_strategy(element, pointer, r.diagnostics(), r.file()));
    names.push_back(s.strategies.back().name);
    const bool named = element.is_object() && element.contains("name");
    pointers.push_back(pointer + (named ? "/name" : ""));
  }
  check_unique(r, names, pointers, "strategy", "; give each strategy its own \"name\"");
}

}  // namespace

Scenario parse_scenario(const json& document, const std::string& file, ScenarioSource source) {
  Diagnostics out;
  Scenario s;
  s.source_file = file;
  try {
    JsonReader r(document, "", out, file);
    // Another version may mean other keys: report only the version.
    if (!r.schema_version(kSchemaVersion)) throw ConfigError({out.back()});
    read_run_settings(r, s);
    read_fleet(r, s);
    read_tenants(r, s, source == ScenarioSource::result_input);
    read_strategies(r, s);
    if (const json* pricing = r.optional_object("pricing")) s.pricing = read_pricing(r, *pricing, "/pricing");
    if (const json* faults = r.optional_object("faults")) {
      s.faults = detail::read_faults(*faults, "/faults", r.diagnostics(), r.file());
    }
    r.finish();
  } catch (const json::exception& e) {
    out.push_back({file, 0, 0, "", e.what()});
  }
  if (!out.empty()) throw ConfigError(std::move(out));
  return s;
}

Scenario load_scenario(const std::filesystem::path& file) {
  const json document = read_json_file(file);
  Scenario s = parse_scenario(document, file.string());
  const Catalogs catalogs = Catalogs::shipped();
  if (Diagnostics problems = validate_scenario(s, catalogs); !problems.empty()) {
    throw ConfigError(std::move(problems));
  }
  for (auto& entry : s.fleet) {
    if (!entry.instance_type.empty()) entry.gpu = fleet_gpu_id(entry, s, catalogs);
  }
  return s;
}

}  // namespace slicewise::scenario
