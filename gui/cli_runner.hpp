// What the GUI's runs of the CLI share (SimulationRunner: `slicewise simulate`; AdviseRunner:
// `slicewise advise`; TelemetryImportRunner: `slicewise profile import`): a temporary folder, with
// the document written there, its relative paths made absolute; the CLI started as a child process under Qt's event
// loop (the GUI thread never blocks); its stderr split into JSON event lines, handed to the subclass, and other lines
// kept as the error message; the progress those lines carry (the whole run's fraction, elapsed and remaining time);
// Cancel as SIGTERM, then SIGKILL when the CLI has not ended 5 s later.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "gui/scenario_document.hpp"

namespace slicewise::gui {

/// A duration as the CLI's progress bar writes it, rounded to the second: "7 s", "3 min 05 s",
/// "2 h 04 min".
QString duration_text(double seconds);

/// The times next to a progress bar, in the CLI's words: "12 s elapsed, about 9 s left", or
/// "0 s elapsed, estimating the time left" while the time left is unknown (`eta_s` empty).
QString progress_time_text(double elapsed_s, std::optional<double> eta_s);

class CliRunner : public QObject {
  Q_OBJECT

 public:
  ~CliRunner() override;

  /// The CLI to run: $SLICEWISE_CLI when set, else `slicewise` next to this program, else the
  /// build tree's ../cli/slicewise, else `slicewise` on PATH.
  static QString default_program();
  void set_program(const QString& program) { program_ = program; }
  const QString& program() const { return program_; }

  /// Stops the run: SIGTERM, then SIGKILL when it has not ended 5 s later. cancelled() follows.
  void cancel();
  bool is_running() const;

 signals:
  /// The run ended and what it wrote is ready (the subclass says where).
  void finished();
  /// The run failed: the CLI's error text (its stderr without the event lines).
  void failed(const QString& message);
  void cancelled();

 protected:
  /// `command` names the subcommand in messages ("simulate").
  CliRunner(QString command, QObject* parent);

  /// Writes `document` as scenario.json in a new temporary folder `QDir::tempPath()/<folder_name>`
  /// (a QTemporaryDir template), then starts the CLI with `arguments(scenario_file)`. False with
  /// `error` set when a run is going on (`busy`) or the scenario cannot be written.
  bool start_cli(const Json& document, const std::filesystem::path& base_dir, const QString& folder_name,
                 const QString& busy, const std::function<QStringList(const QString&)>& arguments, QString* error);
  /// The same for a command that reads no scenario (`profile import`): a new temporary folder, then
  /// the CLI with `arguments()`, which may name files in it (work_file()).
  bool start_cli(const QString& folder_name, const QString& busy, const std::function<QStringList()>& arguments,
                 QString* error);
  /// A path in the run's temporary folder; "" before the first run.
  QString work_file(const QString& name) const;
  /// An event line of stderr ({"event": ...}); false when the subclass does not know it, which
  /// then counts as part of the error message.
  virtual bool on_event(const QJsonObject& event) = 0;
  /// The CLI exited 0 and was not cancelled: check what it wrote, then emit finished() or failed().
  virtual void on_success() = 0;

  /// The run's fraction done (0..1) to show after the progress line `event`: its "total_fraction"
  /// (the CLI's fraction of the whole run, smooth in wall time) when it has one, and from then on
  /// only those; else `fallback`, the subclass's estimate from an older CLI's lines (NaN: none).
  /// Never less than a fraction this run already showed, so a bar never goes back. Also takes the
  /// line's "elapsed_s" and "eta_s" (null while unknown) for time_text().
  double track_progress(const QJsonObject& event, double fallback);
  /// The run's work grew (advise added candidates): the next fraction stands even when lower.
  void work_grew() { shown_fraction_ = 0.0; }
  /// progress_time_text() of the last line with "elapsed_s"; "" until one came (older CLIs).
  const QString& time_text() const { return time_text_; }

 private:
  /// A new temporary folder for the run; false with `error` set when a run is going on or the
  /// folder cannot be made.
  bool begin_run(const QString& folder_name, const QString& busy, QString* error);
  /// Starts the CLI with `arguments`.
  void launch(const QStringList& arguments);
  void read_stderr();
  void on_finished(int exit_code, QProcess::ExitStatus status);

  QString command_;
  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> work_dir_;
  QByteArray stderr_buffer_;
  QStringList error_lines_;
  bool cancelling_ = false;
  double shown_fraction_ = 0.0;
  bool has_total_fraction_ = false;
  QString time_text_;
};

}  // namespace slicewise::gui
