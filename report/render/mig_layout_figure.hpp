// The ROI report's MIG layout figure, drawn with QPainter (no Qt Charts): each MIG strategy's GPUs
// as rows of memory slots, instances drawn over the slots they occupy. Internal to sw_render.
#pragma once

#include <QPainter>
#include <QRectF>

#include "report/roi_report.hpp"

namespace slicewise::render {

/// Draws the layout into `target` (already white), the painter's state restored afterwards.
void draw_mig_layout(const report::RoiReport& report, QPainter& painter, const QRectF& target);

}  // namespace slicewise::render
