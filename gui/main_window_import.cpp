// MainWindow (main_window.hpp): tenants imported from GPU telemetry (`slicewise profile import` run
// in the background): the file and format chosen in a dialog, the progress, and the tenants the
// import proposes added to the scenario.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

#include "gui/json_field.hpp"
#include "gui/main_window.hpp"
#include "gui/model_text.hpp"
#include "gui/scenario_editor.hpp"
#include "gui/telemetry_import.hpp"
#include "gui/telemetry_import_runner.hpp"

namespace slicewise::gui {

bool MainWindow::import_telemetry(const QString& file, const QString& format, const QString& reference_gpu) {
  QString error;
  if (!import_runner_->start(file, format, reference_gpu, &error)) {
    statusBar()->showMessage(tr("Cannot import: %1").arg(error));
    return false;
  }
  statusBar()->showMessage(tr("Importing tenants from %1 with %2").arg(file, import_runner_->program()));
  refresh_actions();
  return true;
}

void MainWindow::add_imported_tenants() {
  refresh_actions();
  const QString file = QFileInfo(import_runner_->file()).fileName();
  std::vector<Json> imported;
  try {
    imported = tenants_from_import(import_runner_->imported(), import_runner_->out_file().toStdString(),
                                   tenant_names(document_->json()));
  } catch (const std::exception& e) {
    show_import_error(QString::fromStdString(e.what()));
    return;
  }
  const Json* tenants = document_->value_at("/tenants");
  Json updated = tenants && tenants->is_array() ? *tenants : Json::array();
  const int first = static_cast<int>(updated.size());
  const int count = static_cast<int>(imported.size());
  for (Json& tenant : imported) updated.push_back(std::move(tenant));
  const QString added = count_text(imported.size(), tr("tenant"), tr("tenants"));
  document_->set_value("/tenants", std::move(updated), tr("Import %1 from %2").arg(added, file));
  // The first new tenant in the editor: its solo latency is the placeholder to replace.
  editor_->navigate_to("/tenants/" + std::to_string(first));
  statusBar()->showMessage(tr("Imported %1 from %2: enter each one's measured solo latency (%3 s is a placeholder); "
                              "load poisson 1/s and SLA internal are defaults to adjust")
                               .arg(added, file, number_text(kImportedSoloLatencyS)));
  emit telemetryImported(first, count);
}

void MainWindow::show_import_error(const QString& message) {
  refresh_actions();
  statusBar()->showMessage(tr("Import failed"));
  // Window-modal without blocking, so a run or a test goes on while it is shown.
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Import failed"), message, QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("importErrorBox"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  emit telemetryImportFailed(message);
}

void MainWindow::choose_and_import_telemetry() {
  QDialog dialog(this);
  dialog.setObjectName(QStringLiteral("telemetryImportDialog"));
  dialog.setWindowTitle(tr("Import tenants from telemetry"));
  auto* file = new QLineEdit(&dialog);
  file->setObjectName(QStringLiteral("telemetryFile"));
  auto* browse = new QPushButton(tr("Browse..."), &dialog);
  auto* format = new QComboBox(&dialog);
  format->setObjectName(QStringLiteral("telemetryFormat"));
  format->addItems(telemetry_format_choices());
  auto* gpu = new QComboBox(&dialog);
  gpu->setObjectName(QStringLiteral("referenceGpu"));
  gpu->addItem(tr("(the file's GPU model)"), QString());
  for (const QString& id : gpu_choices()) gpu->addItem(id, id);
  auto* note = new QLabel(tr("Each workload the file shows busy becomes a tenant with its GPU duty, SM occupancy, "
                             "memory bandwidth and memory (docs/telemetry.md). Telemetry has no request times: "
                             "enter each one's solo latency."),
                          &dialog);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  auto* file_line = new QHBoxLayout;
  file_line->addWidget(file, 1);
  file_line->addWidget(browse);
  auto* form = new QFormLayout(&dialog);
  form->addRow(tr("Telemetry file:"), file_line);
  form->addRow(tr("Format:"), format);
  form->addRow(tr("Reference GPU:"), gpu);
  form->addRow(note);
  form->addRow(buttons);
  const auto refresh_ok = [file, buttons] {
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!file->text().trimmed().isEmpty());
  };
  refresh_ok();
  connect(file, &QLineEdit::textChanged, &dialog, refresh_ok);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  connect(browse, &QPushButton::clicked, &dialog, [this, &dialog, file, format] {
    const QString path =
        QFileDialog::getOpenFileName(&dialog, tr("Choose telemetry"), last_dir_,
                                     tr("Telemetry (*.prom *.txt *.log *.csv *.gz *.zst);;All files (*)"));
    if (path.isEmpty()) return;
    file->setText(path);
    if (const QString guessed = guess_telemetry_format(path); !guessed.isEmpty()) format->setCurrentText(guessed);
  });
  if (dialog.exec() != QDialog::Accepted) return;
  const QString path = file->text().trimmed();
  last_dir_ = QFileInfo(path).absolutePath();
  import_telemetry(path, format->currentText(), gpu->currentData().toString());
}

}  // namespace slicewise::gui
