// Table model over a scenario's fleet: one row per fleet entry (GPU, instance type, count).
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "scenario/scenario.hpp"

namespace slicewise::gui {

/// Read-only table of Scenario::fleet. After load_scenario the GPU column is filled for entries
/// given by instance type too; an entry given only by GPU has an empty instance-type cell.
class FleetModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int { kGpu, kInstanceType, kCount, kNumColumns };

  explicit FleetModel(QObject* parent = nullptr);

  /// Replaces the rows with `scenario`'s fleet (a model reset).
  void set_scenario(const scenario::Scenario& scenario);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<scenario::FleetEntry> fleet_;
};

}  // namespace slicewise::gui
