// Display text of scenario fields, shared by the table models: numbers as the shortest decimal
// that reads back exactly (as the CLI prints them), enums and keys spelled as in the JSON input.
#pragma once

#include <optional>
#include <string>

#include <QString>

#include "scenario/scenario.hpp"

namespace slicewise::gui {

/// Qt::TextAlignmentRole value of numeric cells (an int, as item delegates read it).
inline constexpr int kNumberAlignment = Qt::AlignRight | Qt::AlignVCenter;

/// UTF-8 std::string -> QString.
QString to_qstring(const std::string& text);

/// "1 tenant", "2 tenants".
QString count_text(std::size_t count, const QString& one, const QString& many);

/// Shortest decimal text that reads back as `value` ("19.2", "0.609", "1e-06").
QString number_text(double value);

/// number_text(*value), or "" when unset.
QString number_text(const std::optional<double>& value);

/// One line describing where a tenant's requests come from, e.g. "poisson 2/s",
/// "closed_loop 4 users, think 1.5 s", "trace traces/a.csv (azure-llm)"; a multiplier other than 1
/// is appended as " ×1.5".
QString load_text(const scenario::LoadSpec& load);

/// The strategy's explicitly set parameters as `key=value` (JSON key names), joined by ", ", then
/// each per-tenant override as "tenant: key=value, ...", separated by "; ". "" when everything
/// is left at its default (e.g. a plain dedicated strategy).
QString strategy_parameters_text(const scenario::StrategySpec& strategy);

/// The same items as strategy_parameters_text, one per line (for tooltips).
QString strategy_parameters_detail(const scenario::StrategySpec& strategy);

}  // namespace slicewise::gui
