// Runs `slicewise simulate` as a child process for the GUI: the document is written (with its
// relative paths made absolute) to a temporary folder, progress comes back as the CLI's JSON lines
// (docs/cli.md), and the result file is read when the process ends. The GUI thread never blocks:
// the process runs under Qt's event loop, and Cancel sends SIGTERM (the CLI then stops its
// strategy processes and removes its temporary files).
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "gui/scenario_document.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::gui {

class SimulationRunner : public QObject {
  Q_OBJECT

 public:
  explicit SimulationRunner(QObject* parent = nullptr);
  ~SimulationRunner() override;

  /// The CLI to run: $SLICEWISE_CLI when set, else `slicewise` next to this program, else the
  /// build tree's ../cli/slicewise, else `slicewise` on PATH.
  static QString default_program();
  void set_program(const QString& program) { program_ = program; }
  const QString& program() const { return program_; }

  /// Starts a run of `document` (relative paths resolved against `base_dir`) with `extra_args`
  /// (e.g. "--jobs", "2"). False with `error` set when a run is going on or the scenario cannot
  /// be written; the outcome of a started run arrives as finished(), failed() or cancelled().
  bool start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args, QString* error);
  /// Stops the run: SIGTERM, then SIGKILL when it has not ended 5 s later. cancelled() follows.
  void cancel();
  bool is_running() const;
  /// The result of the last successful run (valid after finished()).
  const scenario::SimResult& result() const { return result_; }

 signals:
  /// Overall progress in [0, 1] (the mean over strategies) and the strategy that moved.
  void progress(double fraction, const QString& strategy);
  /// The run ended and its result is in result().
  void finished();
  /// The run failed: the CLI's error text (its stderr without the progress lines).
  void failed(const QString& message);
  void cancelled();

 private:
  void read_progress();
  void on_finished(int exit_code, QProcess::ExitStatus status);

  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> work_dir_;
  QByteArray stderr_buffer_;
  QStringList error_lines_;
  std::vector<double> fractions_;
  bool cancelling_ = false;
  scenario::SimResult result_;
};

}  // namespace slicewise::gui
