// Editable table of a scenario's fleet: one row per fleet entry (GPU or instance type, count) with
// the price the entry is costed at.
#pragma once

#include <vector>

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

 protected:
  void document_checked() override;

 private:
  /// Per fleet entry, computed once per document check: its GPU and its price text.
  std::vector<QString> gpus_;
  std::vector<QString> prices_;
};

}  // namespace slicewise::gui
