// Table models of one run's detail (see strategy_detail_models.hpp).
#include "gui/strategy_detail_models.hpp"

#include <algorithm>
#include <utility>

#include "gui/model_text.hpp"
#include "gui/result_text.hpp"

namespace slicewise::gui {

namespace {

using Column = RecordTableModel::Column;
using Text = std::function<QString(int)>;
using Sort = std::function<QVariant(int)>;

Column text_column(QString header, QString tooltip, Text text) {
  return Column{std::move(header), std::move(tooltip), false, std::move(text), Sort()};
}

Column number_column(QString header, QString tooltip, Text text, Sort sort) {
  return Column{std::move(header), std::move(tooltip), true, std::move(text), std::move(sort)};
}

/// A count's cell: its digits, sorted as a number.
Column count_column(QString header, QString tooltip, const std::function<qint64(int)>& count) {
  return number_column(
      std::move(header), std::move(tooltip), [count](int row) { return QString::number(count(row)); },
      [count](int row) { return QVariant(count(row)); });
}

/// A number's cell with `decimals` decimals (fractions as percentages when `percent`).
Column fixed_column(QString header, QString tooltip, const std::function<double(int)>& value, int decimals,
                    bool percent = false) {
  return number_column(
      std::move(header), std::move(tooltip),
      [value, decimals, percent](int row) {
        return percent ? percent_text(value(row), decimals) : fixed_text(value(row), decimals);
      },
      [value, percent](int row) { return sort_value(percent ? 100.0 * value(row) : value(row)); });
}

/// "a#0, b#1", or `none` when the list is empty.
QString joined(const std::vector<std::string>& items, const QString& none) {
  if (items.empty()) return none;
  QStringList texts;
  for (const auto& item : items) texts << to_qstring(item);
  return texts.join(QStringLiteral(", "));
}

std::size_t at(int row) { return static_cast<std::size_t>(row); }

}  // namespace

RecordTableModel::RecordTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QStringList RecordTableModel::headers() const {
  QStringList out;
  for (const Column& column : columns_) out << column.header;
  return out;
}

int RecordTableModel::column_of(const QString& header) const {
  const auto found =
      std::find_if(columns_.begin(), columns_.end(), [&](const Column& column) { return column.header == header; });
  return found == columns_.end() ? -1 : static_cast<int>(found - columns_.begin());
}

void RecordTableModel::clear() { reset({}, {}); }

void RecordTableModel::reset(std::vector<Column> columns, const std::function<int()>& load) {
  beginResetModel();
  columns_ = std::move(columns);
  rows_ = load ? load() : 0;
  endResetModel();
}

int RecordTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows_; }

int RecordTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant RecordTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Column& column = columns_[static_cast<std::size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole: return column.text(index.row());
    case kSortRole: return column.sort ? column.sort(index.row()) : QVariant(column.text(index.row()));
    case Qt::TextAlignmentRole: return column.numeric ? QVariant(kNumberAlignment) : QVariant();
    default: return {};
  }
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount() ||
      (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  const Column& column = columns_[static_cast<std::size_t>(section)];
  return role == Qt::DisplayRole ? column.header : column.tooltip;
}

TenantResultModel::TenantResultModel(QObject* parent) : RecordTableModel(parent) {
  set_strategy(scenario::StrategyResult{});
}

void TenantResultModel::set_strategy(const scenario::StrategyResult& strategy) {
  std::vector<Column> columns = run_columns();
  if (strategy.faults) {
    for (Column& column : fault_columns()) columns.push_back(std::move(column));
  }
  reset(std::move(columns), [&] {
    tenants_ = strategy.tenants;
    has_faults_ = strategy.faults.has_value();
    expected_.assign(tenants_.size(), std::nullopt);
    for (std::size_t i = 0; i < tenants_.size() && strategy.faults; ++i) {
      for (const auto& e : strategy.faults->tenants) {
        if (e.name == tenants_[i].name) expected_[i] = e;
      }
    }
    return static_cast<int>(tenants_.size());
  });
}

RecordTableModel::Column TenantResultModel::latency_column(bool p99) const {
  const auto tenant = [this](int row) -> const scenario::TenantResult& { return tenants_[at(row)]; };
  const auto value = [tenant, p99](int row) {
    const auto& t = tenant(row);
    return t.num_completed == 0 ? std::optional<double>()
                                : std::optional<double>(p99 ? t.latency_s.p99 : t.latency_s.p95);
  };
  return number_column(
      p99 ? tr("p99 s") : tr("p95 s"), p99 ? tr("99th-percentile latency (s)") : tr("95th-percentile latency (s)"),
      [value](int row) { return value(row) ? seconds_text(*value(row)) : missing_text(); },
      [value](int row) { return value(row) ? sort_value(*value(row)) : QVariant(); });
}

