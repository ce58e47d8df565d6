// Runs `slicewise advise` as a child process (see advise_runner.hpp).
#include "gui/advise_runner.hpp"

#include <cmath>

#include <QDir>
#include <QFileInfo>

namespace slicewise::gui {

AdviseRunner::AdviseRunner(QObject* parent) : CliRunner(QStringLiteral("advise"), parent) {}

bool AdviseRunner::start(const Json& document, const std::filesystem::path& base_dir, const QStringList& extra_args,
                         QString* error) {
  candidates_ = 0;
  return start_cli(
      document, base_dir, QStringLiteral("slicewise-gui-advise-XXXXXX"), tr("advice is already being computed"),
      [&](const QString& scenario_file) {
        return QStringList{QStringLiteral("advise"),     scenario_file,         QStringLiteral("--out"), advice_dir(),
                           QStringLiteral("--progress"), QStringLiteral("json")} +
               extra_args;
      },
      error);
}

bool AdviseRunner::on_event(const QJsonObject& object) {
  if (object.value(QStringLiteral("event")).toString() != QLatin1String("advise_progress")) return false;
  const int done = object.value(QStringLiteral("candidates_done")).toInt();
  const int of = object.value(QStringLiteral("of")).toInt();
  if (of > candidates_) {
    if (candidates_ > 0) work_grew();  // the baseline's settings added candidates: 100 % was of fewer
    candidates_ = of;
  }
  const double fraction = track_progress(object, of > 0 ? static_cast<double>(done) / of : std::nan(""));
  emit progress(done, of, object.value(QStringLiteral("simulations")).toInt(), fraction, time_text());
  return true;
}

void AdviseRunner::on_success() {
  if (!QFileInfo(QDir(advice_dir()).filePath(QStringLiteral("advice.json"))).isFile()) {
    emit failed(tr("slicewise advise wrote no advice.json"));
    return;
  }
  emit finished();
}

}  // namespace slicewise::gui
