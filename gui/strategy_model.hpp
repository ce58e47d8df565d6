// Table model over a scenario's strategies: one row per strategy with its kind and the
// parameters the scenario sets explicitly.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "scenario/scenario.hpp"

namespace slicewise::gui {

/// Read-only table of Scenario::strategies. The parameters column is strategy_parameters_text()
/// (model_text.hpp); its tooltip lists the same items one per line.
class StrategyModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int { kName, kKind, kParameters, kNumColumns };

  explicit StrategyModel(QObject* parent = nullptr);

  /// Replaces the rows with `scenario`'s strategies (a model reset).
  void set_scenario(const scenario::Scenario& scenario);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<scenario::StrategySpec> strategies_;
};

}  // namespace slicewise::gui
