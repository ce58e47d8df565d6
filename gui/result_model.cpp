// Table models over an ROI report: its strategies, and its tenants' latencies (see result_model.hpp).
#include "gui/result_model.hpp"

#include <algorithm>

#include <QColor>
#include <QFont>
#include <QStringList>

#include "gui/model_text.hpp"
#include "gui/result_text.hpp"

namespace slicewise::gui {

namespace {

/// The colour of a missed SLA, as the HTML report's td.missed.
const QColor kMissedColour(0xa0, 0x10, 0x10);

/// "phi: 3.21 % over 2 s (allowed 1.0 %)", or "phi: no latency target".
QString tenant_sla_text(const report::TenantRow& t) {
  if (t.sla_target_s <= 0.0) return to_qstring(t.tenant) + ": no latency target";
  return QStringLiteral("%1: %2 % over %3 s (allowed %4 %)")
      .arg(to_qstring(t.tenant), percent_text(t.sla_violation_frac, 2), number_text(t.sla_target_s),
           percent_text(t.sla_max_violation_frac, 1));
}

/// The tenant the rates leave least available; nullptr when the record has no tenant.
const scenario::TenantExposure* least_available(const scenario::FaultRecord& faults) {
  const scenario::TenantExposure* lowest = nullptr;
  for (const auto& t : faults.tenants) {
    if (!lowest || t.availability < lowest->availability) lowest = &t;
  }
  return lowest;
}

/// A small rate as it reads: 3 significant digits ("0.00880", "12.4").
QString rate_text(double value) { return QString::number(value, 'g', 3); }

/// The availability cell's tooltip: every tenant's expected figures, one line each.
QStringList availability_lines(const scenario::FaultRecord& faults) {
  QStringList lines;
  for (const auto& t : faults.tenants) {
    lines << QStringLiteral("%1: %2 % expected; %3 h of outage and %4 interruptions a month")
                 .arg(to_qstring(t.name), percent_text(t.availability, 3), fixed_text(t.outage_hours_per_month, 2),
                      rate_text(t.interruptions_per_month));
  }
  return lines;
}

/// The blast radius cell's tooltip: each fault kind's expected rate and reach, then the run's.
QStringList blast_radius_lines(const scenario::FaultRecord& faults) {
  QStringList lines;
  for (const auto& e : faults.expected) {
    lines << QStringLiteral("%1: %2 a month, %3 tenants (%4 contexts) per fault, down %5 s")
                 .arg(to_qstring(e.kind), rate_text(e.per_month), fixed_text(e.tenants_hit, 2),
                      fixed_text(e.contexts_hit, 2), number_text(e.outage_s));
  }
  const auto repartitions = static_cast<std::size_t>(faults.num_repartitions);
  const std::size_t drawn = faults.events.size() - std::min(repartitions, faults.events.size());
  if (drawn > 0) {
    lines << QStringLiteral("In the run: %1, %2 tenants hit per fault")
                 .arg(count_text(drawn, QStringLiteral("fault"), QStringLiteral("faults")),
                      fixed_text(faults.blast_radius_tenants, 2));
  }
  return lines;
}

}  // namespace

ResultModel::ResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultModel::set_report(const report::RoiReport& report) {
  beginResetModel();
  tenant_rows_ = report.tenants;
  rows_.clear();
  has_faults_ = false;
  for (std::size_t i = 0; i < report.strategies.size(); ++i) {
    Row row;
    row.summary = report.strategies[i];
    row.recommended = static_cast<int>(i) == report.recommended;
    row.baseline = static_cast<int>(i) == report.baseline;
    for (const auto& t : tenant_rows_) {
      if (t.strategy == row.summary.name) row.tenants.push_back(&t);
    }
    for (const auto& simulated : report.result.strategies) {
      if (simulated.name == row.summary.name) row.faults = simulated.faults;
    }
    has_faults_ = has_faults_ || row.faults.has_value();
    rows_.push_back(std::move(row));
  }
  endResetModel();
}

void ResultModel::clear() {
  beginResetModel();
  tenant_rows_.clear();
  rows_.clear();
  has_faults_ = false;
  endResetModel();
}

int ResultModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ResultModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kNumFixedColumns + (has_faults_ ? kNumFaultColumns : 0);
}

