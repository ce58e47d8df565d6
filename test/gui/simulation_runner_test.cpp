// SimulationRunner against stand-in CLIs (shell scripts): the arguments and the scenario it writes,
// progress from JSON lines, the CLI's error text on failure, a program that cannot start, and a
// result read back on success. The real CLI runs in MainWindowTest.
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/json_file.hpp"
#include "gui/simulation_runner.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class SimulationRunnerTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  /// An executable shell script standing in for `slicewise`.
  QString script(const QString& name, const QByteArray& body) {
    const QString path = write_file(dir_, name, "#!/bin/sh\n" + body);
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    return path;
  }

  /// The test scenario with tenant alpha replaying a relative trace path.
  Json scenario_with_trace() {
    Json document = Json::parse(valid_scenario_json().toStdString());
    document["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "traces/a.csv"}};
    return document;
  }

 private slots:
  void progressAndTheCliErrorOnFailure() {
    const QString capture = dir_.filePath("captured.json");
    SimulationRunner runner;
    runner.set_program(script(
        "fail.sh",
        "cp \"$2\" '" + capture.toUtf8() +
            "'\n"
            "echo \"$@\" > '" +
            dir_.filePath("args.txt").toUtf8() +
            "'\n"
            "echo '{\"event\":\"progress\",\"strategy\":\"dedicated\",\"index\":0,\"of\":2,\"fraction\":0.5}' >&2\n"
            "echo '{\"event\":\"done\",\"strategy\":\"dedicated\",\"index\":0,\"of\":2,\"ok\":true}' >&2\n"
            "echo 'boom: the second strategy failed' >&2\n"
            "exit 1\n"));
    QSignalSpy progress(&runner, &SimulationRunner::progress);
    QSignalSpy failed(&runner, &SimulationRunner::failed);
    QString error;
    QVERIFY2(runner.start(scenario_with_trace(), "/project", {"--jobs", "2"}, &error), qPrintable(error));
    QVERIFY(runner.is_running());
    QVERIFY(!runner.start(scenario_with_trace(), "/project", {}, &error));
    QCOMPARE(error, QStringLiteral("a simulation is already running"));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    QCOMPARE(failed.front().front().toString(), QStringLiteral("boom: the second strategy failed"));
    // Mean over the strategies: 0.5 of one of two, then that one done.
    QCOMPARE(progress.count(), 2);
    QCOMPARE(progress.at(0).at(0).toDouble(), 0.25);
    QCOMPARE(progress.at(1).at(0).toDouble(), 0.5);
    QCOMPARE(progress.at(1).at(1).toString(), QStringLiteral("dedicated"));

    // The arguments, and the scenario written with its relative paths made absolute.
    const QString args = QString::fromStdString(read_text_file(dir_.filePath("args.txt").toStdString())).trimmed();
    QVERIFY2(QRegularExpression(R"(^simulate \S+/scenario\.json --progress json --out \S+/result\.json --jobs 2$)")
                 .match(args)
                 .hasMatch(),
             qPrintable(args));
    const Json written = Json::parse(read_text_file(capture.toStdString()));
    QCOMPARE(QString::fromStdString(written["tenants"][0]["load"]["trace_file"].get<std::string>()),
             QStringLiteral("/project/traces/a.csv"));
    QCOMPARE(QString::fromStdString(written["name"].get<std::string>()), QStringLiteral("gui-test"));
  }

  void aResultIsReadBack() {
    SimulationRunner runner;
    runner.set_program(script("ok.sh", "cp '" SW_TEST_DATA_DIR "/results/seed-report.json' \"$6\"\n"));
    QSignalSpy finished(&runner, &SimulationRunner::finished);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 10000));
    QCOMPARE(runner.result().strategies.size(), std::size_t(2));
    QCOMPARE(runner.result().strategies[1].name, std::string("time_slicing"));
  }

  void exitWithoutAMessageSaysTheCode() {
    SimulationRunner runner;
    runner.set_program(script("quiet.sh", "exit 3\n"));
    QSignalSpy failed(&runner, &SimulationRunner::failed);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    QCOMPARE(failed.front().front().toString(), QStringLiteral("slicewise simulate exited with code 3"));
  }

  void aProgramThatCannotStart() {
    SimulationRunner runner;
    runner.set_program(dir_.filePath("absent/slicewise"));
    QSignalSpy failed(&runner, &SimulationRunner::failed);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() >= 1; }, 10000));
    QTest::qWait(100);
    QCOMPARE(failed.count(), 1);  // once, not again as a finished process
    QVERIFY(!runner.is_running());
    QCOMPARE(failed.front().front().toString(),
             QStringLiteral("cannot start %1: execvp: No such file or directory (set SLICEWISE_CLI to the slicewise "
                            "program)")
                 .arg(dir_.filePath("absent/slicewise")));
  }

  void cancelStopsAndSaysSo() {
    SimulationRunner runner;
    runner.set_program(script("slow.sh", "exec sleep 30\n"));
    QSignalSpy cancelled(&runner, &SimulationRunner::cancelled);
    QSignalSpy failed(&runner, &SimulationRunner::failed);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return runner.is_running(); }, 5000));
    runner.cancel();
    QVERIFY(QTest::qWaitFor([&] { return cancelled.count() == 1; }, 10000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!runner.is_running());
  }
};

int run_simulation_runner_test(int argc, char** argv) {
  SimulationRunnerTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "simulation_runner_test.moc"
