// The Advise action's answer: the explanation and every candidate (advice.md), the Pareto front of
// monthly cost against SLA margin (pareto.svg), and the export of the answer's deployable configs
// through `slicewise export-config`.
#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QTextBrowser;
class QPushButton;

namespace slicewise::gui {

class AdviceDialog : public QDialog {
  Q_OBJECT

 public:
  /// `advice_dir`: an `advise --out` folder; `program`: the slicewise CLI.
  AdviceDialog(const QString& advice_dir, const QString& program, QWidget* parent = nullptr);

  /// Runs `slicewise export-config` on the advice into `folder`; false with `error` set when it
  /// fails. The Export button asks for the folder, then calls this.
  bool export_configs(const QString& folder, QString* error);

  QString summary() const;  ///< the answer's line, as shown
  QTextBrowser* explanation() const { return explanation_; }
  const QLabel* pareto() const { return pareto_; }

 private:
  void choose_and_export();

  QString advice_dir_;
  QString program_;
  QLabel* summary_ = nullptr;
  QLabel* pareto_ = nullptr;
  QTextBrowser* explanation_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace slicewise::gui