bool ResultModel::kinds_differ_from_names() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const Row& row) { return row.summary.kind != row.summary.name; });
}

QVariant ResultModel::fault_display(const Row& row, int column) const {
  if (!row.faults) return missing_text();
  if (column == availability_column()) {
    const auto* lowest = least_available(*row.faults);
    return lowest ? percent_text(lowest->availability, 3) : missing_text();
  }
  // No rate, no expected fault (a schedule or a layout schedule only): no expected radius either.
  return row.faults->expected.empty() ? missing_text() : fixed_text(row.faults->expected_blast_radius, 2);
}

QVariant ResultModel::fault_sort_key(const Row& row, int column) const {
  if (!row.faults) return {};
  if (column == availability_column()) {
    const auto* lowest = least_available(*row.faults);
    return lowest ? sort_value(100.0 * lowest->availability) : QVariant();
  }
  return row.faults->expected.empty() ? QVariant() : sort_value(row.faults->expected_blast_radius);
}

QVariant ResultModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: return display(row, column);
    case kSortRole: return sort_key(row, column);
    case Qt::TextAlignmentRole:
      return column == kStrategy || column == kKind || column == kSla ? QVariant() : QVariant(kNumberAlignment);
    case Qt::FontRole: {
      if (!row.recommended) return {};
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    case Qt::ForegroundRole: return missed(row, column) ? QVariant(kMissedColour) : QVariant();
    case Qt::ToolTipRole: {
      const QString text = tooltip(row, column);
      return text.isEmpty() ? QVariant() : QVariant(text);
    }
    default: return {};
  }
}

QVariant ResultModel::display(const Row& row, int column) const {
  const auto& s = row.summary;
  switch (column) {
    case kStrategy:
      return to_qstring(s.name) + (row.recommended ? " (recommended)" : "") + (row.baseline ? " (baseline)" : "");
    case kKind: return to_qstring(s.kind);
    case kGpus: return QString::number(s.num_gpus);
    case kMonthlyCost: return money_text(s.monthly_usd);
    case kMonthlySavings: return money_text(s.monthly_savings_usd);
    case kSavingsPercent: return percent_text(s.savings_frac, 1);
    case kCostPer1kInSla:
      return s.cost_per_1k_in_sla_usd > 0.0 ? QString::number(s.cost_per_1k_in_sla_usd, 'f', 4) : missing_text();
    case kBusyPercent: return percent_text(s.fleet_busy_frac, 1);
    case kSmUtilPercent: return percent_text(s.fleet_sm_util_frac, 1);
    case kEnergyKwhMonth: return s.monthly_kwh ? QString::number(*s.monthly_kwh, 'f', 1) : missing_text();
    case kSlaViolationsPercent: return percent_text(s.sla_violation_frac, 2);
    case kSla: return s.sla_met ? QStringLiteral("met") : QStringLiteral("missed (%1)").arg(s.num_tenants_missing_sla);
    default: return fault_display(row, column);
  }
}

QVariant ResultModel::sort_key(const Row& row, int column) const {
  const auto& s = row.summary;
  switch (column) {
    case kStrategy: return to_qstring(s.name);
    case kKind: return to_qstring(s.kind);
    case kGpus: return s.num_gpus;
    case kMonthlyCost: return sort_value(s.monthly_usd);
    case kMonthlySavings: return sort_value(s.monthly_savings_usd);
    case kSavingsPercent: return sort_value(100.0 * s.savings_frac);
    case kCostPer1kInSla: return s.cost_per_1k_in_sla_usd > 0.0 ? sort_value(s.cost_per_1k_in_sla_usd) : QVariant();
    case kBusyPercent: return sort_value(100.0 * s.fleet_busy_frac);
    case kSmUtilPercent: return sort_value(100.0 * s.fleet_sm_util_frac);
    case kEnergyKwhMonth: return s.monthly_kwh ? sort_value(*s.monthly_kwh) : QVariant();
    case kSlaViolationsPercent: return sort_value(100.0 * s.sla_violation_frac);
    case kSla: return s.num_tenants_missing_sla;
    default: return fault_sort_key(row, column);
  }
}

