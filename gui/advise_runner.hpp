// Runs `slicewise advise` as a child process for the GUI's Advise action (a CliRunner): progress
// comes back as the CLI's `advise_progress` JSON lines (docs/advisor.md), with the whole run's
// fraction and times when the CLI gives them (CliRunner::track_progress), and the advice folder is
// kept until the next run or the runner's end. Cancel sends SIGTERM (the CLI stops its simulations
// and writes nothing).
#pragma once

#include <filesystem>

#include <QString>
#include <QStringList>

#include "gui/cli_runner.hpp"

namespace slicewise::gui {

class AdviseRunner : public CliRunner {
  Q_OBJECT

 public:
  explicit AdviseRunner(QObject* parent = nullptr);

  /// Starts advising on `document` with `extra_args` ("--jobs", "2", "--max-gpus", ...). False with
  /// `error` set when a run is going on or the scenario cannot be written.
  bool start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
             QString* error);
  /// The advice folder of the last successful run (advice.json, advice.md, pareto.svg, result.json).
  QString advice_dir() const { return work_file(QStringLiteral("advice")); }

 signals:
  /// Candidates sized so far out of all, and the simulations run; the fraction done in [0, 1] (the
  /// CLI's "total_fraction"; from a CLI without it, done / of), never less than the last one
  /// unless `of` grew; the times as progress_time_text() writes them, "" while the CLI has given none.
  void progress(int done, int of, int simulations, double fraction, const QString& time_text);

 private:
  bool on_event(const QJsonObject& event) override;
  void on_success() override;

  int candidates_ = 0;  ///< the most candidates a line of this run named
};

}  // namespace slicewise::gui
