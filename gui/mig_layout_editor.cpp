// The MIG layout editor (see mig_layout_editor.hpp).
#include "gui/mig_layout_editor.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include "models/mig_layout.hpp"

namespace slicewise::gui {

namespace {

/// Instance colours by compute slices (1g..7g), the report's palette.
QColor instance_color(int compute_slices) {
  static const QColor colors[] = {QColor("#4e79a7"), QColor("#f28e2b"), QColor("#59a14f"), QColor("#e15759"),
                                  QColor("#76b7b2"), QColor("#edc948"), QColor("#b07aa1")};
  return colors[std::clamp(compute_slices, 1, 7) - 1];
}

}  // namespace

MigSlotsView::MigSlotsView(QWidget* parent) : QWidget(parent) { setMinimumHeight(56); }

void MigSlotsView::set_layout(const models::MigGpu* gpu, const std::vector<std::string>& profiles) {
  gpu_ = gpu;
  instances_.clear();
  if (gpu_) {
    const auto placement = models::place_mig_layout(*gpu_, profiles);
    if (placement.valid) instances_ = placement.instances;
  }
  update();
}

QSize MigSlotsView::sizeHint() const { return {480, 64}; }

void MigSlotsView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  if (!gpu_ || gpu_->memory_slots <= 0) return;
  const QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);
  const double slot_w = area.width() / gpu_->memory_slots;
  painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
  for (int s = 0; s < gpu_->memory_slots; ++s) {
    painter.drawRect(QRectF(area.left() + s * slot_w, area.top(), slot_w, area.height()));
  }
  for (const auto& instance : instances_) {
    const QRectF box(area.left() + instance.start_slot * slot_w + 2, area.top() + 2,
                     instance.memory_slices * slot_w - 4, area.height() - 4);
    painter.setPen(QPen(Qt::black, 1));
    painter.setBrush(instance_color(instance.compute_slices));
    painter.drawRoundedRect(box, 4, 4);
    painter.setPen(Qt::white);
    painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, QString::fromStdString(instance.profile));
  }
}

MigLayoutEditor::MigLayoutEditor(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* controls = new QHBoxLayout;
  presets_ = new QComboBox(this);
  presets_->setObjectName(QStringLiteral("migPresets"));
  presets_->setToolTip(tr("Every maximal valid layout of this GPU"));
  add_ = new QToolButton(this);
  add_->setObjectName(QStringLiteral("migAddProfile"));
  add_->setText(tr("Add instance"));
  add_->setPopupMode(QToolButton::InstantPopup);
  add_menu_ = new QMenu(add_);
  add_->setMenu(add_menu_);
  remove_last_ = new QToolButton(this);
  remove_last_->setObjectName(QStringLiteral("migRemoveLast"));
  remove_last_->setText(tr("Remove last"));
  clear_ = new QToolButton(this);
  clear_->setObjectName(QStringLiteral("migClear"));
  clear_->setText(tr("Clear"));
  controls->addWidget(new QLabel(tr("Preset:"), this));
  controls->addWidget(presets_, 1);
  controls->addWidget(add_);
  controls->addWidget(remove_last_);
  controls->addWidget(clear_);
  layout->addLayout(controls);
  slots_view_ = new MigSlotsView(this);
  slots_view_->setObjectName(QStringLiteral("migSlots"));
  layout->addWidget(slots_view_);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("migStatus"));
  status_->setWordWrap(true);
  layout->addWidget(status_);

  connect(presets_, &QComboBox::activated, this, [this](int index) {
    if (index <= 0) return;  // the "choose a preset" entry
    std::string error;
    choose(models::split_mig_layout(presets_->itemText(index).toStdString(), error));
  });
  connect(remove_last_, &QToolButton::clicked, this, [this] {
    if (!valid_ || profiles_.empty()) return;
    auto fewer = profiles_;
    fewer.pop_back();
    choose(fewer);
  });
  connect(clear_, &QToolButton::clicked, this, [this] { choose({}); });
  set_state({}, {});
}

std::vector<std::string> MigLayoutEditor::presets() const {
  return gpu_ ? models::enumerate_mig_layouts(*gpu_) : std::vector<std::string>{};
}

std::vector<std::string> MigLayoutEditor::addable_profiles() const {
  std::vector<std::string> addable;
  if (!gpu_) return addable;
  const std::vector<std::string> base = valid_ ? profiles_ : std::vector<std::string>{};
  for (const auto& profile : gpu_->profiles) {
    if (profile.media_extensions) continue;
    auto more = base;
    more.push_back(profile.name);
    if (models::place_mig_layout(*gpu_, more).valid) addable.push_back(profile.name);
  }
  return addable;
}

void MigLayoutEditor::set_state(const std::string& gpu_id, const std::string& layout) {
  gpu_ = gpu_id.empty() ? nullptr : models::MigCatalog::shipped().find(gpu_id);
  profiles_.clear();
  valid_ = false;
  presets_->clear();
  presets_->addItem(tr("(choose a preset)"));
  for (const auto& preset : presets()) presets_->addItem(QString::fromStdString(preset));
  QString status;
  if (!gpu_) {
    status = gpu_id.empty()
                 ? tr("Choose the fleet's GPU first.")
                 : tr("%1 has no MIG geometry in the catalog (slicewise mig)").arg(QString::fromStdString(gpu_id));
  } else if (layout.empty()) {
    valid_ = true;
    status = tr("%1: no instances yet (%2 compute slices, %3 memory slots).")
                 .arg(QString::fromStdString(gpu_id))
                 .arg(gpu_->compute_slices)
                 .arg(gpu_->memory_slots);
  } else {
    std::string error;
    auto profiles = models::split_mig_layout(layout, error);
    const auto placement = error.empty() ? models::place_mig_layout(*gpu_, profiles) : models::MigPlacement{};
    if (!error.empty() || !placement.valid) {
      status =
          tr("Invalid layout \"%1\": %2")
              .arg(QString::fromStdString(layout), QString::fromStdString(error.empty() ? placement.reason : error));
    } else {
      profiles_ = std::move(profiles);
      valid_ = true;
      status = tr("%1: %2 of %3 compute slices, %4 SMs, %5 GiB.")
                   .arg(QString::fromStdString(gpu_id))
                   .arg(placement.total_compute_slices)
                   .arg(gpu_->compute_slices)
                   .arg(placement.total_sms)
                   .arg(placement.total_memory_gib);
    }
  }
  status_->setText(status);
  slots_view_->set_layout(gpu_, profiles_);
  setEnabled(gpu_ != nullptr);
  remove_last_->setEnabled(valid_ && !profiles_.empty());
  clear_->setEnabled(!layout.empty());
  rebuild_menu();
}

void MigLayoutEditor::rebuild_menu() {
  add_menu_->clear();
  for (const auto& profile : addable_profiles()) {
    const QString name = QString::fromStdString(profile);
    add_menu_->addAction(name, this, [this, profile] {
      auto more = valid_ ? profiles_ : std::vector<std::string>{};
      more.push_back(profile);
      choose(more);
    });
  }
  add_->setEnabled(!add_menu_->isEmpty());
}

void MigLayoutEditor::choose(const std::vector<std::string>& profiles) {
  emit layoutChosen(QString::fromStdString(profiles.empty() ? std::string() : models::canonical_mig_layout(profiles)));
}

}  // namespace slicewise::gui
