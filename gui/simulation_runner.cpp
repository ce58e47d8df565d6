// Runs `slicewise simulate` as a child process (see simulation_runner.hpp).
#include "gui/simulation_runner.hpp"

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
  if (of <= 0 || at < 0 || at >= of) return true;
  fractions_.resize(static_cast<std::size_t>(of), 0.0);
  fractions_[static_cast<std::size_t>(at)] =
      event == QLatin1String("done") ? 1.0 : object.value(QStringLiteral("fraction")).toDouble();
  double total = 0.0;
  for (double f : fractions_) total += f;
  emit progress(total / of, object.value(QStringLiteral("strategy")).toString());
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
