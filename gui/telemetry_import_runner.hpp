// Runs `slicewise profile import FILE --format F --out tenants.json [--reference-gpu G]` as a child
// process for the GUI's "Import Tenants from Telemetry..." (a CliRunner), and reads back the JSON
// it wrote (docs/telemetry.md, "The JSON"); tenants_from_import() (telemetry_import.hpp) turns it
// into scenario tenants. The CLI prints no progress; its error text is failed()'s message.
#pragma once

#include <QString>

#include "gui/cli_runner.hpp"

namespace slicewise::gui {

class TelemetryImportRunner : public CliRunner {
  Q_OBJECT

 public:
  explicit TelemetryImportRunner(QObject* parent = nullptr);

  /// Starts importing `file` (an absolute path, or one relative to the working directory) read as
  /// `format`; an empty `reference_gpu` leaves it to the file (its GPU model, when the catalog has
  /// it). False with `error` set when an import is going on or the temporary folder cannot be made.
  bool start(const QString& file, const QString& format, const QString& reference_gpu, QString* error);
  /// The telemetry file of the last start().
  const QString& file() const { return file_; }
  /// The document the CLI wrote, as written (valid after finished()), and its path in the run's
  /// temporary folder.
  const Json& imported() const { return imported_; }
  QString out_file() const;

 private:
  bool on_event(const QJsonObject& event) override;
  void on_success() override;

  QString file_;
  Json imported_;
};

}  // namespace slicewise::gui
