// The MIG layout figure: one row per GPU cut into MIG instances, its memory slots dashed and each
// instance a box over the slots it occupies, labelled with its profile and tenants.
//
// Everything is laid out inside the target first (mig_layout_geometry) and text is fitted to its
// box: a long strategy name, GPU model or tenant list once ran past the figure's right edge, where
// the PDF cut it off.
#include "report/render/mig_layout_figure.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <QFontMetricsF>

#include "models/mig_catalog.hpp"
#include "report/render/chart_kit.hpp"

namespace slicewise::render {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

/// One GPU of a strategy, cut into MIG instances.
struct MigRow {
  std::string label;
  int num_slots = 8;
  struct Box {
    int start = 0;
    int width = 1;
    std::string text;
  };
  std::vector<Box> boxes;
};

/// The box of MIG instance `d` (named "...@<first slot>"), `profile` giving its width.
MigRow::Box instance_box(const scenario::DeviceResult& d, const models::MigProfile* profile) {
  MigRow::Box box;
  box.start = scenario::mig_start_slot(d);
  box.width = profile ? profile->memory_slices : 1;
  std::set<std::string> tenants;
  for (const auto& context : d.contexts) tenants.insert(scenario::tenant_of_context(context));
  box.text = d.mig_profile;
  for (const auto& tenant : tenants) box.text += "\n" + tenant;
  return box;
}

/// Every GPU cut into MIG instances, strategy by strategy, each strategy's GPUs by index; under a
/// layout schedule a row per phase and GPU (the phases in the order the devices list them), as
/// each phase's instances occupy the same slots at other hours.
std::vector<MigRow> mig_rows(const report::RoiReport& r) {
  std::vector<MigRow> rows;
  const auto& catalog = models::MigCatalog::shipped();
  for (const auto& s : r.result.strategies) {
    std::vector<std::string> phases;
    std::map<std::pair<std::size_t, int>, MigRow> by_gpu;
    for (const auto& d : s.devices) {
      if (d.mig_profile.empty()) continue;
      const auto* gpu = catalog.find(d.gpu);
      const auto* profile = gpu ? gpu->find(d.mig_profile) : nullptr;
      auto phase = std::find(phases.begin(), phases.end(), d.phase);
      if (phase == phases.end()) phase = phases.insert(phases.end(), d.phase);
      auto& row = by_gpu[{static_cast<std::size_t>(phase - phases.begin()), d.gpu_index}];
      row.label = s.name + (d.phase.empty() ? std::string() : ", " + d.phase) + "\ngpu" + std::to_string(d.gpu_index) +
                  " (" + d.gpu + ")";
      if (gpu) row.num_slots = std::max(1, gpu->memory_slots);
      row.boxes.push_back(instance_box(d, profile));
    }
    for (auto& [index, row] : by_gpu) rows.push_back(std::move(row));
  }
  return rows;
}

/// Row `row` of the figure at height `y`, its label in the first `label_w` pixels of `area`.
MigLayoutGeometry::Row row_geometry(const MigRow& row, const QRectF& area, double y, double label_w, double row_h) {
  MigLayoutGeometry::Row out;
  const double h = std::max(0.0, row_h - 8.0);  // 8 pixels between rows
  out.label = QRectF(area.left(), y, std::max(0.0, label_w - 8.0), h);
  out.label_text = qs(row.label);
  const double x0 = area.left() + label_w;
  const double slot_w = std::max(0.0, area.right() - x0) / row.num_slots;
  for (int slot = 0; slot < row.num_slots; ++slot) out.memory_slots.emplace_back(x0 + slot * slot_w, y, slot_w, h);
  for (std::size_t b = 0; b < row.boxes.size(); ++b) {
    const auto& box = row.boxes[b];
    // Within the GPU's slots whatever the instance's name or profile says.
    const int start = std::clamp(box.start, 0, row.num_slots - 1);
    const int width = std::clamp(box.width, 1, row.num_slots - start);
    const QRectF rect(x0 + start * slot_w + 2.0, y + 2.0, std::max(0.0, width * slot_w - 4.0), std::max(0.0, h - 4.0));
    out.boxes.push_back({rect, qs(box.text), b});
  }
  return out;
}

/// `text` in `rect` at the largest size up to `max_pt` that fits, clipped to `rect` all the same.
void draw_fitted_text(QPainter& painter, const QRectF& rect, int flags, const QString& text, double max_pt) {
  if (rect.width() <= 0.0 || rect.height() <= 0.0) return;
  QFont font = painter.font();
  double pt = max_pt;
  for (; pt > 5.0; pt -= 0.5) {
    font.setPointSizeF(pt);
    const QRectF needed = QFontMetricsF(font, painter.device()).boundingRect(rect, flags, text);
    if (needed.width() <= rect.width() + 0.01 && needed.height() <= rect.height() + 0.01) break;
  }
  font.setPointSizeF(std::max(pt, 5.0));
  painter.save();
  painter.setFont(font);
  painter.setClipRect(rect, Qt::IntersectClip);
  painter.drawText(rect, flags, text);
  painter.restore();
}

}  // namespace

MigLayoutGeometry mig_layout_geometry(const report::RoiReport& r, const QRectF& target) {
  const std::vector<MigRow> rows = mig_rows(r);
  MigLayoutGeometry out;
  const QRectF area = target.adjusted(6.0, 6.0, -6.0, -6.0);
  out.title = QRectF(area.left(), area.top(), area.width(), 24.0);
  const double label_w = std::clamp(area.width() * 0.25, std::min(90.0, area.width() / 2.0), 220.0);
  const double top = out.title.bottom() + 10.0;
  const double row_h =
      rows.empty() ? 0.0 : std::clamp((area.bottom() - top) / static_cast<double>(rows.size()), 0.0, 90.0);
  out.font_pt = std::clamp(row_h / 9.0, 6.0, 9.0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.rows.push_back(row_geometry(rows[i], area, top + row_h * static_cast<double>(i), label_w, row_h));
  }
  return out;
}

void draw_mig_layout(const report::RoiReport& r, QPainter& painter, const QRectF& target) {
  const MigLayoutGeometry layout = mig_layout_geometry(r, target);
  painter.save();
  QFont title_font = painter.font();
  title_font.setBold(true);
  painter.setFont(title_font);
  painter.setPen(Qt::black);
  draw_fitted_text(painter, layout.title, Qt::AlignCenter, "MIG layout (memory slots)", 12.0);
  QFont text_font = painter.font();
  text_font.setBold(false);
  painter.setFont(text_font);
  for (const auto& row : layout.rows) {
    painter.setPen(Qt::black);
    draw_fitted_text(painter, row.label, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, row.label_text,
                     layout.font_pt);
    painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 1, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    for (const auto& slot : row.memory_slots) painter.drawRect(slot.adjusted(0.5, 0.5, -0.5, -0.5));
    for (const auto& box : row.boxes) {
      painter.setPen(QPen(Qt::black, 1));
      painter.setBrush(series_colour(box.colour).lighter(150));
      painter.drawRoundedRect(box.rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
      draw_fitted_text(painter, box.rect.adjusted(4, 2, -4, -2), Qt::AlignCenter | Qt::TextWordWrap, box.text,
                       layout.font_pt);
    }
  }
  painter.restore();
}

}  // namespace slicewise::render
