// Side-by-side compare of two runs' ROI reports: one row per strategy, each metric as run A, run B
// and the difference B - A (issue 8's "compare two runs").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "report/roi_content.hpp"

namespace slicewise::gui {

/// Read-only table: column 0 is the strategy name, then for each Metric three columns, A | B | Δ
/// (column(metric, side)). Rows are the strategy names of run A in its order, then those only run B
/// has. A side without the strategy shows "—", as does its Δ. DisplayRole is formatted like
/// ResultModel's (money "$1,515.25", signed differences "+$12.00", percentage points "+1.5",
/// seconds "+0.120"); kSortRole (result_text.hpp) is the raw number (USD, percent or percentage
/// points, seconds), invalid when missing. Numeric cells are right-aligned. Headers are short, with
/// their units ("$/month A", "Worst p95 s Δ"); their tooltips say them in full.
class CompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Metric : int {
    kMonthlyCost,           ///< USD per month
    kMonthlySavings,        ///< USD per month against each run's own baseline
    kSlaViolationsPercent,  ///< % of arrivals over their target (2 decimals)
    kBusyPercent,           ///< fleet busy % (1 decimal)
    kWorstP95,              ///< the largest p95 latency over the strategy's tenants, s
    kNumMetrics
  };
  enum Side : int { kA, kB, kDelta };
  static constexpr int kStrategyColumn = 0;

  explicit CompareModel(QObject* parent = nullptr);

  /// Column of `metric`'s `side`: 1 + 3 * metric + side.
  static int column(Metric metric, Side side) { return 1 + 3 * metric + side; }

  /// Compares run `a` with run `b` (a model reset). Keeps only the numbers, not the reports.
  void set_runs(const report::RoiReport& a, const report::RoiReport& b);
  /// No rows (a model reset).
  void clear();

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  /// One strategy's metrics in one run, indexed by Metric (NaN when the run has no tenant latency).
  using Values = std::vector<double>;
  struct Row {
    std::string strategy;
    std::optional<Values> a;
    std::optional<Values> b;
  };

  std::vector<Row> rows_;
};

}  // namespace slicewise::gui
