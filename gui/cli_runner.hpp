// What the GUI's runs of the CLI share (SimulationRunner: `slicewise simulate`; AdviseRunner:
// `slicewise advise`): the document written, with its relative paths made absolute, to a temporary
// folder; the CLI started as a child process under Qt's event loop (the GUI thread never blocks);
// its stderr split into JSON event lines, handed to the subclass, and other lines kept as the error
// message; Cancel as SIGTERM, then SIGKILL when the CLI has not ended 5 s later.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "gui/scenario_document.hpp"

namespace slicewise::gui {

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
  /// A path in the run's temporary folder; "" before the first run.
  QString work_file(const QString& name) const;
  /// An event line of stderr ({"event": ...}); false when the subclass does not know it, which
  /// then counts as part of the error message.
  virtual bool on_event(const QJsonObject& event) = 0;
  /// The CLI exited 0 and was not cancelled: check what it wrote, then emit finished() or failed().
  virtual void on_success() = 0;

 private:
  void read_stderr();
  void on_finished(int exit_code, QProcess::ExitStatus status);

  QString command_;
  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> work_dir_;
  QByteArray stderr_buffer_;
  QStringList error_lines_;
  bool cancelling_ = false;
};

}  // namespace slicewise::gui
