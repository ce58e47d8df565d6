// The MIG layout of a strategy, edited so that only valid layouts can be made: a preset list of
// every maximal layout of the GPU, and profile buttons that offer only the profiles that still fit
// next to the ones chosen (models/mig_layout.hpp places them). The placement is drawn as the GPU's
// memory slots with each instance over the slots it occupies.
#pragma once

#include <string>
#include <vector>

#include <QWidget>

#include "models/mig_layout.hpp"

class QComboBox;
class QLabel;
class QMenu;
class QToolButton;

namespace slicewise::gui {

/// Paints a layout's placement: one box per memory slot, instances as labelled blocks.
class MigSlotsView : public QWidget {
  Q_OBJECT

 public:
  explicit MigSlotsView(QWidget* parent = nullptr);
  /// `gpu` may be nullptr (nothing drawn); `profiles` must place on it (else nothing is drawn).
  void set_layout(const models::MigGpu* gpu, const std::vector<std::string>& profiles);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const models::MigGpu* gpu_ = nullptr;
  std::vector<models::MigInstance> instances_;
};

/// Object names: "migPresets" (QComboBox), "migAddProfile" (QToolButton with a menu of the
/// profiles that fit), "migRemoveLast", "migClear" (QToolButton), "migSlots" (MigSlotsView),
/// "migStatus" (QLabel: the GPU, compute slices used, or why the current text is invalid).
class MigLayoutEditor : public QWidget {
  Q_OBJECT

 public:
  explicit MigLayoutEditor(QWidget* parent = nullptr);

  /// The GPU whose geometry applies (by catalog id; a GPU without MIG disables the editor) and
  /// the current layout text (any text: an invalid one is shown with the reason).
  void set_state(const std::string& gpu_id, const std::string& layout);
  /// Profiles that can be added to the current layout and still place.
  std::vector<std::string> addable_profiles() const;
  /// The maximal layouts offered as presets.
  std::vector<std::string> presets() const;

 signals:
  /// The user made a new (valid) layout, as canonical text.
  void layoutChosen(const QString& layout);

 private:
  void choose(const std::vector<std::string>& profiles);
  void rebuild_menu();

  const models::MigGpu* gpu_ = nullptr;
  std::vector<std::string> profiles_;  ///< the current layout, when valid
  bool valid_ = false;
  QComboBox* presets_;
  QToolButton* add_;
  QToolButton* remove_last_;
  QToolButton* clear_;
  QMenu* add_menu_;
  MigSlotsView* slots_view_;
  QLabel* status_;
};

}  // namespace slicewise::gui
