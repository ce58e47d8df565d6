// The MIG layout figure: one row per GPU cut into MIG instances, its memory slots dashed and each
// instance a box over the slots it occupies, labelled with its profile and tenants.
#include "report/render/mig_layout_figure.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/mig_catalog.hpp"

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
  const auto at = d.name.rfind('@');
  box.start = at == std::string::npos ? 0 : std::atoi(d.name.c_str() + at + 1);
  box.width = profile ? profile->memory_slices : 1;
  std::set<std::string> tenants;
  for (const auto& context : d.contexts) tenants.insert(context.substr(0, context.rfind('#')));
  box.text = d.mig_profile;
  for (const auto& tenant : tenants) box.text += "\n" + tenant;
  return box;
}

/// Every GPU cut into MIG instances, strategy by strategy, each strategy's GPUs by index.
std::vector<MigRow> mig_rows(const report::RoiReport& r) {
  std::vector<MigRow> rows;
  const auto& catalog = models::MigCatalog::shipped();
  for (const auto& s : r.result.strategies) {
    std::map<int, MigRow> by_gpu;
    for (const auto& d : s.devices) {
      if (d.mig_profile.empty()) continue;
      const auto* gpu = catalog.find(d.gpu);
      const auto* profile = gpu ? gpu->find(d.mig_profile) : nullptr;
      auto& row = by_gpu[d.gpu_index];
      row.label = s.name + "  gpu" + std::to_string(d.gpu_index) + " (" + d.gpu + ")";
      if (gpu) row.num_slots = gpu->memory_slots;
      row.boxes.push_back(instance_box(d, profile));
    }
    for (auto& [index, row] : by_gpu) rows.push_back(std::move(row));
  }
  return rows;
}

void draw_title(QPainter& painter, const QRectF& target) {
  QFont title_font = painter.font();
  title_font.setPointSizeF(12.0);
  title_font.setBold(true);
  painter.setFont(title_font);
  painter.setPen(Qt::black);
  painter.drawText(QRectF(target.left(), target.top() + 6, target.width(), 24), Qt::AlignHCenter,
                   "MIG layout (memory slots)");
}

/// One GPU's row at height `y`: its label in the first `label_w` pixels, then its slots and boxes.
void draw_row(QPainter& painter, const MigRow& row, const QRectF& target, double y, double label_w, double row_h) {
  static const QColor colours[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48)};
  painter.setPen(Qt::black);
  painter.drawText(QRectF(target.left() + 4, y, label_w - 8, row_h - 8),
                   Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, qs(row.label));
  const double slot_w = (target.width() - label_w - 8) / row.num_slots;
  for (int slot = 0; slot < row.num_slots; ++slot) {
    painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 1, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(target.left() + label_w + slot * slot_w, y, slot_w, row_h - 8));
  }
  for (std::size_t b = 0; b < row.boxes.size(); ++b) {
    const auto& box = row.boxes[b];
    const QRectF rect(target.left() + label_w + box.start * slot_w + 2, y + 2, box.width * slot_w - 4, row_h - 12);
    painter.setPen(QPen(Qt::black, 1));
    painter.setBrush(colours[b % 6].lighter(150));
    painter.drawRoundedRect(rect, 4, 4);
    painter.drawText(rect.adjusted(4, 2, -4, -2), Qt::AlignCenter | Qt::TextWordWrap, qs(box.text));
  }
}

}  // namespace

void draw_mig_layout(const report::RoiReport& r, QPainter& painter, const QRectF& target) {
  const std::vector<MigRow> rows = mig_rows(r);
  painter.save();
  draw_title(painter, target);
  const double label_w = std::min(260.0, target.width() * 0.3);
  const double top = target.top() + 40;
  const double row_h = std::min(90.0, (target.height() - 50) / std::max<std::size_t>(1, rows.size()));
  QFont text_font = painter.font();
  text_font.setPointSizeF(std::clamp(row_h / 9.0, 6.0, 9.0));
  text_font.setBold(false);
  painter.setFont(text_font);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    draw_row(painter, rows[i], target, top + row_h * static_cast<double>(i), label_w, row_h);
  }
  painter.restore();
}

}  // namespace slicewise::render
