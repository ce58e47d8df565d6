// The slicewise-gui main window: the scenario editor on the left, the run (what-if controls,
// progress, cancel) and its results on the right, the document's problems at the bottom. The File
// menu opens, saves, imports tenants from telemetry and exports; Edit undoes and redoes; Run runs
// and cancels.
#pragma once

#include <QMainWindow>
#include <QString>
#include <QStringList>

#include "gui/scenario_document.hpp"

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QSplitter;

namespace slicewise::gui {

class AdviceDialog;
class AdviseRunner;
class ResultsPanel;
class RunPanel;
class ScenarioEditor;
class SimulationRunner;
class TelemetryImportRunner;

/// Object names, for tests and style sheets: "scenarioHeader" (QLabel), "diagnosticsList"
/// (QListWidget; each item's text is Diagnostic::format(), its Qt::UserRole the JSON pointer;
/// hidden while the scenario is valid), the run panel's widgets (run_panel.hpp); actions "openAction",
/// "saveAction", "saveAsAction", "importTelemetryAction", "exportAction", "quitAction", "undoAction",
/// "redoAction", "runAction", "cancelAction", "adviseAction"; menu "recentMenu"; the advice's
/// progress dialog "adviseProgress"; the telemetry import's dialog "telemetryImportDialog" (with
/// "telemetryFile", "telemetryFormat", "referenceGpu") and its error box "importErrorBox". The editor is
/// "scenarioEditor", the results "resultsPanel", the splitter between them "sidesSplitter": after the window's first
/// run the results side gets 2/3 of its width (when it had less), so the summary, the strategy table and the figures
/// have the room.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens the scenario at `path` in the editor. A file that is not JSON (or cannot be read)
  /// keeps the current document, lists the CLI's message and returns false; a JSON file opens even
  /// with problems, which are listed and marked at their fields so they can be fixed here.
  bool open_scenario(const QString& path);
  /// Saves to `path` (Save As without a dialog); false with the reason in the status bar.
  bool save_scenario_as(const QString& path);
  /// Runs every strategy of the edited scenario with `slicewise simulate` in a child process;
  /// false (and the reason in the status bar) when the scenario has problems or a run is going on.
  bool run();
  void cancel_run();
  bool is_running() const;
  /// Writes the current run's ROI report (format from the extension: .pdf .html .xlsx .md) with
  /// the CLI's renderer; false with `error` set when there is no run or it cannot be written.
  bool export_report(const QString& path, QString* error = nullptr);

  /// Runs `slicewise advise` on the edited scenario in a child process, with a progress dialog that
  /// cancels it; when it ends, the AdviceDialog shows the answer, the Pareto front and the export of
  /// the deployable configs. False (and the reason in the status bar) when the scenario has
  /// problems or advice is being computed.
  bool advise();
  AdviseRunner* advise_runner() const { return advise_runner_; }

  /// Runs `slicewise profile import FILE --format FORMAT --out TMP.json [--reference-gpu GPU]` in a
  /// child process (docs/telemetry.md); when it ends, adds one tenant per imported workload to the
  /// document as one undo step (tenants_from_import(), telemetry_import.hpp), selects the first in
  /// the editor and says in the status bar that each one's solo latency is a placeholder to
  /// replace. A failure (the CLI's, or a document it wrote that cannot be used) shows the whole
  /// message in "importErrorBox". False (and the reason in the status bar) when an import is
  /// going on.
  bool import_telemetry(const QString& file, const QString& format, const QString& reference_gpu);
  TelemetryImportRunner* import_runner() const { return import_runner_; }
  /// The last advice shown; nullptr before the first.
  AdviceDialog* advice_dialog() const { return advice_dialog_; }

  ScenarioDocument* document() const { return document_; }
  ScenarioEditor* editor() const { return editor_; }
  ResultsPanel* results() const;
  SimulationRunner* runner() const;
  QStringList recent_files() const;

 signals:
  /// Advice was computed and is shown (advice_dialog()), or it failed or was cancelled (a message,
  /// empty when cancelled).
  void adviceShown();
  void adviceStopped(const QString& message);
  /// A scenario was opened (the editor shows it).
  void scenarioLoaded(const QString& path);
  /// A run ended and its results are shown.
  void runFinished();
  /// A run failed (the CLI's message) or was cancelled (an empty message).
  void runStopped(const QString& message);
  /// Tenants were imported from telemetry: `count` added, the first at index `first`.
  void telemetryImported(int first, int count);
  /// A telemetry import failed: the message shown.
  void telemetryImportFailed(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void create_actions();
  void refresh_title();
  void refresh_diagnostics();
  void refresh_actions();
  void choose_and_open();
  bool save();
  bool choose_and_save_as();
  void choose_and_export();
  void choose_and_import_telemetry();
  void add_imported_tenants();
  void show_import_error(const QString& message);
  void choose_trace(int tenant);
  bool maybe_save();
  void add_recent(const QString& path);
  void rebuild_recent_menu();
  /// Widens the results side after the window's first run (see the class comment).
  void favour_results();

  ScenarioDocument* document_;
  ScenarioEditor* editor_ = nullptr;
  RunPanel* run_panel_ = nullptr;
  QLabel* header_ = nullptr;
  QListWidget* diagnostics_list_ = nullptr;
  QAction* run_action_ = nullptr;
  QAction* cancel_action_ = nullptr;
  QAction* export_action_ = nullptr;
  QAction* advise_action_ = nullptr;
  QAction* import_action_ = nullptr;
  AdviseRunner* advise_runner_ = nullptr;
  TelemetryImportRunner* import_runner_ = nullptr;
  AdviceDialog* advice_dialog_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QSplitter* sides_ = nullptr;
  bool results_favoured_ = false;
  QString last_dir_;
};

}  // namespace slicewise::gui
