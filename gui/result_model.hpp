// Table models over an ROI report: ResultModel, one row per strategy with its monthly cost, savings,
// utilisation, GPU energy, SLA outcome, and its expected availability and blast radius under
// faults (issue 8's comparison table); LatencyModel, one row per tenant with its p95/p99 latency
// under each strategy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "report/roi_content.hpp"

namespace slicewise::gui {

/// Read-only table of report::RoiReport::strategies, in the report's order. DisplayRole is the
/// report's formatting (money as report::format_usd, percentages without the sign, "—" for a
/// missing figure); kSortRole (result_text.hpp) is the raw number,
/// so a QSortFilterProxyModel with that sortRole sorts numerically. The recommended row is bold
/// (FontRole), missed SLAs are red (ForegroundRole), numeric cells right-aligned, and every cell's
/// tooltip lists the strategy's issues. Headers are short, with their units ("$/month", "Busy %",
/// "Savings\n%" on two lines); their tooltips (Qt::ToolTipRole) say them in full. The kSla cell's
/// tooltip lists the tenants that miss their SLA.
///
/// When some strategy of the report has faults (scenario::StrategyResult::faults, from the result the
/// report was built from), two columns follow kSla (docs/faults.md): the lowest tenant's expected
/// availability per month, % with 3 decimals, and the expected blast radius, tenants per fault with
/// 2 decimals; "—" for a strategy without faults. Without faults in the report they are absent, so
/// the table keeps its width; availability_column() and blast_radius_column() are then -1.
class ResultModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  /// The fixed columns; then the fault columns when the report has faults.
  enum Column : int {
    kStrategy,              ///< name, "+ (recommended)" / "+ (baseline)"; sorts by name
    kKind,                  ///< strategy kind ("time_slicing")
    kGpus,                  ///< GPUs used (int)
    kMonthlyCost,           ///< USD per month
    kMonthlySavings,        ///< USD per month against the baseline
    kSavingsPercent,        ///< % of the baseline's cost (sorts by the percentage)
    kCostPer1kInSla,        ///< USD per 1,000 requests served within SLA: the equal-work figure; "—" when none
    kBusyPercent,           ///< fleet busy %, time-weighted over the horizon
    kSmUtilPercent,         ///< fleet SM utilisation %
    kEnergyKwhMonth,        ///< GPU energy, kWh per 730-hour month (docs/energy.md); "—" without a TDP
    kSlaViolationsPercent,  ///< requests over their target, % of arrivals, 2 decimals
    kSla,                   ///< "met" | "missed (N tenants)"; sorts by N
    kNumFixedColumns
  };

  explicit ResultModel(QObject* parent = nullptr);

  /// Replaces the rows with `report`'s (a model reset).
  void set_report(const report::RoiReport& report);
  /// No rows, only the fixed columns (a model reset).
  void clear();

  /// Whether some strategy's kind differs from its name: otherwise the kKind column repeats the
  /// kStrategy column, and the results panel hides it.
  bool kinds_differ_from_names() const;
  /// Whether some strategy of the report has a FaultRecord: the fault columns are shown.
  bool has_faults() const { return has_faults_; }
  /// Column of the lowest tenant's expected availability (%), and of the expected blast radius
  /// (tenants per fault); -1 without faults.
  int availability_column() const { return has_faults_ ? kNumFixedColumns : -1; }
  int blast_radius_column() const { return has_faults_ ? kNumFixedColumns + 1 : -1; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  static constexpr int kNumFaultColumns = 2;

  struct Row {
    report::StrategySummary summary;
    bool recommended = false;
    bool baseline = false;
    std::vector<const report::TenantRow*> tenants;  ///< the strategy's, in the report's order
    std::optional<scenario::FaultRecord> faults;    ///< the result's, by strategy name
  };

  QVariant fault_display(const Row& row, int column) const;
  QVariant fault_sort_key(const Row& row, int column) const;
  QVariant display(const Row& row, int column) const;
  QVariant sort_key(const Row& row, int column) const;
  QString tooltip(const Row& row, int column) const;
  bool missed(const Row& row, int column) const;

  std::vector<report::TenantRow> tenant_rows_;  ///< the report's, owned so Row::tenants can point into them
  std::vector<Row> rows_;
  bool has_faults_ = false;
};

/// Read-only table of each tenant's latency under each strategy: one row per tenant (first-seen
/// order over report.tenants), then two columns per strategy of the report, in its order: the
/// tenant's p95 and p99 (s, 3 decimals; "—" when the strategy does not run the tenant). Tenants
/// are rows so that a fleet of many tenants grows the table downwards, where the pane has room,
/// and not sideways. The headers are "<strategy>\np95 s" on two lines, their tooltips say them in
/// full; the recommended strategy's columns are bold, a tenant's cells under a strategy where it
/// misses its SLA red, and a cell's tooltip gives the tenant's SLA outcome there. kSortRole is the
/// raw number, as ResultModel.
class LatencyModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int {
    kTenant,  ///< the tenant's name
    kTarget,  ///< its latency target (s); "—" without one
    kNumFixedColumns
  };

  explicit LatencyModel(QObject* parent = nullptr);

  /// Replaces the rows and strategy columns with `report`'s (a model reset).
  void set_report(const report::RoiReport& report);
  /// No rows, only the fixed columns (a model reset).
  void clear();

  /// Strategy names of the latency columns, in the report's order.
  const std::vector<std::string>& strategies() const { return strategies_; }
  /// Column of the `strategy`-th strategy's p95 (s) and p99 (s).
  static int p95_column(int strategy) { return kNumFixedColumns + 2 * strategy; }
  static int p99_column(int strategy) { return kNumFixedColumns + 2 * strategy + 1; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  /// The report's row of tenant `row` under the strategy of `column`; nullptr for the fixed
  /// columns, or when the strategy does not run the tenant.
  const report::TenantRow* cell_row(int row, int column) const;
  /// Whether a strategy's `column` is its p95 (else its p99).
  static bool is_p95(int column) { return (column - kNumFixedColumns) % 2 == 0; }
  /// The number a cell shows: the tenant's target, or its latency under a strategy; nullopt for
  /// the tenant's name, or when there is none.
  std::optional<double> number(int row, int column) const;
  QVariant display(int row, int column) const;
  QVariant sort_key(int row, int column) const;

  std::vector<std::string> tenants_;
  std::vector<std::string> strategies_;
  int recommended_ = -1;                                      ///< index into strategies_; -1 when none
  std::vector<double> targets_;                               ///< per tenants_ entry; 0 when none
  std::vector<report::TenantRow> tenant_rows_;                ///< the report's
  std::vector<std::vector<const report::TenantRow*>> cells_;  ///< [tenant][strategy], into tenant_rows_
};

}  // namespace slicewise::gui
