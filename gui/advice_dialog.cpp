// The Advise action's answer (see advice_dialog.hpp).
#include "gui/advice_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QSplitter>
#include <QSvgRenderer>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace slicewise::gui {

namespace {

QString read_text(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// The answer in one line, from advice.json.
QString answer_line(const QString& advice_json) {
  const QJsonObject advice = QJsonDocument::fromJson(read_text(advice_json).toUtf8()).object();
  const QJsonObject answer = advice.value(QStringLiteral("answer")).toObject();
  const QJsonObject baseline = advice.value(QStringLiteral("baseline")).toObject();
  if (answer.isEmpty()) return QObject::tr("No configuration meets every SLA.");
  // The saving is against the baseline under the answer's own purchase option; what the option
  // itself saves is said apart.
  const double option_saves = answer.value(QStringLiteral("option_savings_usd")).toDouble();
  const QString option_text = option_saves == 0.0
                                  ? QString()
                                  : QObject::tr(" The %1 purchase option itself saves $%2 a month on the baseline.")
                                        .arg(answer.value(QStringLiteral("option")).toString())
                                        .arg(option_saves, 0, 'f', 2);
  return QObject::tr(
             "%1 (%2): %3 GPU(s), $%4 a month, saving $%5 (%6 %) against %7 on the same option; worst tenant %8 with "
             "%9 % of its "
             "SLA target to spare. %10 simulations. This is a search over GPU types, strategies, their settings, "
             "pools and purchase options; the run summary compares only the scenario's strategies as given, so the "
             "two can differ.")
             .arg(answer.value(QStringLiteral("candidate")).toString(),
                  answer.value(QStringLiteral("option")).toString())
             .arg(answer.value(QStringLiteral("num_gpus")).toInt())
             .arg(answer.value(QStringLiteral("monthly_usd")).toDouble(), 0, 'f', 2)
             .arg(answer.value(QStringLiteral("monthly_savings_usd")).toDouble(), 0, 'f', 2)
             .arg(100.0 * answer.value(QStringLiteral("savings_frac")).toDouble(), 0, 'f', 1)
             .arg(baseline.value(QStringLiteral("candidate")).toString(),
                  answer.value(QStringLiteral("worst_tenant")).toString())
             .arg(100.0 * answer.value(QStringLiteral("worst_sla_margin")).toDouble(), 0, 'f', 1)
             .arg(advice.value(QStringLiteral("num_simulations")).toInt()) +
         option_text;
}

}  // namespace

AdviceDialog::AdviceDialog(const QString& advice_dir, const QString& program, QWidget* parent)
    : QDialog(parent), advice_dir_(advice_dir), program_(program) {
  setWindowTitle(tr("Advice: the cheapest configuration that meets every SLA"));
  setObjectName(QStringLiteral("adviceDialog"));
  const QDir dir(advice_dir);
  summary_ = new QLabel(answer_line(dir.filePath(QStringLiteral("advice.json"))), this);
  summary_->setObjectName(QStringLiteral("adviceSummary"));
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::PlainText);  // names are shown as written

  pareto_ = new QLabel(this);
  pareto_->setObjectName(QStringLiteral("paretoChart"));
  pareto_->setAlignment(Qt::AlignCenter);
  QSvgRenderer svg(dir.filePath(QStringLiteral("pareto.svg")));
  if (svg.isValid()) {
    QPixmap pixmap(svg.defaultSize());
    pixmap.fill(Qt::white);
    QPainter painter(&pixmap);
    svg.render(&painter);
    painter.end();
    pareto_->setPixmap(pixmap.scaledToWidth(720, Qt::SmoothTransformation));
  } else {
    pareto_->setText(tr("(no Pareto chart)"));
  }

  explanation_ = new QTextBrowser(this);
  explanation_->setObjectName(QStringLiteral("adviceExplanation"));
  QString markdown = read_text(dir.filePath(QStringLiteral("advice.md")));
  markdown.replace(QStringLiteral("![Pareto front](pareto.svg)"), QString());  // drawn above
  explanation_->setMarkdown(markdown);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(pareto_);
  splitter->addWidget(explanation_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  export_ = buttons->addButton(tr("Export Configs..."), QDialogButtonBox::ActionRole);
  export_->setObjectName(QStringLiteral("exportConfigsButton"));
  connect(export_, &QPushButton::clicked, this, &AdviceDialog::choose_and_export);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(splitter, 1);
  layout->addWidget(buttons);
  resize(900, 800);
}

QString AdviceDialog::summary() const { return summary_->text(); }

bool AdviceDialog::export_configs(const QString& folder, QString* error) {
  QProcess process;
  process.setProgram(program_);
  process.setArguments({QStringLiteral("export-config"), advice_dir_, QStringLiteral("--out"), folder});
  process.start();
  if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
    if (error) {
      const QString message = QString::fromUtf8(process.readAllStandardError()).trimmed();
      *error =
          message.isEmpty() ? tr("slicewise export-config did not finish (%1)").arg(process.errorString()) : message;
    }
    return false;
  }
  return true;
}

void AdviceDialog::choose_and_export() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Export the deployable configs to"));
  if (folder.isEmpty()) return;
  QString error;
  if (export_configs(folder, &error)) {
    QMessageBox::information(this, tr("Configs exported"),
                             tr("The device-plugin, MIG and Deployment files and their README are in %1.").arg(folder));
  } else {
    QMessageBox::warning(this, tr("Export failed"), error);
  }
}

}  // namespace slicewise::gui
