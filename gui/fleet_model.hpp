// Editable table of a scenario's fleet: one row per fleet entry (GPU or instance type, count) with
// the price the entry is costed at.
#pragma once

#include "gui/json_table_model.hpp"

namespace slicewise::gui {

/// /fleet of the document. An entry given by instance type shows its GPU (from the price table)
/// in grey in the GPU column. The price column is the hourly price of one instance under the
/// scenario's pricing option: the instance type's own, or the cheapest instance carrying the GPU.
class FleetModel : public JsonTableModel {
  Q_OBJECT

 public:
  enum Column : int { kGpu, kInstanceType, kCount, kPrice, kNumColumns };

  explicit FleetModel(ScenarioDocument* document, QObject* parent = nullptr);

 private:
  QString gpu_of(int row) const;
  QString price_text(int row) const;
};

}  // namespace slicewise::gui
