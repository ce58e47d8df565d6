// Runs `slicewise advise` as a child process (see advise_runner.hpp).
#include "gui/advise_runner.hpp"

#include <exception>

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include "core/json_file.hpp"
#include "gui/simulation_runner.hpp"

namespace slicewise::gui {

AdviseRunner::AdviseRunner(QObject* parent) : QObject(parent), program_(SimulationRunner::default_program()) {}

AdviseRunner::~AdviseRunner() {
  if (is_running()) {
    process_->terminate();
    if (!process_->waitForFinished(5000)) process_->kill();
    process_->waitForFinished(1000);
  }
}

bool AdviseRunner::is_running() const { return process_ && process_->state() != QProcess::NotRunning; }

QString AdviseRunner::advice_dir() const {
  return work_dir_ ? work_dir_->filePath(QStringLiteral("advice")) : QString();
}

bool AdviseRunner::start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
                         QString* error) {
  if (is_running()) {
    if (error) *error = tr("advice is already being computed");
    return false;
  }
  work_dir_ = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/slicewise-gui-advise-XXXXXX"));
  if (!work_dir_->isValid()) {
    if (error) *error = tr("cannot create a temporary folder: %1").arg(work_dir_->errorString());
    return false;
  }
  const QString scenario_file = work_dir_->filePath(QStringLiteral("scenario.json"));
  Json absolute = document;
  rebase_scenario_paths(absolute, base_dir, {});
  try {
    write_file_atomically(scenario_file.toStdString(), absolute.dump(2) + "\n");
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  delete process_;
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(QStringList{QStringLiteral("advise"), scenario_file, QStringLiteral("--out"), advice_dir(),
                                     QStringLiteral("--progress"), QStringLiteral("json")} +
                         extra_args);
  connect(process_, &QProcess::readyReadStandardError, this, &AdviseRunner::read_progress);
  connect(process_, &QProcess::finished, this, &AdviseRunner::on_finished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) {
      emit failed(tr("cannot start %1: %2 (set SLICEWISE_CLI to the slicewise program)").arg(program_, process_->errorString()));
    }
  });
  stderr_buffer_.clear();
  error_lines_.clear();
  cancelling_ = false;
  process_->setReadChannel(QProcess::StandardError);
  process_->start();
  return true;
}

void AdviseRunner::cancel() {
  if (!is_running()) return;
  cancelling_ = true;
  process_->terminate();
  QTimer::singleShot(5000, process_, [process = process_] {
    if (process->state() != QProcess::NotRunning) process->kill();
  });
}

void AdviseRunner::read_progress() {
  stderr_buffer_ += process_->readAllStandardError();
  qsizetype end;
  while ((end = stderr_buffer_.indexOf('\n')) >= 0) {
    const QByteArray line = stderr_buffer_.left(end).trimmed();
    stderr_buffer_.remove(0, end + 1);
    if (line.isEmpty()) continue;
    const QJsonObject object = QJsonDocument::fromJson(line).object();
    if (object.value(QStringLiteral("event")).toString() != QLatin1String("advise_progress")) {
      error_lines_ << QString::fromUtf8(line);
      continue;
    }
    emit progress(object.value(QStringLiteral("candidates_done")).toInt(), object.value(QStringLiteral("of")).toInt(),
                  object.value(QStringLiteral("simulations")).toInt());
  }
}

void AdviseRunner::on_finished(int exit_code, QProcess::ExitStatus status) {
  read_progress();
  if (!stderr_buffer_.trimmed().isEmpty()) error_lines_ << QString::fromUtf8(stderr_buffer_.trimmed());
  stderr_buffer_.clear();
  if (cancelling_) {
    cancelling_ = false;
    emit cancelled();
    return;
  }
  if (status != QProcess::NormalExit || exit_code != 0) {
    QString message = error_lines_.join(QLatin1Char('\n'));
    if (message.isEmpty()) {
      message = status == QProcess::NormalExit ? tr("slicewise advise exited with code %1").arg(exit_code)
                                               : tr("slicewise advise crashed");
    }
    emit failed(message);
    return;
  }
  if (!QFileInfo(QDir(advice_dir()).filePath(QStringLiteral("advice.json"))).isFile()) {
    emit failed(tr("slicewise advise wrote no advice.json"));
    return;
  }
  emit finished();
}

}  // namespace slicewise::gui
