// Display text and sort keys of the result models (see result_text.hpp).
#include "gui/result_text.hpp"

#include <cmath>
#include <string>

#include "report/text_table.hpp"

namespace slicewise::gui {

namespace {

/// `text` of a signed value with "+" in front when it is positive and not zero once printed.
QString with_sign(double value, const std::string& text) {
  const bool zero = text.find_first_of("123456789") == std::string::npos;
  return QString::fromStdString((value > 0.0 && !zero ? "+" : "") + text);
}

}  // namespace

QString missing_text() { return QStringLiteral("—"); }

QString money_text(double usd) { return QString::fromStdString(report::format_usd(usd)); }

QString percent_text(double frac, int decimals) {
  return QString::fromStdString(report::format_fixed(100.0 * frac, decimals));
}

QString seconds_text(double seconds) { return QString::fromStdString(report::format_fixed(seconds, 3)); }

QString fixed_text(double value, int decimals) { return QString::fromStdString(report::format_fixed(value, decimals)); }

QString money_delta_text(double usd) { return with_sign(usd, report::format_usd(usd)); }

QString percent_delta_text(double frac, int decimals) {
  return with_sign(frac, report::format_fixed(100.0 * frac, decimals));
}

QString seconds_delta_text(double seconds) { return with_sign(seconds, report::format_fixed(seconds, 3)); }

QVariant sort_value(double value) { return std::isnan(value) ? QVariant() : QVariant(value); }

}  // namespace slicewise::gui
