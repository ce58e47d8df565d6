// Table model over a scenario's tenants: one row per tenant with its workload, load, SLA and
// required isolation.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "scenario/scenario.hpp"

namespace slicewise::gui {

/// Read-only table of Scenario::tenants. Numbers keep the scenario's units (seconds, GiB) and are
/// shown as the shortest text that reads back exactly ("19.2"); unset optionals are empty cells.
class TenantModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int {
    kName,
    kKind,            ///< generic | llm
    kSoloLatency,     ///< Workload::solo_latency_s, seconds
    kMemory,          ///< Workload::memory_gib, GiB
    kMaxConcurrency,  ///< Workload::max_concurrency
    kLoad,            ///< load_text(), e.g. "poisson 2/s"
    kSlaLatency,      ///< SlaTargets::latency_s, seconds
    kIsolation,       ///< none | software | hardware
    kNumColumns
  };

  explicit TenantModel(QObject* parent = nullptr);

  /// Replaces the rows with `scenario`'s tenants (a model reset).
  void set_scenario(const scenario::Scenario& scenario);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QString display_text(const scenario::Tenant& tenant, int column) const;

  std::vector<scenario::Tenant> tenants_;
};

}  // namespace slicewise::gui
