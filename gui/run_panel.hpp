// The right half of the main window (docs/gui.md): the what-if controls, Run / Cancel with the progress of the
// `slicewise simulate` child process, and the results of every run of the session.
#pragma once

#include <string>

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

#include "gui/scenario_document.hpp"
#include "report/roi_content.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;

namespace slicewise::gui {

class ResultsPanel;
class SimulationRunner;

/// Object names: "runButton", "cancelButton" (QPushButton), "runProgress" (QProgressBar, 0..1000:
/// the CLI's fraction of the whole run, never going back), "runTime" (QLabel beside the bar: "12 s
/// elapsed, about 9 s left" while running, empty otherwise), "runStatus" (QLabel: what runs, or how
/// the last run ended), "whatIfLoad", "whatIfSla" (QDoubleSpinBox), "whatIfTenant", "whatIfPrice"
/// (QComboBox), "applyWhatIf" (QPushButton), "resultsPanel" (ResultsPanel).
class RunPanel : public QWidget {
  Q_OBJECT

 public:
  RunPanel(ScenarioDocument* document, QWidget* parent = nullptr);
  ~RunPanel() override;

  /// Runs the document's strategies; false, with the reason in statusMessage(), when the scenario
  /// has problems or a run is going on.
  bool run();
  void cancel_run();
  bool is_running() const;
  /// True when a run may start now (the document is valid, nothing runs).
  bool can_run() const;
  /// Writes the shown run's ROI report (format from the extension) with the CLI's renderer.
  bool export_report(const QString& path, QString* error);

  ResultsPanel* results() const { return results_; }
  SimulationRunner* runner() const { return runner_; }

 signals:
  void runFinished();
  /// A run failed (the CLI's message) or was cancelled (an empty message).
  void runStopped(const QString& message);
  /// A line for the window's status bar.
  void statusMessage(const QString& message);
  /// can_run() or is_running() may have changed.
  void stateChanged();

 private:
  QWidget* create_what_if_group();
  QLayout* create_run_row();
  void connect_signals();
  void refresh();
  void apply_what_if();
  void reprice();
  void on_run_finished();
  /// The ROI report of `result` priced under `option` (the result's own option when empty).
  report::RoiReport report_for(const scenario::SimResult& result, const std::string& option, QString* error) const;

  ScenarioDocument* document_;
  SimulationRunner* runner_;
  ResultsPanel* results_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
  QPushButton* apply_button_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* run_time_ = nullptr;
  QLabel* run_status_ = nullptr;
  QDoubleSpinBox* what_if_load_ = nullptr;
  QComboBox* what_if_tenant_ = nullptr;
  QDoubleSpinBox* what_if_sla_ = nullptr;
  QComboBox* what_if_price_ = nullptr;
  QString run_label_;
  QElapsedTimer run_clock_;  ///< since the current run started
  int runs_started_ = 0;
  bool refreshing_ = false;
};

}  // namespace slicewise::gui
