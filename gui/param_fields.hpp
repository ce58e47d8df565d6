// The editor's fields of the strategy parameters scenario/strategy_params.cpp declares: each
// field's label, type, choices, placeholder and tooltip come from the declaration, so that the
// strategy form and the per-tenant table show every key a kind reads, as the reader reads it.
#pragma once

#include <optional>
#include <vector>

#include <QStringList>

#include "gui/json_field.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::gui {

/// The kinds' names, for FieldSpec::when and tooltips.
QStringList kind_names(const std::vector<models::StrategyKind>& kinds);

/// The field of one declared key at `/key`, read by `kinds`: its label with the unit, its type,
/// its choices, its default as the placeholder, and as the tooltip the kinds, what it means and
/// what is allowed. None for a MIG layout, layouts or schedule, which have an editor of their own.
std::optional<FieldSpec> param_field(const std::string& key, scenario::ParamType type, const std::string& label,
                                     const std::vector<std::string>& choices, const std::string& default_text,
                                     const std::string& help, const std::string& allowed,
                                     const std::vector<models::StrategyKind>& kinds);

template <class Owner>
std::optional<FieldSpec> param_field(const scenario::ParamDecl<Owner>& param,
                                     const std::vector<models::StrategyKind>& kinds) {
  return param_field(param.key, param.type, param.label(), param.choices, param.default_text, param.help,
                     param.allowed(), kinds);
}

}  // namespace slicewise::gui
