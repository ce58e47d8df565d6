// The editor's fields of the declared strategy parameters (see param_fields.hpp).
#include "gui/param_fields.hpp"

namespace slicewise::gui {

QStringList kind_names(const std::vector<models::StrategyKind>& kinds) {
  QStringList names;
  for (const auto kind : kinds) names << QString::fromStdString(models::to_string(kind));
  return names;
}

std::optional<FieldSpec> param_field(const std::string& key, scenario::ParamType type, const std::string& label,
                                     const std::vector<std::string>& choices, const std::string& default_text,
                                     const std::string& help, const std::string& allowed,
                                     const std::vector<models::StrategyKind>& kinds) {
  using scenario::ParamType;
  FieldType field_type = FieldType::text;
  switch (type) {
    case ParamType::count: field_type = FieldType::integer; break;
    case ParamType::number: field_type = FieldType::number; break;
    case ParamType::boolean: field_type = FieldType::boolean; break;
    case ParamType::choice:
    case ParamType::mig_profile: field_type = FieldType::choice; break;
    case ParamType::text: field_type = FieldType::text; break;
    case ParamType::mig_layout:
    case ParamType::layouts:
    case ParamType::layout_schedule: return std::nullopt;
  }
  QStringList names;
  for (const auto& choice : choices) names << QString::fromStdString(choice);
  QString tooltip = kind_names(kinds).join(", ") + ": " + QString::fromStdString(scenario::plain_help(help));
  if (!allowed.empty()) tooltip += " (" + QString::fromStdString(scenario::plain_help(allowed)) + ")";
  return FieldSpec(QString::fromStdString(label), "/" + key, field_type)
      .with_choices(names)
      .with_placeholder(QString::fromStdString(scenario::plain_help(default_text)))
      .with_tooltip(tooltip);
}

}  // namespace slicewise::gui
