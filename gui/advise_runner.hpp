// Runs `slicewise advise` as a child process for the GUI's Advise action: the document is written
// (relative paths made absolute) to a temporary folder, progress comes back as the CLI's
// `advise_progress` JSON lines (docs/advisor.md), and the advice folder is kept until the next run
// or the runner's end. Cancel sends SIGTERM (the CLI stops its simulations and writes nothing).
#pragma once

#include <filesystem>
#include <memory>

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "gui/scenario_document.hpp"

namespace slicewise::gui {

class AdviseRunner : public QObject {
  Q_OBJECT

 public:
  explicit AdviseRunner(QObject* parent = nullptr);
  ~AdviseRunner() override;

  void set_program(const QString& program) { program_ = program; }
  const QString& program() const { return program_; }

  /// Starts advising on `document` with `extra_args` ("--jobs", "2", "--max-gpus", ...). False with
  /// `error` set when a run is going on or the scenario cannot be written.
  bool start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args, QString* error);
  void cancel();
  bool is_running() const;
  /// The advice folder of the last successful run (advice.json, advice.md, pareto.svg, result.json).
  QString advice_dir() const;

 signals:
  /// Candidates sized so far out of all, and the simulations run.
  void progress(int done, int of, int simulations);
  void finished();
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
  bool cancelling_ = false;
};

}  // namespace slicewise::gui
