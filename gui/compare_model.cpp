// Side-by-side compare of two runs (see compare_model.hpp).
#include "gui/compare_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gui/model_text.hpp"
#include "gui/result_text.hpp"

namespace slicewise::gui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The strategy's metrics in `report`, by CompareModel::Metric.
std::vector<double> values_of(const report::RoiReport& report, const report::StrategySummary& s) {
  double worst_p95_s = kNaN;
  for (const auto& t : report.tenants) {
    if (t.strategy == s.name && (std::isnan(worst_p95_s) || t.p95_s > worst_p95_s)) worst_p95_s = t.p95_s;
  }
  return {s.monthly_usd, s.monthly_savings_usd, s.sla_violation_frac, s.fleet_busy_frac, worst_p95_s};
}

/// A metric's cell text: the value itself, or with `delta` a signed difference.
QString metric_text(int metric, double value, bool delta) {
  if (std::isnan(value)) return missing_text();
  switch (metric) {
    case CompareModel::kMonthlyCost:
    case CompareModel::kMonthlySavings: return delta ? money_delta_text(value) : money_text(value);
    case CompareModel::kSlaViolationsPercent: return delta ? percent_delta_text(value, 2) : percent_text(value, 2);
    case CompareModel::kBusyPercent: return delta ? percent_delta_text(value, 1) : percent_text(value, 1);
    default: return delta ? seconds_delta_text(value) : seconds_text(value);
  }
}

/// The number kSortRole carries: fractions as percent (points), the rest as they are.
double sort_number(int metric, double value) {
  return metric == CompareModel::kSlaViolationsPercent || metric == CompareModel::kBusyPercent ? 100.0 * value : value;
}

}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::set_runs(const report::RoiReport& a, const report::RoiReport& b) {
  beginResetModel();
  rows_.clear();
  const auto row_of = [&](const std::string& name) -> Row& {
    auto found = std::find_if(rows_.begin(), rows_.end(), [&](const Row& row) { return row.strategy == name; });
    if (found != rows_.end()) return *found;
    rows_.push_back(Row{name, std::nullopt, std::nullopt});
    return rows_.back();
  };
  for (const auto& s : a.strategies) row_of(s.name).a = values_of(a, s);
  for (const auto& s : b.strategies) row_of(s.name).b = values_of(b, s);
  endResetModel();
}

void CompareModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

int CompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 1 + 3 * kNumMetrics; }

QVariant CompareModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  if (index.column() == kStrategyColumn) {
    return role == Qt::DisplayRole || role == kSortRole ? QVariant(to_qstring(row.strategy)) : QVariant();
  }
  if (role == Qt::TextAlignmentRole) return kNumberAlignment;
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  const int metric = (index.column() - 1) / 3;
  const int side = (index.column() - 1) % 3;
  const auto at = static_cast<std::size_t>(metric);
  const double a = row.a ? (*row.a)[at] : kNaN;
  const double b = row.b ? (*row.b)[at] : kNaN;
  const double value = side == kA ? a : side == kB ? b : b - a;  // NaN when either side is missing
  if (role == kSortRole) return sort_value(sort_number(metric, value));
  return metric_text(metric, value, side == kDelta);
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
      section >= columnCount()) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  const bool tip = role == Qt::ToolTipRole;
  if (section == kStrategyColumn) return tr("Strategy");
  // Short headers with their units, as ResultModel's; the tooltip says which run.
  static const char* const metrics[] = {QT_TR_NOOP("$/month"), QT_TR_NOOP("Savings $/month"), QT_TR_NOOP("Over SLA %"),
                                        QT_TR_NOOP("Busy %"), QT_TR_NOOP("Worst p95 s")};
  static const char* const full[] = {QT_TR_NOOP("Monthly cost (USD)"),
                                     QT_TR_NOOP("Monthly savings (USD) against the run's baseline"),
                                     QT_TR_NOOP("SLA violations, % of arrivals"), QT_TR_NOOP("Fleet busy %"),
                                     QT_TR_NOOP("The largest p95 latency over the strategy's tenants (s)")};
  static const char* const sides[] = {" A", " B", " Δ"};
  static const char* const side_tips[] = {QT_TR_NOOP(" in run A"), QT_TR_NOOP(" in run B"),
                                          QT_TR_NOOP(": run B minus run A")};
  const int metric = (section - 1) / 3, side = (section - 1) % 3;
  if (tip) return tr(full[metric]) + tr(side_tips[side]);
  return tr(metrics[metric]) + QString::fromUtf8(sides[side]);
}

}  // namespace slicewise::gui
