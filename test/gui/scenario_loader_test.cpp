// try_load_scenario: a valid file gives a scenario, a bad one its diagnostics, nothing throws.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "gui/scenario_loader.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class ScenarioLoaderTest : public QObject {
  Q_OBJECT

 private:
  std::filesystem::path write(const QString& name, const QByteArray& text) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(text);
    return std::filesystem::path(path.toStdString());
  }

  QTemporaryDir dir_;

 private slots:
  void validFileGivesScenario() {
    const auto path = write("valid.json", valid_scenario_json());
    const LoadResult result = try_load_scenario(path);
    QVERIFY2(result.ok(), result.diagnostics.empty() ? "" : result.diagnostics.front().format().c_str());
    QCOMPARE(result.scenario->name, std::string("gui-test"));
    QCOMPARE(result.scenario->tenants.size(), std::size_t{2});
    QVERIFY(result.diagnostics.empty());
  }

  void unknownKeyGivesDiagnosticWithPointer() {
    const auto path = write("broken.json", broken_scenario_json());
    const LoadResult result = try_load_scenario(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.diagnostics.size(), std::size_t{1});
    const Diagnostic& d = result.diagnostics.front();
    QCOMPARE(d.file, path.string());
    QCOMPARE(d.pointer, std::string("/horizon"));
    QCOMPARE(d.message, std::string("unknown key (did you mean \"horizon_s\"?)"));
  }

  void missingFileGivesDiagnostic() {
    const std::filesystem::path path = dir_.filePath("absent.json").toStdString();
    const LoadResult result = try_load_scenario(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.diagnostics.size(), std::size_t{1});
    QCOMPARE(result.diagnostics.front().file, path.string());
  }
};

int run_scenario_loader_test(int argc, char** argv) {
  ScenarioLoaderTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "scenario_loader_test.moc"
