// The in-memory fixture scenario of the GUI tests (see gui_test.hpp).
#include "gui_test.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>

#include "scenario/json_io.hpp"

namespace slicewise::gui::test {

scenario::Scenario two_tenant_scenario() {
  scenario::Scenario s;
  s.name = "two-tenants";
  s.description = "Two tenants on L40S, dedicated vs time-slicing.";
  s.fleet = {{.gpu = "L40S", .instance_type = "", .count = 1, .tenants = {}},
             {.gpu = "L40S", .instance_type = "g6e.2xlarge", .count = 2, .tenants = {}}};

  scenario::Tenant phi;
  phi.name = "phi-3.5-mini";
  phi.workload.solo_latency_s = 0.609;
  phi.workload.memory_gib = 19.2;
  phi.workload.max_concurrency = 16;
  phi.load.rate_per_s = 2.0;
  phi.sla.latency_s = 2.0;

  scenario::Tenant deepseek;
  deepseek.name = "deepseek-8b";
  deepseek.workload.kind = scenario::WorkloadKind::llm;
  deepseek.workload.llm = scenario::LlmSpec{.model = "DeepSeek-R1-Distill-Llama-8B",
                                            .dtype = "bf16",
                                            .prompt_tokens = 512,
                                            .output_tokens = 128,
                                            .legacy_params_b = std::nullopt};
  deepseek.workload.engine = scenario::EngineSpec{};
  deepseek.workload.engine->gpu_memory_utilization = 0.45;
  deepseek.workload.engine->max_model_len = 4096;
  deepseek.load.kind = scenario::LoadKind::closed_loop;
  deepseek.load.num_users = 3;
  deepseek.load.think_time_s = 1.5;
  deepseek.isolation = models::IsolationLevel::software;
  s.tenants = {phi, deepseek};

  scenario::StrategySpec dedicated;
  dedicated.name = "dedicated";
  scenario::StrategySpec time_slicing;
  time_slicing.name = "ts-10";
  time_slicing.kind = models::StrategyKind::time_slicing;
  time_slicing.replicas = 10;
  time_slicing.quantum_ms = 2.0;
  time_slicing.sidecars = {{.instance_type = "t3.large", .count = 2}};
  time_slicing.tenants["phi-3.5-mini"].weight = 2.0;
  s.strategies = {dedicated, time_slicing};
  return s;
}

QString write_file(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) qFatal("cannot write %s", qPrintable(path));
  return path;
}

QString column_cut_short(const QTableView* table) {
  const QHeaderView* header = table->horizontalHeader();
  for (int column = 0; column < header->count(); ++column) {
    if (header->isSectionHidden(column)) continue;  // not shown, so not cut
    // QTableView hides the public sizeHintForColumn.
    const int cells = static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(column);
    if (header->sectionSize(column) >= header->sectionSizeHint(column) && header->sectionSize(column) >= cells)
      continue;
    return QStringLiteral("column %1 (%2): %3 px for a header of %4 and cells of %5")
        .arg(column)
        .arg(table->model()->headerData(column, Qt::Horizontal).toString())
        .arg(header->sectionSize(column))
        .arg(header->sectionSizeHint(column))
        .arg(cells);
  }
  return {};
}

Json document_of(const scenario::Scenario& scenario) {
  Json document;
  scenario::to_json(document, scenario);
  return document;
}

QByteArray valid_scenario_json() {
  return R"({
  "schema_version": 1,
  "name": "gui-test",
  "description": "Two generic tenants on one L40S.",
  "horizon_s": 60,
  "fleet": [{"gpu": "L40S", "count": 1}],
  "tenants": [
    {"name": "alpha", "workload": {"kind": "generic", "solo_latency_s": 0.5, "memory_gib": 19.2},
     "load": {"kind": "poisson", "rate_per_s": 1.0}},
    {"name": "beta", "workload": {"kind": "generic", "solo_latency_s": 0.25, "memory_gib": 8},
     "load": {"kind": "poisson", "rate_per_s": 2.0}, "sla": {"latency_s": 1.0}}
  ],
  "strategies": [{"kind": "dedicated"}, {"kind": "time_slicing", "replicas": 4}],
  "pricing": {"table": "aws"}
}
)";
}

QByteArray broken_scenario_json() {
  QByteArray text = valid_scenario_json();
  text.replace("\"horizon_s\"", "\"horizon\"");
  return text;
}

}  // namespace slicewise::gui::test
