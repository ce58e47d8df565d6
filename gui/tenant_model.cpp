// Editable table of a scenario's tenants (see tenant_model.hpp).
#include "gui/tenant_model.hpp"

#include "gui/model_text.hpp"
#include "scenario/enum_tables.hpp"

namespace slicewise::gui {

TenantModel::TenantModel(ScenarioDocument* document, QObject* parent) : JsonTableModel(document, "/tenants", parent) {
  const auto constant = [](const char* text) { return [text](int) { return QString::fromLatin1(text); }; };
  add_field(FieldSpec(tr("Name"), "/name"));
  add_field(FieldSpec(tr("Kind"), "/workload/kind", FieldType::choice).with_choices(choice_names(scenario::workload_kind_table())),
            constant("generic"));
  add_field(FieldSpec(tr("Solo latency (s)"), "/workload/solo_latency_s", FieldType::number)
                .with_tooltip(tr("One request alone on the reference GPU, seconds")),
            {}, true);
  add_field(FieldSpec(tr("Memory (GiB)"), "/workload/memory_gib", FieldType::number)
                .with_tooltip(tr("Device memory one context holds (weights + KV cache / activations)")),
            {}, true);
  add_field(FieldSpec(tr("Max concurrency"), "/workload/max_concurrency", FieldType::integer)
                .with_tooltip(tr("Requests served at once inside one context (batching)")),
            constant("1"), true);
  add_derived(tr("Load"), [this](int row) {
    const auto& parsed = this->document()->scenario();
    if (!parsed || row >= static_cast<int>(parsed->tenants.size())) return QString();
    return load_text(parsed->tenants[static_cast<std::size_t>(row)].load);
  });
  add_field(FieldSpec(tr("SLA latency (s)"), "/sla/latency_s", FieldType::number)
                .with_tooltip(tr("End-to-end latency target per request; empty = none")),
            {}, true);
  add_field(FieldSpec(tr("Isolation"), "/isolation", FieldType::choice)
                .with_choices(choice_names(models::isolation_level_table()))
                .with_tooltip(tr("What the tenant requires: a strategy giving less leaves it unplaced")),
            constant("none"));
}

}  // namespace slicewise::gui
