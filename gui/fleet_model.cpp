// Editable table of a scenario's fleet (see fleet_model.hpp).
#include "gui/fleet_model.hpp"

#include <exception>
#include <optional>

#include "pricing/roi.hpp"
#include "report/text_table.hpp"
#include "scenario/validate.hpp"

namespace slicewise::gui {

namespace {

/// The instance types the combo box offers: those of the document's price table, or of every
/// shipped table while the document names none it can resolve.
QStringList instance_types(const std::optional<pricing::PriceTable>& table) {
  QStringList types;
  if (table) {
    for (const auto& type : table->instance_types()) types << QString::fromStdString(type);
    return types;
  }
  for (const auto& shipped : pricing::shipped_price_tables()) {
    for (const auto& type : shipped.instance_types()) types << QString::fromStdString(type);
  }
  return types;
}

}  // namespace

FleetModel::FleetModel(ScenarioDocument* document, QObject* parent) : JsonTableModel(document, "/fleet", parent) {
  add_field(FieldSpec(tr("GPU"), "/gpu", FieldType::choice)
                .with_choices(gpu_choices())
                .with_tooltip(tr("GPU catalog id (slicewise gpus); leave empty when giving an instance type")),
            [this](int row) {
              return row < static_cast<int>(gpus_.size()) ? gpus_[static_cast<std::size_t>(row)] : QString();
            });
  add_field(FieldSpec(tr("Instance type"), "/instance_type", FieldType::choice)  // choices: document_checked()
                .with_tooltip(tr("A priced instance (slicewise prices); its GPUs come from the price table")));
  add_field(
      FieldSpec(tr("Count"), "/count", FieldType::integer)
          .with_tooltip(tr("GPUs (by GPU) or instances (by instance type) the strategies may use")),
      [](int) { return QStringLiteral("1"); }, true);
  add_derived(tr("Price per instance"), [this](int row) {
    return row < static_cast<int>(prices_.size()) ? prices_[static_cast<std::size_t>(row)] : QString();
  });
  document_checked();  // the base class cannot call it while this part is not built yet
}

void FleetModel::document_checked() {
  gpus_.clear();
  prices_.clear();
  const auto& parsed = document()->scenario();
  std::optional<pricing::PriceTable> table;
  try {
    if (parsed) table = scenario::resolve_price_table(*parsed, scenario::Catalogs::shipped());
  } catch (const std::exception&) {
    // The document check reports why the table cannot be used; the prices stay empty.
  }
  set_choices(kInstanceType, instance_types(table));
  if (!parsed) return;
  for (const scenario::FleetEntry& entry : parsed->fleet) {
    const std::string gpu = scenario::fleet_gpu_id(entry, *parsed, scenario::Catalogs::shipped());
    gpus_.push_back(QString::fromStdString(gpu));
    QString price;
    if (table && !gpu.empty()) {
      const auto line = pricing::cheapest_gpu_instances(*table, gpu, 1, parsed->pricing.option, parsed->pricing.region,
                                                        entry.instance_type);
      price = line ? tr("$%1/h (%2)")
                         .arg(QString::fromStdString(report::format_fixed(line->usd_per_hour_each, 2)),
                              QString::fromStdString(line->instance_type))
                   : tr("no %1 price").arg(QString::fromStdString(pricing::to_string(parsed->pricing.option)));
    }
    prices_.push_back(price);
  }
}

}  // namespace slicewise::gui