bool ResultModel::missed(const Row& row, int column) const {
  return (column == kSla || column == kSlaViolationsPercent) && !row.summary.sla_met;
}

QString ResultModel::tooltip(const Row& row, int column) const {
  QStringList lines;
  if (row.faults && column == availability_column()) {
    lines << availability_lines(*row.faults);
  } else if (row.faults && column == blast_radius_column()) {
    lines << blast_radius_lines(*row.faults);
  } else if (column == kSla) {
    for (const auto* tenant : row.tenants) {
      if (!tenant->sla_met) lines << tenant_sla_text(*tenant);
    }
  }
  for (const auto& issue : row.summary.issues) lines << to_qstring(issue);
  return lines.join('\n');
}

QVariant ResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
      section >= columnCount()) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  const int shown = role == Qt::ToolTipRole ? 1 : 0;
  if (section < kNumFixedColumns) {
    // Short headers with their units, on two lines where that narrows the column, so the table keeps its width for the
    // numbers; the tooltip says it in full. In Column order.
    static const char* const fixed[kNumFixedColumns][2] = {
        {QT_TR_NOOP("Strategy"), QT_TR_NOOP("Strategy; the recommended one is bold, the baseline is marked")},
        {QT_TR_NOOP("Kind"), QT_TR_NOOP("Sharing strategy kind")},
        {QT_TR_NOOP("GPUs"), QT_TR_NOOP("GPUs the strategy uses")},
        {QT_TR_NOOP("$/month"), QT_TR_NOOP("Monthly cost (USD) at the scenario's prices")},
        {QT_TR_NOOP("Savings\n$/month"), QT_TR_NOOP("Monthly savings (USD) against the baseline")},
        {QT_TR_NOOP("Savings\n%"), QT_TR_NOOP("Savings, % of the baseline's monthly cost")},
        {QT_TR_NOOP("$/1k\nin SLA"),
         QT_TR_NOOP("Cost per 1,000 requests served within their SLA (USD): the saving compared at equal work, "
                    "where the strategies deliver different work (docs/roi.md)")},
        {QT_TR_NOOP("Busy\n%"), QT_TR_NOOP("Fleet busy %, time-weighted over the horizon")},
        {QT_TR_NOOP("SM util\n%"), QT_TR_NOOP("Fleet SM utilisation %")},
        {QT_TR_NOOP("kWh\n/month"),
         QT_TR_NOOP("GPU energy per 730-hour month: each GPU in use from its idle power to its TDP at its SM "
                    "utilisation (information: cloud prices include power)")},
        {QT_TR_NOOP("Over\nSLA %"),
         QT_TR_NOOP("SLA violations: requests over their latency target, % of all arrivals")},
        {QT_TR_NOOP("SLA"), QT_TR_NOOP("Every tenant within its allowed violations, or how many are not")},
    };
    return tr(fixed[section][shown]);
  }
  static const char* const faults[kNumFaultColumns][2] = {
      {QT_TR_NOOP("Avail. %\nexpected"),
       QT_TR_NOOP("Availability expected from the fault rates over the strategy's placement: the lowest "
                  "tenant's, % of a 730-hour month (docs/faults.md)")},
      {QT_TR_NOOP("Blast\nradius"),
       QT_TR_NOOP("Blast radius: tenants a fault is expected to take down, weighted by the fault kinds' rates")},
  };
  return tr(faults[section - kNumFixedColumns][shown]);
}

LatencyModel::LatencyModel(QObject* parent) : QAbstractTableModel(parent) {}

