// Display text and sort keys shared by the result models (ResultModel, CompareModel): money as the
// ROI report prints it, percentages and seconds at the report's precision, signed differences.
#pragma once

#include <QString>
#include <QVariant>

namespace slicewise::gui {

/// Item data role carrying a cell's raw value for sorting: a double (USD, percent, seconds), an int
/// (counts) or the text itself; invalid for a missing value, which a QSortFilterProxyModel puts
/// last in ascending order. Set it as the proxy's sortRole to sort numerically.
inline constexpr int kSortRole = Qt::UserRole;

/// What a cell shows when its run or tenant lacks the value: an em dash.
QString missing_text();

/// Money as report::format_usd: "$1,515.25", "-$12.00".
QString money_text(double usd);

/// A fraction (0..1) as a percentage without the sign, report style: percent_text(0.4629, 1) == "46.3".
QString percent_text(double frac, int decimals);

/// Seconds with 3 decimals, as the report's tenant table: "0.609".
QString seconds_text(double seconds);

/// A number with `decimals` decimals, as the report writes them: fixed_text(1.5, 2) == "1.50".
QString fixed_text(double value, int decimals);

/// Signed differences B - A: "+$1,515.25" / "-$12.00" / "$0.00"; percentage points "+1.5" / "-0.25" /
/// "0.0"; seconds "+0.120" / "0.000". Zero (after rounding) has no sign.
QString money_delta_text(double usd);
QString percent_delta_text(double frac, int decimals);
QString seconds_delta_text(double seconds);

/// kSortRole value of a number: the number, or an invalid QVariant when it is NaN.
QVariant sort_value(double value);

}  // namespace slicewise::gui
