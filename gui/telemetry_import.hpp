// Tenants from GPU telemetry in the editor (docs/gui.md, "Import tenants from telemetry"): the JSON
// that `slicewise profile import` writes (docs/telemetry.md, "The JSON") turned into scenario
// tenants, one per imported workload, ready to simulate once their solo latency is set.
#pragma once

#include <string>
#include <vector>

#include <QStringList>

#include "gui/scenario_document.hpp"

namespace slicewise::gui {

/// The solo latency an imported tenant gets until the user enters the measured one: telemetry
/// has no request times, and a generic workload requires one.
inline constexpr double kImportedSoloLatencyS = 0.1;

/// The formats `profile import --format` reads, in the CLI's order (dcgm-prometheus, dcgmi-dmon,
/// pai-sensor).
QStringList telemetry_format_choices();

/// The format a telemetry file's name suggests ("" when it suggests none), after a ".gz" or ".zst"
/// ending: "*.prom" dcgm-prometheus (dcgm-exporter's scrapes), "*.csv" pai-sensor (the PAI sensor
/// table), "*.txt" or "*.log" dcgmi-dmon (its standard output kept in a file).
QString guess_telemetry_format(const QString& file);

/// The names of the tenants of a scenario document (those whose name is a string), in order.
std::vector<std::string> tenant_names(const Json& document);

/// One scenario tenant per element of `import`'s "tenants" (the document `profile import --out`
/// writes), in its order:
///
///     {"name": NAME,
///      "workload": {"kind": "generic", "solo_latency_s": 0.1, <the import's workload, as written>},
///      "load": {"kind": "poisson", "rate_per_s": 1},
///      "sla": {"environment": "internal"}}
///
/// A key the import's workload gives itself ("kind", "solo_latency_s") keeps the import's value.
/// A NAME among `taken` (the scenario's tenants) or given to an earlier tenant of the import gets
/// "-2" appended, or "-3", ... when that is taken too. The other keys of an imported tenant (its
/// spread, notes, samples) stay in the import.
///
/// `file` names the document in messages. Throws ConfigError with every problem, each at its JSON
/// pointer in the import: a document that is not an object; "tenants" missing, not an array or
/// empty; a tenant that is not an object, whose "name" is missing, not a string, empty or has
/// control characters, or whose "workload" is missing or not an object.
std::vector<Json> tenants_from_import(const Json& import, const std::string& file,
                                      const std::vector<std::string>& taken);

}  // namespace slicewise::gui
