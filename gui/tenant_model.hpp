// Editable table of a scenario's tenants: one row per tenant with its workload, load, SLA and
// required isolation. The load and the rest of a tenant are edited in the tenant form.
#pragma once

#include "gui/json_table_model.hpp"

namespace slicewise::gui {

/// /tenants of the document. Numbers keep the scenario's units (seconds, GiB) and read as the
/// shortest text that reads back exactly ("19.2"); absent optionals are empty cells, absent
/// fields with a default show it in grey.
class TenantModel : public JsonTableModel {
  Q_OBJECT

 public:
  enum Column : int {
    kName,
    kKind,            ///< generic | llm
    kSoloLatency,     ///< workload/solo_latency_s, seconds
    kMemory,          ///< workload/memory_gib, GiB
    kMaxConcurrency,  ///< workload/max_concurrency
    kLoad,            ///< load_text(), e.g. "poisson 2/s" (derived; edited in the tenant form)
    kSlaLatency,      ///< sla/latency_s, seconds
    kIsolation,       ///< none | software | hardware
    kNumColumns
  };

  explicit TenantModel(ScenarioDocument* document, QObject* parent = nullptr);

  /// As JsonTableModel's; a new name also renames the tenant's per-strategy settings
  /// (/strategies/*/tenants/<name>), in the same undo step.
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
};

}  // namespace slicewise::gui
