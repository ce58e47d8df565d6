// Table models of one run's detail, under the results panel's Details and Faults tabs: a
// strategy's tenants (with their faults when it has some) and devices (with their layout phase when
// it has a MIG schedule), and the run's fault events and expected faults (docs/faults.md).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include "scenario/sim_result.hpp"

namespace slicewise::gui {

/// A read-only table whose columns follow its content: a column that only some results need
/// (faults, phases) is left out of the others, so the table keeps its width. Each column has a
/// short header with its unit (two lines where that narrows it), a tooltip saying it in full, and
/// per row its text (DisplayRole) and raw value (kSortRole, result_text.hpp; invalid when missing).
/// Numeric columns are right-aligned.
class RecordTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  struct Column {
    QString header;
    QString tooltip;
    bool numeric = true;
    std::function<QString(int row)> text;
    std::function<QVariant(int row)> sort;  ///< the raw value; the text itself when empty
  };

  explicit RecordTableModel(QObject* parent = nullptr);

  /// Every column's header as shown, in order.
  QStringList headers() const;
  /// The column whose header is `header`; -1 when it is not shown.
  int column_of(const QString& header) const;
  /// No rows and no columns (a model reset).
  void clear();

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 protected:
  /// Replaces the columns and rows (a model reset): `load` fills the subclass's rows inside the
  /// reset, so that views never see them out of step with the columns, and returns their number.
  void reset(std::vector<Column> columns, const std::function<int()>& load);

 private:
  int rows_ = 0;
  std::vector<Column> columns_;
};

/// One strategy's tenants: "Tenant", "Contexts", "Completed", "p95 s", "p99 s", "Over SLA %",
/// "SLA" ("met" | "missed"); when the strategy has a FaultRecord, then its faults: "Interruptions",
/// "Failed" (lost to a fault, not re-sent), "Retried", "Downtime s" (1 decimal), "Avail. % run"
/// (TenantResult::availability, 3 decimals), "Avail. % expected" (FaultRecord::tenants by name, 3
/// decimals; "—" when it lacks the tenant) and "Outage h/month" (expected, 2 decimals).
class TenantResultModel : public RecordTableModel {
  Q_OBJECT

 public:
  explicit TenantResultModel(QObject* parent = nullptr);

  void set_strategy(const scenario::StrategyResult& strategy);
  /// Whether the fault columns are shown (the strategy has a FaultRecord).
  bool has_fault_columns() const { return has_faults_; }

 private:
  std::vector<Column> run_columns() const;
  std::vector<Column> fault_columns() const;
  Column latency_column(bool p99) const;

  std::vector<scenario::TenantResult> tenants_;
  std::vector<std::optional<scenario::TenantExposure>> expected_;  ///< by tenant
  bool has_faults_ = false;
};

/// One strategy's devices: "Device", "GPU", "MIG profile" ("—" for a whole GPU), "Phase" (only when
/// some device has one: a MIG layout schedule), "Contexts", "Busy %", "SM util %", "Memory GiB"
/// ("12.0 / 40.0"), and "Down s" (only when the strategy has a FaultRecord: the time the device was
/// off, 1 decimal).
class DeviceResultModel : public RecordTableModel {
  Q_OBJECT

 public:
  explicit DeviceResultModel(QObject* parent = nullptr);

  void set_strategy(const scenario::StrategyResult& strategy);

 private:
  std::vector<scenario::DeviceResult> devices_;
};

/// Every fault and re-partition of a run, strategy by strategy in result order, each in time order:
/// "Strategy", "Time s" (1 decimal), "Kind", "GPU" (index in the strategy's fleet), "Origin" (the
/// crashed context, or the phases of a re-partition; "—" otherwise), "Hit" (the contexts taken
/// down, "nothing" when none), "Tenants hit", "Outage s" (1 decimal), "From" ("schedule" |
/// "drawn").
class FaultEventModel : public RecordTableModel {
  Q_OBJECT

 public:
  explicit FaultEventModel(QObject* parent = nullptr);

  void set_result(const scenario::SimResult& result);

 private:
  struct Row {
    std::string strategy;
    scenario::FaultEvent event;
  };
  std::vector<Row> rows_;
};

/// What the rates make expected, per strategy and fault kind (FaultRecord::expected): "Strategy",
/// "Kind", "Per month" (3 significant digits), "Tenants per fault", "Contexts per fault" (2
/// decimals), "Outage s".
class FaultExposureModel : public RecordTableModel {
  Q_OBJECT

 public:
  explicit FaultExposureModel(QObject* parent = nullptr);

  void set_result(const scenario::SimResult& result);

 private:
  struct Row {
    std::string strategy;
    scenario::FaultExposure exposure;
  };
  std::vector<Row> rows_;
};

}  // namespace slicewise::gui
