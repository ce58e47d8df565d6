// Table model over an ROI report's strategies: one row per strategy with its monthly cost, savings,
// utilisation, GPU energy, SLA outcome, its expected availability and blast radius under faults,
// and each tenant's p95/p99 latency (issue 8's comparison table).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "report/roi_report.hpp"

namespace slicewise::gui {

/// Read-only table of report::RoiReport::strategies, in the report's order. DisplayRole is the
/// report's formatting (money as report::format_usd, percentages without the sign, seconds with 3
/// decimals, "—" when a strategy lacks a tenant); kSortRole (result_text.hpp) is the raw number,
/// so a QSortFilterProxyModel with that sortRole sorts numerically. The recommended row is bold
/// (FontRole), missed SLAs are red (ForegroundRole), numeric cells right-aligned, and every cell's
/// tooltip lists the strategy's issues. Headers are short, with their units ("$/month", "Busy %",
/// "<tenant>\np95 s" on two lines); their tooltips (Qt::ToolTipRole) say them in full.
///
/// When some strategy of the report has faults (scenario::StrategyResult::faults, from the result the
/// report was built from), two columns follow kSla (docs/faults.md): the lowest tenant's expected
/// availability per month, % with 3 decimals, and the expected blast radius, tenants per fault with
/// 2 decimals; "—" for a strategy without faults. Without faults in the report they are absent, so
/// the table keeps its width; availability_column() and blast_radius_column() are then -1, and the
/// tenant columns start at kNumFixedColumns.
class ResultModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  /// The fixed columns; then the fault columns when the report has faults; then two per tenant
  /// (p95_column(), p99_column()).
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

  /// Replaces the rows and tenant columns with `report`'s (a model reset).
  void set_report(const report::RoiReport& report);
  /// No rows, only the fixed columns (a model reset).
  void clear();

  /// Tenant names of the latency columns, in first-seen order over report.tenants.
  const std::vector<std::string>& tenants() const { return tenants_; }
  /// Whether some strategy of the report has a FaultRecord: the fault columns are shown.
  bool has_faults() const { return has_faults_; }
  /// Column of the lowest tenant's expected availability (%), and of the expected blast radius
  /// (tenants per fault); -1 without faults.
  int availability_column() const { return has_faults_ ? kNumFixedColumns : -1; }
  int blast_radius_column() const { return has_faults_ ? kNumFixedColumns + 1 : -1; }
  /// Column of the first tenant's p95: after the fixed and the fault columns.
  int first_tenant_column() const { return kNumFixedColumns + (has_faults_ ? kNumFaultColumns : 0); }
  /// Column of the `tenant`-th tenant's p95 (s) and p99 (s).
  int p95_column(int tenant) const { return first_tenant_column() + 2 * tenant; }
  int p99_column(int tenant) const { return first_tenant_column() + 2 * tenant + 1; }

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
    std::vector<const report::TenantRow*> tenants;  ///< one per tenants_ entry; nullptr when absent
    std::optional<scenario::FaultRecord> faults;    ///< the result's, by strategy name
  };

  /// Index into tenants_ of a tenant column; -1 for the fixed and fault columns.
  int tenant_of(int column) const;
  QVariant fault_display(const Row& row, int column) const;
  QVariant fault_sort_key(const Row& row, int column) const;
  QVariant display(const Row& row, int column) const;
  QVariant sort_key(const Row& row, int column) const;
  QString tooltip(const Row& row, int column) const;
  bool missed(const Row& row, int column) const;

  std::vector<std::string> tenants_;
  std::vector<report::TenantRow> tenant_rows_;  ///< the report's, owned so Row::tenants can point into them
  std::vector<Row> rows_;
  bool has_faults_ = false;
};

}  // namespace slicewise::gui
