// The GUI's runs of the CLI (see cli_runner.hpp).
#include "gui/cli_runner.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTimer>

#include "core/json_file.hpp"

namespace slicewise::gui {

QString duration_text(double seconds) {
  // As cli/progress_meter.cpp's duration_text, which the GUI cannot include (docs/architecture.md).
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return QStringLiteral("%1 s").arg(s);
  if (s < 3600) return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1 h %2 min").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0'));
}

QString progress_time_text(double elapsed_s, std::optional<double> eta_s) {
  if (!eta_s) return QObject::tr("%1 elapsed, estimating the time left").arg(duration_text(elapsed_s));
  // The CLI gives 0 only when the work is done; a little left is not "about 0 s".
  if (*eta_s > 0.0 && *eta_s < 0.5) return QObject::tr("%1 elapsed, under 1 s left").arg(duration_text(elapsed_s));
  return QObject::tr("%1 elapsed, about %2 left").arg(duration_text(elapsed_s), duration_text(*eta_s));
}

CliRunner::CliRunner(QString command, QObject* parent)
    : QObject(parent), command_(std::move(command)), program_(default_program()) {}

CliRunner::~CliRunner() {
  if (is_running()) {
    process_->terminate();
    if (!process_->waitForFinished(5000)) process_->kill();
    process_->waitForFinished(1000);
  }
}

QString CliRunner::default_program() {
  if (QString given = qEnvironmentVariable("SLICEWISE_CLI"); !given.isEmpty()) return given;
  const QDir app_dir(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {app_dir.filePath(QStringLiteral("slicewise")), app_dir.filePath(QStringLiteral("../cli/slicewise")),
        app_dir.filePath(QStringLiteral("../../cli/slicewise"))}) {
    if (QFileInfo(candidate).isExecutable() && !QFileInfo(candidate).isDir()) return QDir::cleanPath(candidate);
  }
  const QString on_path = QStandardPaths::findExecutable(QStringLiteral("slicewise"));
  return on_path.isEmpty() ? QStringLiteral("slicewise") : on_path;
}

bool CliRunner::is_running() const { return process_ && process_->state() != QProcess::NotRunning; }

QString CliRunner::work_file(const QString& name) const { return work_dir_ ? work_dir_->filePath(name) : QString(); }

bool CliRunner::begin_run(const QString& folder_name, const QString& busy, QString* error) {
  if (is_running()) {
    if (error) *error = busy;
    return false;
  }
  work_dir_ = std::make_unique<QTemporaryDir>(QDir::tempPath() + QLatin1Char('/') + folder_name);
  if (!work_dir_->isValid()) {
    if (error) *error = tr("cannot create a temporary folder: %1").arg(work_dir_->errorString());
    return false;
  }
  return true;
}

bool CliRunner::start_cli(const Json& document, const std::filesystem::path& base_dir, const QString& folder_name,
                          const QString& busy, const std::function<QStringList(const QString&)>& arguments,
                          QString* error) {
  if (!begin_run(folder_name, busy, error)) return false;
  const QString scenario_file = work_dir_->filePath(QStringLiteral("scenario.json"));
  Json absolute = document;
  rebase_scenario_paths(absolute, base_dir, {});
  try {
    write_file_atomically(scenario_file.toStdString(), absolute.dump(2) + "\n");
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  launch(arguments(scenario_file));
  return true;
}

bool CliRunner::start_cli(const QString& folder_name, const QString& busy,
                          const std::function<QStringList()>& arguments, QString* error) {
  if (!begin_run(folder_name, busy, error)) return false;
  launch(arguments());
  return true;
}

void CliRunner::launch(const QStringList& arguments) {
  delete process_;
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(arguments);
  connect(process_, &QProcess::readyReadStandardError, this, &CliRunner::read_stderr);
  connect(process_, &QProcess::finished, this, &CliRunner::on_finished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) {
      emit failed(tr("cannot start %1: %2 (set SLICEWISE_CLI to the slicewise program)")
                      .arg(program_, process_->errorString()));
    }
  });
  stderr_buffer_.clear();
  error_lines_.clear();
  cancelling_ = false;
  shown_fraction_ = 0.0;
  has_total_fraction_ = false;
  time_text_.clear();
  process_->setReadChannel(QProcess::StandardError);
  process_->start();
}

void CliRunner::cancel() {
  if (!is_running()) return;
  cancelling_ = true;
  process_->terminate();
  QTimer::singleShot(5000, process_, [process = process_] {
    if (process->state() != QProcess::NotRunning) process->kill();
  });
}

double CliRunner::track_progress(const QJsonObject& event, double fallback) {
  // The CLI's whole-run fraction follows wall time; a mean of per-strategy fractions does not (a
  // strategy's simulated time runs at its own pace), so once the CLI gives one the other is not
  // mixed in, and a bar does not jump ahead and wait.
  const QJsonValue total = event.value(QStringLiteral("total_fraction"));
  double fraction = std::nan("");
  if (total.isDouble()) {
    has_total_fraction_ = true;
    fraction = total.toDouble();
  } else if (!has_total_fraction_) {
    fraction = fallback;
  }
  if (!std::isnan(fraction)) shown_fraction_ = std::max(shown_fraction_, std::clamp(fraction, 0.0, 1.0));
  if (const QJsonValue elapsed = event.value(QStringLiteral("elapsed_s")); elapsed.isDouble()) {
    const QJsonValue eta = event.value(QStringLiteral("eta_s"));
    time_text_ = progress_time_text(elapsed.toDouble(), eta.isDouble() ? std::optional(eta.toDouble()) : std::nullopt);
  }
  return shown_fraction_;
}

void CliRunner::read_stderr() {
  stderr_buffer_ += process_->readAllStandardError();
  qsizetype end;
  while ((end = stderr_buffer_.indexOf('\n')) >= 0) {
    const QByteArray line = stderr_buffer_.left(end).trimmed();
    stderr_buffer_.remove(0, end + 1);
    if (line.isEmpty()) continue;
    const QJsonDocument json = QJsonDocument::fromJson(line);
    const QJsonObject object = json.object();
    if (!json.isObject() || object.value(QStringLiteral("event")).toString().isEmpty() || !on_event(object)) {
      error_lines_ << QString::fromUtf8(line);
    }
  }
}

void CliRunner::on_finished(int exit_code, QProcess::ExitStatus status) {
  read_stderr();
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
      message = status == QProcess::NormalExit ? tr("slicewise %1 exited with code %2").arg(command_).arg(exit_code)
                                               : tr("slicewise %1 crashed").arg(command_);
    }
    emit failed(message);
    return;
  }
  on_success();
}

}  // namespace slicewise::gui
