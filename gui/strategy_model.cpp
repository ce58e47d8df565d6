// Editable table of a scenario's strategies (see strategy_model.hpp).
#include "gui/strategy_model.hpp"

#include "gui/model_text.hpp"
#include "models/strategy_kind.hpp"

namespace slicewise::gui {

StrategyModel::StrategyModel(ScenarioDocument* document, QObject* parent)
    : JsonTableModel(document, "/strategies", parent) {
  add_field(FieldSpec(tr("Name"), "/name").with_tooltip(tr("Unique label; defaults to the kind")), [this](int row) {
    const Json* kind = this->document()->value_at(row_pointer(row) + "/kind");
    return kind && kind->is_string() ? QString::fromStdString(kind->get<std::string>()) : QString();
  });
  add_field(
      FieldSpec(tr("Kind"), "/kind", FieldType::choice).with_choices(choice_names(models::strategy_kind_table())));
  add_derived(
      tr("Parameters"),
      [this](int row) {
        const auto& parsed = this->document()->scenario();
        if (!parsed || row >= static_cast<int>(parsed->strategies.size())) return QString();
        return strategy_parameters_text(parsed->strategies[static_cast<std::size_t>(row)]);
      },
      [this](int row) {
        const auto& parsed = this->document()->scenario();
        if (!parsed || row >= static_cast<int>(parsed->strategies.size())) return QString();
        return strategy_parameters_detail(parsed->strategies[static_cast<std::size_t>(row)]);
      });
}

}  // namespace slicewise::gui
