// Tenants from GPU telemetry (see telemetry_import.hpp).
#include "gui/telemetry_import.hpp"

#include <algorithm>
#include <cstring>

#include <QFileInfo>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "traces/telemetry_data.hpp"

namespace slicewise::gui {

namespace {

/// `name`, or with the first free suffix "-2", "-3", ... when `taken` has it; the result is taken.
std::string free_name(const std::string& name, std::vector<std::string>& taken) {
  const auto is_taken = [&](const std::string& candidate) {
    return std::find(taken.begin(), taken.end(), candidate) != taken.end();
  };
  std::string chosen = name;
  for (int suffix = 2; is_taken(chosen); ++suffix) chosen = name + "-" + std::to_string(suffix);
  taken.push_back(chosen);
  return chosen;
}

/// The scenario tenant of one imported tenant named `name`.
Json scenario_tenant(const std::string& name, const Json& imported_workload) {
  Json workload = Json::object();
  workload["kind"] = "generic";
  workload["solo_latency_s"] = kImportedSoloLatencyS;
  for (const auto& [key, value] : imported_workload.items()) workload[key] = value;
  Json tenant = Json::object();
  tenant["name"] = name;
  tenant["workload"] = std::move(workload);
  tenant["load"] = Json{{"kind", "poisson"}, {"rate_per_s", 1}};
  tenant["sla"] = Json{{"environment", "internal"}};
  restore_parents(tenant);  // keys were inserted in place (scenario_document.hpp)
  return tenant;
}

}  // namespace

QStringList telemetry_format_choices() {
  QStringList names;
  for (const auto& name : traces::telemetry_format_names()) names << QString::fromStdString(name);
  return names;
}

QString guess_telemetry_format(const QString& file) {
  QString name = QFileInfo(file).fileName().toLower();
  for (const char* compressed : {".gz", ".zst"}) {
    if (name.endsWith(QLatin1String(compressed))) name.chop(static_cast<int>(std::strlen(compressed)));
  }
  if (name.endsWith(QLatin1String(".prom"))) return QStringLiteral("dcgm-prometheus");
  if (name.endsWith(QLatin1String(".csv"))) return QStringLiteral("pai-sensor");
  if (name.endsWith(QLatin1String(".txt")) || name.endsWith(QLatin1String(".log"))) return QStringLiteral("dcgmi-dmon");
  return {};
}

std::vector<std::string> tenant_names(const Json& document) {
  std::vector<std::string> names;
  const auto tenants = document.is_object() ? document.find("tenants") : document.end();
  if (tenants == document.end() || !tenants->is_array()) return names;
  for (const auto& tenant : *tenants) {
    if (tenant.is_object() && tenant.contains("name") && tenant["name"].is_string()) {
      names.push_back(tenant["name"].get<std::string>());
    }
  }
  return names;
}

std::vector<Json> tenants_from_import(const Json& import, const std::string& file,
                                      const std::vector<std::string>& taken) {
  // The checks and their messages are JsonReader's, as the CLI's loaders word them; the values are
  // then taken from `import` itself, whose workload keeps its key order.
  const nlohmann::json plain(import);
  Diagnostics problems;
  JsonReader document(plain, "", problems, file);
  const nlohmann::json* tenants = document.required_array("tenants");
  if (tenants && tenants->empty()) {
    document.error("tenants", "must not be empty: the import found no busy workload");
  }
  std::vector<Json> out;
  std::vector<std::string> names = taken;
  for (std::size_t i = 0; tenants && i < tenants->size(); ++i) {
    JsonReader tenant((*tenants)[i], "/tenants/" + std::to_string(i), problems, file);
    const std::string name = read_name(tenant, "name", true);
    const nlohmann::json* workload = tenant.required_object("workload");
    if (!problems.empty() || name.empty() || !workload) continue;
    out.push_back(scenario_tenant(free_name(name, names), import["tenants"][i]["workload"]));
  }
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return out;
}

}  // namespace slicewise::gui
