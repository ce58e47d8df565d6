// Runs `slicewise profile import` as a child process (see telemetry_import_runner.hpp).
#include "gui/telemetry_import_runner.hpp"

#include <exception>

#include "core/json_file.hpp"

namespace slicewise::gui {

namespace {

const char* const kOutFile = "tenants.json";

}  // namespace

TelemetryImportRunner::TelemetryImportRunner(QObject* parent) : CliRunner(QStringLiteral("profile import"), parent) {}

bool TelemetryImportRunner::start(const QString& file, const QString& format, const QString& reference_gpu,
                                  QString* error) {
  file_ = file;
  imported_ = Json();
  return start_cli(
      QStringLiteral("slicewise-gui-import-XXXXXX"), tr("telemetry is already being imported"),
      [&] {
        QStringList arguments{QStringLiteral("profile"),
                              QStringLiteral("import"),
                              file,
                              QStringLiteral("--format"),
                              format,
                              QStringLiteral("--out"),
                              out_file()};
        if (!reference_gpu.isEmpty()) arguments << QStringLiteral("--reference-gpu") << reference_gpu;
        return arguments;
      },
      error);
}

QString TelemetryImportRunner::out_file() const { return work_file(QString::fromLatin1(kOutFile)); }

bool TelemetryImportRunner::on_event(const QJsonObject& /*event*/) { return false; }

void TelemetryImportRunner::on_success() {
  const std::string out = out_file().toStdString();
  try {
    const std::string text = read_text_file(out);
    parse_json_text(text, out);     // the CLI's checks and messages
    imported_ = Json::parse(text);  // ... then kept in its key order
  } catch (const std::exception& e) {
    emit failed(tr("slicewise profile import wrote no readable tenants: %1").arg(QString::fromStdString(e.what())));
    return;
  }
  emit finished();
}

}  // namespace slicewise::gui
