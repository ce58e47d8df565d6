// Editable table of a scenario's strategies: one row per strategy with its name, kind and the
// parameters the scenario sets (edited in the strategy form).
#pragma once

#include "gui/json_table_model.hpp"

namespace slicewise::gui {

/// /strategies of the document. An unnamed strategy shows its kind's name in grey; the parameters
/// column is strategy_parameters_text() (model_text.hpp) of the parsed strategy.
class StrategyModel : public JsonTableModel {
  Q_OBJECT

 public:
  enum Column : int { kName, kKind, kParameters, kNumColumns };

  explicit StrategyModel(ScenarioDocument* document, QObject* parent = nullptr);
};

}  // namespace slicewise::gui