void LatencyModel::set_report(const report::RoiReport& report) {
  beginResetModel();
  tenant_rows_ = report.tenants;
  tenants_.clear();
  targets_.clear();
  strategies_.clear();
  for (const auto& strategy : report.strategies) strategies_.push_back(strategy.name);
  recommended_ = report.recommended;
  for (const auto& t : tenant_rows_) {
    if (std::find(tenants_.begin(), tenants_.end(), t.tenant) != tenants_.end()) continue;
    tenants_.push_back(t.tenant);
    targets_.push_back(t.sla_target_s);
  }
  cells_.assign(tenants_.size(), std::vector<const report::TenantRow*>(strategies_.size(), nullptr));
  for (const auto& t : tenant_rows_) {
    const auto tenant = std::find(tenants_.begin(), tenants_.end(), t.tenant) - tenants_.begin();
    const auto strategy = std::find(strategies_.begin(), strategies_.end(), t.strategy) - strategies_.begin();
    if (strategy == static_cast<std::ptrdiff_t>(strategies_.size())) continue;
    cells_[static_cast<std::size_t>(tenant)][static_cast<std::size_t>(strategy)] = &t;
  }
  endResetModel();
}

void LatencyModel::clear() {
  beginResetModel();
  tenants_.clear();
  targets_.clear();
  strategies_.clear();
  recommended_ = -1;
  tenant_rows_.clear();
  cells_.clear();
  endResetModel();
}

int LatencyModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(tenants_.size());
}

int LatencyModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kNumFixedColumns + 2 * static_cast<int>(strategies_.size());
}

const report::TenantRow* LatencyModel::cell_row(int row, int column) const {
  if (column < kNumFixedColumns) return nullptr;
  return cells_[static_cast<std::size_t>(row)][static_cast<std::size_t>((column - kNumFixedColumns) / 2)];
}

std::optional<double> LatencyModel::number(int row, int column) const {
  if (column == kTarget) {
    const double target = targets_[static_cast<std::size_t>(row)];
    return target > 0.0 ? std::optional<double>(target) : std::nullopt;
  }
  const report::TenantRow* cell = cell_row(row, column);
  if (!cell) return std::nullopt;
  return is_p95(column) ? cell->p95_s : cell->p99_s;
}

QVariant LatencyModel::display(int row, int column) const {
  if (column == kTenant) return to_qstring(tenants_[static_cast<std::size_t>(row)]);
  const auto value = number(row, column);
  if (!value) return missing_text();
  return column == kTarget ? number_text(*value) : seconds_text(*value);
}

QVariant LatencyModel::sort_key(int row, int column) const {
  if (column == kTenant) return to_qstring(tenants_[static_cast<std::size_t>(row)]);
  const auto value = number(row, column);
  return value ? sort_value(*value) : QVariant();
}

QVariant LatencyModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const int row = index.row();
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: return display(row, column);
    case kSortRole: return sort_key(row, column);
    case Qt::TextAlignmentRole: return column == kTenant ? QVariant() : QVariant(kNumberAlignment);
    case Qt::FontRole: {
      if (column < kNumFixedColumns || (column - kNumFixedColumns) / 2 != recommended_) return {};
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    case Qt::ForegroundRole: {
      const report::TenantRow* cell = cell_row(row, column);
      return cell && !cell->sla_met ? QVariant(kMissedColour) : QVariant();
    }
    case Qt::ToolTipRole: {
      const report::TenantRow* cell = cell_row(row, column);
      return cell ? QVariant(tenant_sla_text(*cell)) : QVariant();
    }
    default: return {};
  }
}

QVariant LatencyModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
      section >= columnCount()) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  const bool tip = role == Qt::ToolTipRole;
  if (section == kTenant) return tr("Tenant");
  if (section == kTarget) {
    return tip ? tr("The tenant's end-to-end latency target (s): its SLA allows a share of requests over it")
               : tr("Target\ns");
  }
  const int strategy = (section - kNumFixedColumns) / 2;
  QString name = to_qstring(strategies_[static_cast<std::size_t>(strategy)]);
  if (strategy == recommended_) name += tr(" (recommended)");
  const bool p95 = is_p95(section);
  if (tip) {
    return p95 ? tr("%1: the tenant's 95th-percentile latency (s)").arg(name)
               : tr("%1: the tenant's 99th-percentile latency (s)").arg(name);
  }
  // The strategy's name over the quantile: the column is then only as wide as the name.
  return to_qstring(strategies_[static_cast<std::size_t>(strategy)]) + (p95 ? tr("\np95 s") : tr("\np99 s"));
}

}  // namespace slicewise::gui
