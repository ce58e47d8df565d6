// The ROI report's MIG layout figure, drawn with QPainter (no Qt Charts): each MIG strategy's GPUs
// as rows of memory slots, instances drawn over the slots they occupy. Internal to sw_render (and
// its tests).
#pragma once

#include <cstddef>
#include <vector>

#include <QPainter>
#include <QRectF>
#include <QString>

#include "report/roi_content.hpp"

namespace slicewise::render {

/// Where the figure puts each thing inside its target: everything lies inside it, each instance
/// over its slots (a start or width past the GPU's slots is cut to them).
struct MigLayoutGeometry {
  struct Box {
    QRectF rect;
    QString text;  ///< profile, then its tenants, one a line
    std::size_t colour = 0;
  };
  struct Row {
    QRectF label;
    QString label_text;  ///< strategy, then "gpu<i> (<model>)"
    std::vector<QRectF> memory_slots;
    std::vector<Box> boxes;
  };
  QRectF title;
  std::vector<Row> rows;
  double font_pt = 9.0;  ///< the text's largest size; text that does not fit its box is drawn smaller
};

/// The layout of the figure in `target`.
MigLayoutGeometry mig_layout_geometry(const report::RoiReport& report, const QRectF& target);

/// Draws the layout into `target` (already white), the painter's state restored afterwards. Text
/// shrinks to fit its box and is clipped to it, so nothing is drawn outside `target`.
void draw_mig_layout(const report::RoiReport& report, QPainter& painter, const QRectF& target);

}  // namespace slicewise::render