std::vector<RecordTableModel::Column> TenantResultModel::run_columns() const {
  const auto tenant = [this](int row) -> const scenario::TenantResult& { return tenants_[at(row)]; };
  return {
      text_column(tr("Tenant"), tr("Tenant"), [tenant](int row) { return to_qstring(tenant(row).name); }),
      number_column(
          tr("Contexts"), tr("Contexts placed; the ones that found no device in brackets"),
          [tenant](int row) {
            const auto& t = tenant(row);
            return t.num_contexts_unplaced == 0
                       ? QString::number(t.num_contexts)
                       : tr("%1 (+%2 unplaced)").arg(t.num_contexts).arg(t.num_contexts_unplaced);
          },
          [tenant](int row) { return QVariant(tenant(row).num_contexts); }),
      count_column(tr("Completed"), tr("Requests completed in the measured window"),
                   [tenant](int row) { return tenant(row).num_completed; }),
      latency_column(false),
      latency_column(true),
      fixed_column(
          tr("Over\nSLA %"), tr("Requests over a target, dropped or unfinished, % of arrivals"),
          [tenant](int row) { return tenant(row).sla_violation_frac; }, 2, true),
      text_column(tr("SLA"), tr("Within its allowed violations, or not"),
                  [tenant](int row) {
                    const auto& t = tenant(row);
                    return t.num_arrived == 0 ? tr("no requests") : t.sla_met ? tr("met") : tr("missed");
                  }),
  };
}

std::vector<RecordTableModel::Column> TenantResultModel::fault_columns() const {
  const auto tenant = [this](int row) -> const scenario::TenantResult& { return tenants_[at(row)]; };
  const auto expected = [this](int row) -> const std::optional<scenario::TenantExposure>& {
    return expected_[at(row)];
  };
  return {
      count_column(tr("Interruptions"), tr("Times one of its contexts went down in the run"),
                   [tenant](int row) { return tenant(row).num_interruptions; }),
      count_column(tr("Failed"),
                   tr("Requests lost when their context went down and not re-sent (counted as SLA violations)"),
                   [tenant](int row) { return tenant(row).num_failed; }),
      count_column(tr("Retried"), tr("Requests re-sent after their context went down"),
                   [tenant](int row) { return tenant(row).num_retried; }),
      fixed_column(
          tr("Downtime\ns"), tr("Measured time with none of its contexts up (s)"),
          [tenant](int row) { return tenant(row).downtime_s; }, 1),
      fixed_column(
          tr("Avail. %\nrun"), tr("Availability in the run: 1 − downtime / measured time"),
          [tenant](int row) { return tenant(row).availability; }, 3, true),
      number_column(
          tr("Avail. %\nexpected"),
          tr("Availability expected from the fault rates over the strategy's placement, % of a 730-hour month"),
          [expected](int row) { return expected(row) ? percent_text(expected(row)->availability, 3) : missing_text(); },
          [expected](int row) { return expected(row) ? sort_value(100.0 * expected(row)->availability) : QVariant(); }),
      number_column(
          tr("Outage\nh/month"), tr("Expected hours a month with none of its contexts up"),
          [expected](int row) {
            return expected(row) ? fixed_text(expected(row)->outage_hours_per_month, 2) : missing_text();
          },
          [expected](int row) {
            return expected(row) ? sort_value(expected(row)->outage_hours_per_month) : QVariant();
          }),
  };
}

DeviceResultModel::DeviceResultModel(QObject* parent) : RecordTableModel(parent) {
  set_strategy(scenario::StrategyResult{});
}

void DeviceResultModel::set_strategy(const scenario::StrategyResult& strategy) {
  const auto device = [this](int row) -> const scenario::DeviceResult& { return devices_[at(row)]; };
  const bool phases = std::any_of(strategy.devices.begin(), strategy.devices.end(),
                                  [](const scenario::DeviceResult& d) { return !d.phase.empty(); });
  std::vector<Column> columns = {
      text_column(tr("Device"), tr("Device: a whole GPU, or a MIG instance at its placement"),
                  [device](int row) { return to_qstring(device(row).name); }),
      text_column(tr("GPU"), tr("The GPU's catalog id"), [device](int row) { return to_qstring(device(row).gpu); }),
      text_column(tr("MIG profile"), tr("The instance's MIG profile; — for a whole GPU"),
                  [device](int row) {
                    return device(row).mig_profile.empty() ? missing_text() : to_qstring(device(row).mig_profile);
                  }),
  };
  if (phases) {
    columns.push_back(text_column(tr("Phase"), tr("The phase of the MIG layout schedule the device belongs to"),
                                  [device](int row) { return to_qstring(device(row).phase); }));
  }
  columns.push_back(text_column(tr("Contexts"), tr("The contexts placed on it (tenant#k)"),
                                [device](int row) { return joined(device(row).contexts, missing_text()); }));
  columns.push_back(fixed_column(
      tr("Busy\n%"), tr("Time-average share of time some context had GPU work"),
      [device](int row) { return device(row).busy_frac; }, 1, true));
  columns.push_back(fixed_column(
      tr("SM util\n%"), tr("Time-average SM-weighted utilisation"),
      [device](int row) { return device(row).sm_util_frac; }, 1, true));
  columns.push_back(number_column(
      tr("Memory\nGiB"), tr("Memory its contexts hold / the device's capacity (GiB)"),
      [device](int row) {
        const auto& d = device(row);
        return fixed_text(d.memory_allocated_gib, 1) + QStringLiteral(" / ") + fixed_text(d.memory_capacity_gib, 1);
      },
      [device](int row) { return sort_value(device(row).memory_allocated_gib); }));
  if (strategy.faults && phases) {
    columns.push_back(fixed_column(
        tr("Out of\nphase s"), tr("Time its layout phase was not in force: another phase, or re-partitioning"),
        [device](int row) { return device(row).out_of_phase_s; }, 1));
  }
  if (strategy.faults) {
    columns.push_back(fixed_column(
        tr("Down\ns"), tr("Time the device was off in its own phase: GPU failures and resets"),
        [device](int row) { return device(row).down_s; }, 1));
  }
  reset(std::move(columns), [&] {
    devices_ = strategy.devices;
    return static_cast<int>(devices_.size());
  });
}

