// Runs `slicewise simulate` as a child process (see simulation_runner.hpp).
#include "gui/simulation_runner.hpp"

#include <cmath>
#include <exception>

#include "scenario/result_json.hpp"

namespace slicewise::gui {

SimulationRunner::SimulationRunner(QObject* parent) : CliRunner(QStringLiteral("simulate"), parent) {}

bool SimulationRunner::start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
                             QString* error) {
  const bool started = start_cli(
      document, base_dir, QStringLiteral("slicewise-gui-XXXXXX"), tr("a simulation is already running"),
      [&](const QString& scenario_file) {
        return QStringList{QStringLiteral("simulate"),   scenario_file,
                           QStringLiteral("--progress"), QStringLiteral("json"),
                           QStringLiteral("--out"),      work_file(QStringLiteral("result.json"))} +
               extra_args;
      },
      error);
  if (started) fractions_.clear();
  return started;
}

bool SimulationRunner::on_event(const QJsonObject& object) {
  const QString event = object.value(QStringLiteral("event")).toString();
  const int of = object.value(QStringLiteral("of")).toInt();
  const int at = object.value(QStringLiteral("index")).toInt();
  double mean = std::nan("");
  if (of > 0 && at >= 0 && at < of) {
    fractions_.resize(static_cast<std::size_t>(of), 0.0);
    fractions_[static_cast<std::size_t>(at)] =
        event == QLatin1String("done") ? 1.0 : object.value(QStringLiteral("fraction")).toDouble();
    double total = 0.0;
    for (double f : fractions_) total += f;
    mean = total / of;
  } else if (!object.contains(QStringLiteral("total_fraction"))) {
    return true;  // a line about no strategy, without the run's figures: nothing to show
  }
  const double fraction = track_progress(object, mean);
  emit progress(fraction, object.value(QStringLiteral("strategy")).toString(), time_text());
  return true;
}

void SimulationRunner::on_success() {
  try {
    result_ = scenario::load_result(work_file(QStringLiteral("result.json")).toStdString());
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  emit finished();
}

}  // namespace slicewise::gui
