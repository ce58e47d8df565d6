// Fields of the scenario document (see json_field.hpp).
#include "gui/json_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/gpu_catalog.hpp"

namespace slicewise::gui {

QString field_text(const Json* value) {
  if (!value || value->is_null()) return {};
  if (value->is_string()) return QString::fromStdString(value->get<std::string>());
  if (value->is_number()) return QString::fromStdString(format_number(value->get<double>()));
  if (value->is_array() && !value->empty() &&
      std::all_of(value->begin(), value->end(), [](const Json& v) { return v.is_number(); })) {
    QStringList items;
    for (const Json& v : *value) items << QString::fromStdString(format_number(v.get<double>()));
    return items.join(QStringLiteral(", "));
  }
  if (value->is_array() && !value->empty() &&
      std::all_of(value->begin(), value->end(), [](const Json& v) { return v.is_string(); })) {
    QStringList items;
    for (const Json& v : *value) items << QString::fromStdString(v.get<std::string>());
    return items.join(QStringLiteral(", "));
  }
  return QString::fromStdString(value->dump());
}

std::optional<Json> field_value(const QString& given, FieldType type) {
  const QString text = given.trimmed();
  if (text.isEmpty()) return std::nullopt;
  bool ok = false;
  switch (type) {
    case FieldType::number: {
      const double number = text.toDouble(&ok);
      // "3" stays an integer in the file, and in the check's messages ("got 0", as the CLI says).
      if (ok && std::floor(number) == number && std::abs(number) < 0x1p53)
        return Json(static_cast<std::int64_t>(number));
      if (ok) return Json(number);
      break;
    }
    case FieldType::integer: {
      const qlonglong number = text.toLongLong(&ok);
      if (ok) return Json(number);
      break;
    }
    case FieldType::boolean:
      if (text == QLatin1String("true")) return Json(true);
      if (text == QLatin1String("false")) return Json(false);
      break;
    case FieldType::list: {
      Json list = Json::array();
      for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const double number = item.trimmed().toDouble(&ok);
        if (!ok) return Json(text.toStdString());
        list.push_back(number);
      }
      return list;
    }
    case FieldType::words: {
      Json list = Json::array();
      for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        list.push_back(item.trimmed().toStdString());
      return list;
    }
    case FieldType::json: {
      Json parsed = Json::parse(text.toStdString(), nullptr, /*allow_exceptions=*/false);
      if (!parsed.is_discarded()) return parsed;
      break;
    }
    case FieldType::text:
    case FieldType::choice: break;
  }
  return Json(text.toStdString());
}

bool field_applies(const FieldSpec& field, const ScenarioDocument& document, const std::string& base) {
  if (field.when_pointer.empty()) return true;
  const Json* value = document.value_at(base + field.when_pointer);
  const QString current =
      value && value->is_string() ? QString::fromStdString(value->get<std::string>()) : field.when_default;
  return field.when_values.contains(current);
}

QStringList gpu_choices() {
  QStringList ids;
  for (const auto& gpu : models::GpuCatalog::shipped().gpus()) ids << QString::fromStdString(gpu.id);
  return ids;
}

QString diagnostics_text(const Diagnostics& diagnostics) {
  QStringList lines;
  for (const Diagnostic& d : diagnostics) lines << QString::fromStdString(d.message);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace slicewise::gui
