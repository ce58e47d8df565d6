// Runs `slicewise simulate` as a child process (see simulation_runner.hpp).
#include "gui/simulation_runner.hpp"

#include <exception>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include "core/json_file.hpp"
#include "scenario/result_json.hpp"

namespace slicewise::gui {

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent), program_(default_program()) {}

SimulationRunner::~SimulationRunner() {
  if (is_running()) {
    process_->terminate();
    if (!process_->waitForFinished(5000)) process_->kill();
    process_->waitForFinished(1000);
  }
}

QString SimulationRunner::default_program() {
  if (const QString given = qEnvironmentVariable("SLICEWISE_CLI"); !given.isEmpty()) return given;
  const QDir app_dir(QCoreApplication::applicationDirPath());
  for (const QString& candidate : {app_dir.filePath(QStringLiteral("slicewise")),
                                   app_dir.filePath(QStringLiteral("../cli/slicewise")),
                                   app_dir.filePath(QStringLiteral("../../cli/slicewise"))}) {
    if (QFileInfo(candidate).isExecutable() && !QFileInfo(candidate).isDir()) return QDir::cleanPath(candidate);
  }
  const QString on_path = QStandardPaths::findExecutable(QStringLiteral("slicewise"));
  return on_path.isEmpty() ? QStringLiteral("slicewise") : on_path;
}

bool SimulationRunner::is_running() const { return process_ && process_->state() != QProcess::NotRunning; }

bool SimulationRunner::start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
                             QString* error) {
  if (is_running()) {
    if (error) *error = tr("a simulation is already running");
    return false;
  }
  work_dir_ = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/slicewise-gui-XXXXXX"));
  if (!work_dir_->isValid()) {
    if (error) *error = tr("cannot create a temporary folder: %1").arg(work_dir_->errorString());
    return false;
  }
  const QString scenario_file = work_dir_->filePath(QStringLiteral("scenario.json"));
  const QString result_file = work_dir_->filePath(QStringLiteral("result.json"));
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
  process_->setArguments(QStringList{QStringLiteral("simulate"), scenario_file, QStringLiteral("--progress"),
                                     QStringLiteral("json"), QStringLiteral("--out"), result_file} +
                         extra_args);
  connect(process_, &QProcess::readyReadStandardError, this, &SimulationRunner::read_progress);
  connect(process_, &QProcess::finished, this, &SimulationRunner::on_finished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) {
      emit failed(tr("cannot start %1: %2 (set SLICEWISE_CLI to the slicewise program)")
                      .arg(program_, process_->errorString()));
    }
  });
  stderr_buffer_.clear();
  error_lines_.clear();
  fractions_.clear();
  cancelling_ = false;
  process_->setReadChannel(QProcess::StandardError);
  process_->start();
  return true;
}

void SimulationRunner::cancel() {
  if (!is_running()) return;
  cancelling_ = true;
  process_->terminate();
  QTimer::singleShot(5000, process_, [process = process_] {
    if (process->state() != QProcess::NotRunning) process->kill();
  });
}

void SimulationRunner::read_progress() {
  stderr_buffer_ += process_->readAllStandardError();
  qsizetype end;
  while ((end = stderr_buffer_.indexOf('\n')) >= 0) {
    const QByteArray line = stderr_buffer_.left(end).trimmed();
    stderr_buffer_.remove(0, end + 1);
    if (line.isEmpty()) continue;
    const QJsonDocument json = QJsonDocument::fromJson(line);
    const QJsonObject object = json.object();
    const QString event = object.value(QStringLiteral("event")).toString();
    if (!json.isObject() || event.isEmpty()) {
      error_lines_ << QString::fromUtf8(line);
      continue;
    }
    const int of = object.value(QStringLiteral("of")).toInt();
    const int at = object.value(QStringLiteral("index")).toInt();
    if (of <= 0 || at < 0 || at >= of) continue;
    fractions_.resize(static_cast<std::size_t>(of), 0.0);
    fractions_[static_cast<std::size_t>(at)] =
        event == QLatin1String("done") ? 1.0 : object.value(QStringLiteral("fraction")).toDouble();
    double total = 0.0;
    for (double f : fractions_) total += f;
    emit progress(total / of, object.value(QStringLiteral("strategy")).toString());
  }
}

void SimulationRunner::on_finished(int exit_code, QProcess::ExitStatus status) {
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
      message = status == QProcess::NormalExit ? tr("slicewise simulate exited with code %1").arg(exit_code)
                                               : tr("slicewise simulate crashed");
    }
    emit failed(message);
    return;
  }
  try {
    result_ = scenario::load_result(work_dir_->filePath(QStringLiteral("result.json")).toStdString());
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  emit finished();
}

}  // namespace slicewise::gui
