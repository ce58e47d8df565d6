// SimulationRunner against stand-in CLIs (shell scripts): the arguments and the scenario it writes,
// progress from JSON lines (the whole run's fraction and times, or an older CLI's per-strategy
// fractions; the advisor's lines too), the CLI's error text on failure, a program that cannot
// start, and a result read back on success. The real CLI runs in MainWindowTest.
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/json_file.hpp"
#include "gui/advise_runner.hpp"
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
    // A CLI without the run's figures: the mean over the strategies (0.5 of one of two, then that
    // one done), and no times.
    QCOMPARE(progress.count(), 2);
    QCOMPARE(progress.at(0).at(0).toDouble(), 0.25);
    QCOMPARE(progress.at(1).at(0).toDouble(), 0.5);
    QCOMPARE(progress.at(1).at(1).toString(), QStringLiteral("dedicated"));
    QCOMPARE(progress.at(1).at(2).toString(), QString());

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

  void progressFollowsTheWholeRunWithItsTimes() {
    // The CLI's whole-run fraction and times on every progress line (cli/progress_meter.hpp): the
    // bar follows total_fraction, not the mean of the strategies' own fractions, and never goes back.
    auto line = [](const char* json) { return QByteArray("echo '") + json + "' >&2\n"; };
    SimulationRunner runner;
    runner.set_program(
        script("times.sh", line(R"({"event":"progress","strategy":"dedicated","index":0,"of":2,"fraction":0.5,)"
                                R"("total_fraction":0.4,"elapsed_s":0.3,"eta_s":null})") +
                               line(R"({"event":"progress","strategy":"mps","index":1,"of":2,"fraction":0.9,)"
                                    R"("total_fraction":0.6,"elapsed_s":12.4,"eta_s":8.6})") +
                               line(R"({"event":"progress","strategy":"dedicated","index":0,"of":2,"fraction":0.6,)"
                                    R"("total_fraction":0.55,"elapsed_s":13.0,"eta_s":10.4})") +
                               line(R"({"event":"done","strategy":"dedicated","index":0,"of":2,"ok":true})") +
                               line(R"({"event":"progress","strategy":"mps","index":1,"of":2,"fraction":1,)"
                                    R"("total_fraction":0.7,"elapsed_s":75.4,"eta_s":3721})") +
                               "cp '" SW_TEST_DATA_DIR "/results/seed-report.json' \"$6\"\n"));
    QSignalSpy progress(&runner, &SimulationRunner::progress);
    QSignalSpy finished(&runner, &SimulationRunner::finished);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 10000));
    QCOMPARE(progress.count(), 5);
    const QList<double> fractions{0.4, 0.6, 0.6, 0.6, 0.7};  // 0.55 and the mean 0.95 of "done" ignored
    const QStringList strategies{"dedicated", "mps", "dedicated", "dedicated", "mps"};
    const QStringList times{"0 s elapsed, estimating the time left", "12 s elapsed, about 9 s left",
                            "13 s elapsed, about 10 s left", "13 s elapsed, about 10 s left",
                            "1 min 15 s elapsed, about 1 h 02 min left"};
    for (int i = 0; i < progress.count(); ++i) {
      QCOMPARE(progress.at(i).at(0).toDouble(), fractions.at(i));
      QCOMPARE(progress.at(i).at(1).toString(), strategies.at(i));
      QCOMPARE(progress.at(i).at(2).toString(), times.at(i));
    }

    // A new run starts from nothing: no fraction or times of the last one.
    runner.set_program(
        script("old.sh", line(R"({"event":"progress","strategy":"dedicated","index":0,"of":4,"fraction":0.4})") +
                             "cp '" SW_TEST_DATA_DIR "/results/seed-report.json' \"$6\"\n"));
    progress.clear();
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 2; }, 10000));
    QCOMPARE(progress.count(), 1);
    QCOMPARE(progress.at(0).at(0).toDouble(), 0.1);
    QCOMPARE(progress.at(0).at(2).toString(), QString());
  }

  void adviceProgressFollowsTheWholeRunToo() {
    // `advise --progress json`: candidates sized out of all, then (a newer CLI) the run's figures.
    auto line = [](const char* json) { return QByteArray("echo '") + json + "' >&2\n"; };
    AdviseRunner runner;
    runner.set_program(
        script("advise.sh", line(R"({"event":"advise_progress","simulations":3,"candidates_done":1,"of":4})") +
                                line(R"({"event":"advise_progress","simulations":5,"candidates_done":2,"of":4,)"
                                     R"("total_fraction":0.3,"elapsed_s":4.2,"eta_s":9.8})") +
                                line(R"({"event":"advise_progress","simulations":6,"candidates_done":3,"of":4,)"
                                     R"("total_fraction":0.28,"elapsed_s":5,"eta_s":null})") +
                                line(R"({"event":"advise_progress","simulations":9,"candidates_done":4,"of":4,)"
                                     R"("total_fraction":1,"elapsed_s":6,"eta_s":0})") +
                                line(R"({"event":"advise_progress","simulations":9,"candidates_done":4,"of":6,)"
                                     R"("total_fraction":0.667,"elapsed_s":6,"eta_s":3})") +
                                "echo 'advise: interrupted' >&2\nexit 1\n"));
    QSignalSpy progress(&runner, &AdviseRunner::progress);
    QSignalSpy failed(&runner, &AdviseRunner::failed);
    QVERIFY(runner.start(scenario_with_trace(), "/project", {}, nullptr));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    QCOMPARE(failed.front().front().toString(), QStringLiteral("advise: interrupted"));
    QCOMPARE(progress.count(), 5);
    // Candidates 1 of 4 (no total_fraction yet), then the CLI's fraction, which 0.28 and the
    // candidates' 3/4 do not move; then 4 of 4, and the baseline's settings add two candidates: the
    // bar goes back to 4 of 6 once (it used to stay full, "about 0 s left").
    const QList<double> fractions{0.25, 0.3, 0.3, 1.0, 0.667};
    const QStringList times{"", "4 s elapsed, about 10 s left", "5 s elapsed, estimating the time left",
                            "6 s elapsed, about 0 s left", "6 s elapsed, about 3 s left"};
    for (int i = 0; i < progress.count(); ++i) {
      QCOMPARE(progress.at(i).at(1).toInt(), i < 4 ? 4 : 6);
      QCOMPARE(progress.at(i).at(3).toDouble(), fractions.at(i));
      QCOMPARE(progress.at(i).at(4).toString(), times.at(i));
    }
    QCOMPARE(progress.at(2).at(0).toInt(), 3);  // candidates done
    QCOMPARE(progress.at(2).at(2).toInt(), 6);  // simulations
  }

  void durationsAreWrittenAsTheCliWritesThem() {
    QCOMPARE(duration_text(0.0), QStringLiteral("0 s"));
    QCOMPARE(duration_text(7.4), QStringLiteral("7 s"));
    QCOMPARE(duration_text(59.6), QStringLiteral("1 min 00 s"));  // rounded first
    QCOMPARE(duration_text(185.0), QStringLiteral("3 min 05 s"));
    QCOMPARE(duration_text(7440.0), QStringLiteral("2 h 04 min"));
    QCOMPARE(duration_text(-3.0), QStringLiteral("0 s"));
    QCOMPARE(progress_time_text(12.4, 8.6), QStringLiteral("12 s elapsed, about 9 s left"));
    QCOMPARE(progress_time_text(3.0, std::nullopt), QStringLiteral("3 s elapsed, estimating the time left"));
    QCOMPARE(progress_time_text(30.0, 0.2), QStringLiteral("30 s elapsed, under 1 s left"));  // was "about 0 s"
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
