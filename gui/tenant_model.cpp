// Editable table of a scenario's tenants (see tenant_model.hpp).
#include "gui/tenant_model.hpp"

#include "core/json_reader.hpp"
#include "gui/model_text.hpp"
#include "scenario/enum_tables.hpp"

namespace slicewise::gui {

TenantModel::TenantModel(ScenarioDocument* document, QObject* parent) : JsonTableModel(document, "/tenants", parent) {
  const auto constant = [](const char* text) { return [text](int) { return QString::fromLatin1(text); }; };
  add_field(FieldSpec(tr("Name"), "/name"));
  add_field(FieldSpec(tr("Kind"), "/workload/kind", FieldType::choice)
                .with_choices(choice_names(scenario::workload_kind_table())),
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

bool TenantModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || index.column() != kName || !index.isValid())
    return JsonTableModel::setData(index, value, role);
  const Json* old_value = document()->value_at(row_pointer(index.row()) + "/name");
  const std::string old_name = old_value && old_value->is_string() ? old_value->get<std::string>() : std::string();
  const std::string new_name = value.toString().trimmed().toStdString();
  if (old_name.empty() || new_name.empty() || old_name == new_name) return JsonTableModel::setData(index, value, role);
  document()->begin_macro(tr("Rename tenant %1 to %2").arg(to_qstring(old_name), to_qstring(new_name)));
  JsonTableModel::setData(index, value, role);
  const Json* strategies = document()->value_at("/strategies");
  for (std::size_t s = 0; strategies && strategies->is_array() && s < strategies->size(); ++s) {
    const std::string base = "/strategies/" + std::to_string(s) + "/tenants/";
    const Json* settings = document()->value_at(base + json_pointer_token(old_name));
    if (!settings || document()->value_at(base + json_pointer_token(new_name))) continue;
    const Json moved = *settings;  // copy: the next edit invalidates the pointer
    document()->set_value(base + json_pointer_token(new_name), moved);
    document()->set_value(base + json_pointer_token(old_name), std::nullopt);
  }
  document()->end_macro();
  return true;
}

}  // namespace slicewise::gui
