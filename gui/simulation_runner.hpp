// Runs `slicewise simulate` as a child process for the GUI (a CliRunner): the document is written
// (with its relative paths made absolute) to a temporary folder, progress comes back as the CLI's
// JSON lines (docs/architecture.md), and the result file is read when the process ends. Cancel
// sends SIGTERM (the CLI then stops its strategy processes and removes its temporary files).
#pragma once

#include <filesystem>
#include <vector>

#include <QString>
#include <QStringList>

#include "gui/cli_runner.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::gui {

class SimulationRunner : public CliRunner {
  Q_OBJECT

 public:
  explicit SimulationRunner(QObject* parent = nullptr);

  /// Starts a run of `document` (relative paths resolved against `base_dir`) with `extra_args`
  /// (e.g. "--jobs", "2"). False with `error` set when a run is going on or the scenario cannot
  /// be written; the outcome of a started run arrives as finished(), failed() or cancelled().
  bool start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
             QString* error);
  /// The result of the last successful run (valid after finished()).
  const scenario::SimResult& result() const { return result_; }

 signals:
  /// The run's progress: the fraction done in [0, 1] (the CLI's "total_fraction"; from a CLI
  /// without it, the mean over strategies), never less than the last one; the strategy that moved
  /// ("" when the line names none); the times as progress_time_text() writes them, "" while the CLI
  /// has given none.
  void progress(double fraction, const QString& strategy, const QString& time_text);

 private:
  bool on_event(const QJsonObject& event) override;
  void on_success() override;

  std::vector<double> fractions_;
  scenario::SimResult result_;
};

}  // namespace slicewise::gui