FaultEventModel::FaultEventModel(QObject* parent) : RecordTableModel(parent) { set_result(scenario::SimResult{}); }

void FaultEventModel::set_result(const scenario::SimResult& result) {
  const auto row_at = [this](int row) -> const Row& { return rows_[at(row)]; };
  const auto event = [row_at](int row) -> const scenario::FaultEvent& { return row_at(row).event; };
  std::vector<Column> columns = {
      text_column(tr("Strategy"), tr("Strategy"), [row_at](int row) { return to_qstring(row_at(row).strategy); }),
      fixed_column(
          tr("Time\ns"), tr("Simulated time of the fault (s)"), [event](int row) { return event(row).at_s; }, 1),
      text_column(tr("Kind"), tr("gpu_failure, driver_reset, tenant_crash, mps_server_fault or repartition"),
                  [event](int row) { return to_qstring(event(row).kind); }),
      count_column(tr("GPU"), tr("The GPU it struck: its index in the strategy's fleet"),
                   [event](int row) { return event(row).gpu_index; }),
      text_column(
          tr("Origin"), tr("The context that crashed, or the phases a re-partition goes between"),
          [event](int row) { return event(row).origin.empty() ? missing_text() : to_qstring(event(row).origin); }),
      text_column(tr("Hit"), tr("The contexts it took down (tenant#k)"),
                  [event](int row) { return joined(event(row).contexts_hit, tr("nothing")); }),
      count_column(tr("Tenants\nhit"), tr("Distinct tenants among the contexts it took down"),
                   [event](int row) { return event(row).tenants_hit; }),
      fixed_column(
          tr("Outage\ns"), tr("Until what it took down served again (s)"),
          [event](int row) { return event(row).outage_s; }, 1),
      text_column(tr("From"), tr("schedule: the scenario's fault schedule or layout schedule; drawn: from the rates"),
                  [event](int row) { return event(row).scheduled ? tr("schedule") : tr("drawn"); }),
  };
  reset(std::move(columns), [&] {
    rows_.clear();
    for (const auto& strategy : result.strategies) {
      if (!strategy.faults) continue;
      for (const auto& e : strategy.faults->events) rows_.push_back(Row{strategy.name, e});
    }
    return static_cast<int>(rows_.size());
  });
}

FaultExposureModel::FaultExposureModel(QObject* parent) : RecordTableModel(parent) {
  set_result(scenario::SimResult{});
}

void FaultExposureModel::set_result(const scenario::SimResult& result) {
  const auto row_at = [this](int row) -> const Row& { return rows_[at(row)]; };
  const auto exposure = [row_at](int row) -> const scenario::FaultExposure& { return row_at(row).exposure; };
  std::vector<Column> columns = {
      text_column(tr("Strategy"), tr("Strategy"), [row_at](int row) { return to_qstring(row_at(row).strategy); }),
      text_column(tr("Kind"), tr("Fault kind with a rate above 0"),
                  [exposure](int row) { return to_qstring(exposure(row).kind); }),
      number_column(
          tr("Per\nmonth"), tr("Faults expected per 730-hour month over the GPUs or contexts exposed"),
          [exposure](int row) { return QString::number(exposure(row).per_month, 'g', 3); },
          [exposure](int row) { return sort_value(exposure(row).per_month); }),
      fixed_column(
          tr("Tenants\nper fault"), tr("Blast radius: tenants one fault is expected to take down"),
          [exposure](int row) { return exposure(row).tenants_hit; }, 2),
      fixed_column(
          tr("Contexts\nper fault"), tr("Contexts one fault is expected to take down"),
          [exposure](int row) { return exposure(row).contexts_hit; }, 2),
      number_column(
          tr("Outage\ns"), tr("How long what a fault hits is down (s)"),
          [exposure](int row) { return number_text(exposure(row).outage_s); },
          [exposure](int row) { return sort_value(exposure(row).outage_s); }),
  };
  reset(std::move(columns), [&] {
    rows_.clear();
    for (const auto& strategy : result.strategies) {
      if (!strategy.faults) continue;
      for (const auto& e : strategy.faults->expected) rows_.push_back(Row{strategy.name, e});
    }
    return static_cast<int>(rows_.size());
  });
}

}  // namespace slicewise::gui
