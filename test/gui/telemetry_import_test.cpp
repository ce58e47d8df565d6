// Tenants from telemetry: tenants_from_import() on a fixture import document (the exact tenants,
// names made unique with "-2", "-3"), its whole messages for broken documents, the format a file
// name suggests, and TelemetryImportRunner against stand-in CLIs (its arguments, the document read
// back, the CLI's whole error text). The real CLI runs in MainWindowTest.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "gui/telemetry_import.hpp"
#include "gui/telemetry_import_runner.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

namespace {

/// What `profile import --out` writes for two workloads (docs/telemetry.md, "The JSON"), shortened:
/// the second workload without SM or bandwidth figures, as dcgm-exporter's default counters give.
const char* const kImport = R"({
  "source": {"file": "scrape.prom", "format": "dcgm-prometheus", "group_by": "container", "samples": 8},
  "tenants": [
    {
      "name": "inference/vllm-0/vllm",
      "workload": {"reference_gpu": "H100-SXM-80GB", "gpu_duty_frac": 0.7, "sm_occupancy_frac": 0.8,
                   "mem_bw_frac": 0.5, "memory_gib": 41.0},
      "spread": {"gpu_duty_frac": {"samples": 4, "mean": 0.7, "std": 0.1}},
      "samples": 4,
      "busy_samples": 4,
      "gpu_models": ["NVIDIA H100 80GB HBM3"],
      "notes": []
    },
    {
      "name": "training/resnet-train-0/pytorch",
      "workload": {"reference_gpu": "H100-SXM-80GB", "gpu_duty_frac": 0.95, "memory_gib": 60.0},
      "samples": 4,
      "busy_samples": 4,
      "notes": ["sm_occupancy_frac left out: no DCGM_FI_PROF_SM_ACTIVE"]
    }
  ],
  "skipped": [{"name": "gpu-node-1/gpu2", "samples": 4, "reason": "never busy"}]
})";

/// The whole message tenants_from_import throws for `import`.
std::string import_error(const Json& import) {
  try {
    tenants_from_import(import, "tenants.json", {});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

class TelemetryImportTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  /// An executable shell script standing in for `slicewise`.
  QString script(const QString& name, const QByteArray& body) {
    const QString path = write_file(dir_, name, "#!/bin/sh\n" + body);
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    return path;
  }

 private slots:
  void eachImportedWorkloadBecomesAGenericTenant() {
    const std::vector<Json> tenants = tenants_from_import(Json::parse(kImport), "tenants.json", {"alpha"});
    const std::vector<Json> expected = {
        Json::parse(R"({"name": "inference/vllm-0/vllm",
                        "workload": {"kind": "generic", "solo_latency_s": 0.1, "reference_gpu": "H100-SXM-80GB",
                                     "gpu_duty_frac": 0.7, "sm_occupancy_frac": 0.8, "mem_bw_frac": 0.5,
                                     "memory_gib": 41.0},
                        "load": {"kind": "poisson", "rate_per_s": 1},
                        "sla": {"environment": "internal"}})"),
        Json::parse(R"({"name": "training/resnet-train-0/pytorch",
                        "workload": {"kind": "generic", "solo_latency_s": 0.1, "reference_gpu": "H100-SXM-80GB",
                                     "gpu_duty_frac": 0.95, "memory_gib": 60.0},
                        "load": {"kind": "poisson", "rate_per_s": 1},
                        "sla": {"environment": "internal"}})"),
    };
    QCOMPARE(tenants.size(), expected.size());
    for (std::size_t i = 0; i < tenants.size(); ++i) {
      // Key order too: the editor saves the document as it holds it.
      QCOMPARE(QString::fromStdString(tenants[i].dump()), QString::fromStdString(expected[i].dump()));
    }
  }

  void takenNamesGetTheFirstFreeSuffix() {
    Json import = Json::parse(kImport);
    import["tenants"][1]["name"] = "inference/vllm-0/vllm";  // the same workload name twice
    restore_parents(import);
    const std::vector<Json> tenants =
        tenants_from_import(import, "tenants.json", {"inference/vllm-0/vllm", "inference/vllm-0/vllm-2"});
    QCOMPARE(tenants.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(tenants[0]["name"].get<std::string>()), QStringLiteral("inference/vllm-0/vllm-3"));
    QCOMPARE(QString::fromStdString(tenants[1]["name"].get<std::string>()), QStringLiteral("inference/vllm-0/vllm-4"));
    const std::vector<Json> once = tenants_from_import(Json::parse(kImport), "tenants.json", {"inference/vllm-0/vllm"});
    QCOMPARE(QString::fromStdString(once[0]["name"].get<std::string>()), QStringLiteral("inference/vllm-0/vllm-2"));
    QCOMPARE(QString::fromStdString(once[1]["name"].get<std::string>()),
             QStringLiteral("training/resnet-train-0/pytorch"));
  }

  void aWorkloadThatGivesItsKindKeepsIt() {
    Json import = Json::parse(kImport);
    import["tenants"][0]["workload"]["solo_latency_s"] = 0.25;
    restore_parents(import);
    const std::vector<Json> tenants = tenants_from_import(import, "tenants.json", {});
    QCOMPARE(QString::fromStdString(tenants[0]["workload"].dump()),
             QStringLiteral(R"({"kind":"generic","solo_latency_s":0.25,"reference_gpu":"H100-SXM-80GB",)"
                            R"("gpu_duty_frac":0.7,"sm_occupancy_frac":0.8,"mem_bw_frac":0.5,"memory_gib":41.0})"));
  }

  void brokenDocumentsGiveEveryProblemAtItsPointer() {
    QCOMPARE(QString::fromStdString(import_error(Json::array())),
             QStringLiteral("tenants.json: /: expected object (got [])"));
    QCOMPARE(QString::fromStdString(import_error(Json::object())),
             QStringLiteral("tenants.json: /: missing required key \"tenants\""));
    QCOMPARE(QString::fromStdString(import_error(Json::parse(R"({"tenants": {}})"))),
             QStringLiteral("tenants.json: /tenants: expected array (got {})"));
    QCOMPARE(QString::fromStdString(import_error(Json::parse(R"({"tenants": []})"))),
             QStringLiteral("tenants.json: /tenants: must not be empty: the import found no busy workload"));
    QCOMPARE(
        QString::fromStdString(import_error(Json::parse(
            R"({"tenants": [3, {"workload": {}}, {"name": "", "workload": []}, {"name": "a\tb", "workload": {}}]})"))),
        QStringLiteral("tenants.json: /tenants/0: expected object (got 3)\n"
                       "tenants.json: /tenants/1: missing required key \"name\"\n"
                       "tenants.json: /tenants/2/name: must not be empty\n"
                       "tenants.json: /tenants/2/workload: expected object (got [])\n"
                       "tenants.json: /tenants/3/name: must not contain control characters such as line "
                       "breaks or tabs, nor U+0085, U+2028 or U+2029 (got \"a\\tb\")"));
    QCOMPARE(QString::fromStdString(import_error(Json::parse(R"({"tenants": [{"name": 7}]})"))),
             QStringLiteral("tenants.json: /tenants/0/name: expected string (got 7)\n"
                            "tenants.json: /tenants/0: missing required key \"workload\""));
  }

  void theFileNameSuggestsTheFormat() {
    QCOMPARE(telemetry_format_choices(), (QStringList{"dcgm-prometheus", "dcgmi-dmon", "pai-sensor"}));
    QCOMPARE(guess_telemetry_format("/data/scrape.prom"), QStringLiteral("dcgm-prometheus"));
    QCOMPARE(guess_telemetry_format("scrape.PROM.zst"), QStringLiteral("dcgm-prometheus"));
    QCOMPARE(guess_telemetry_format("dmon.txt"), QStringLiteral("dcgmi-dmon"));
    QCOMPARE(guess_telemetry_format("dmon.log.gz"), QStringLiteral("dcgmi-dmon"));
    QCOMPARE(guess_telemetry_format("pai_sensor_table.csv"), QStringLiteral("pai-sensor"));
    QCOMPARE(guess_telemetry_format("metrics.json"), QString());
  }

  void tenantNamesOfADocument() {
    QCOMPARE(tenant_names(Json::parse(valid_scenario_json().toStdString())),
             (std::vector<std::string>{"alpha", "beta"}));
    QCOMPARE(tenant_names(Json::parse(R"({"tenants": [{"name": 1}, {"name": "x"}, 2]})")),
             std::vector<std::string>{"x"});
    QCOMPARE(tenant_names(Json::object()), std::vector<std::string>{});
  }

  void theRunnerPassesTheOptionsAndReadsTheDocumentBack() {
    const QString args_file = dir_.filePath("import-args.txt");
    // Writes the fixture to the file after --out ($7), as the CLI does.
    const QString fixture = write_file(dir_, "fixture.json", kImport);
    TelemetryImportRunner runner;
    runner.set_program(script("import.sh", "echo \"$@\" > '" + args_file.toUtf8() + "'\ncp '" + fixture.toUtf8() +
                                               "' \"$7\"\necho 'a table on stdout'\n"));
    QSignalSpy finished(&runner, &TelemetryImportRunner::finished);
    QSignalSpy failed(&runner, &TelemetryImportRunner::failed);
    QString error;
    QVERIFY2(runner.start("/data/scrape.prom", "dcgm-prometheus", "H100-SXM-80GB", &error), qPrintable(error));
    QVERIFY(!runner.start("/data/scrape.prom", "dcgm-prometheus", "", &error));
    QCOMPARE(error, QStringLiteral("telemetry is already being imported"));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 10000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(QString::fromStdString(read_text_file(args_file.toStdString())).trimmed(),
             QStringLiteral("profile import /data/scrape.prom --format dcgm-prometheus --out %1 --reference-gpu "
                            "H100-SXM-80GB")
                 .arg(runner.out_file()));
    QVERIFY(runner.out_file().endsWith(QLatin1String("/tenants.json")));
    QCOMPARE(runner.file(), QStringLiteral("/data/scrape.prom"));
    QCOMPARE(QString::fromStdString(runner.imported().dump()), QString::fromStdString(Json::parse(kImport).dump()));
  }

  void theRunnerGivesTheClisWholeMessage() {
    TelemetryImportRunner runner;
    runner.set_program(script("import-fail.sh",
                              "echo 'scrape.prom:4: expected , or } after label \"pod\", got \"0.950000\"' >&2\n"
                              "echo 'and a second line' >&2\nexit 1\n"));
    QSignalSpy failed(&runner, &TelemetryImportRunner::failed);
    QString error;
    QVERIFY2(runner.start("scrape.prom", "dcgm-prometheus", "", &error), qPrintable(error));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    QCOMPARE(failed.front().front().toString(),
             QStringLiteral("scrape.prom:4: expected , or } after label \"pod\", got \"0.950000\"\nand a second line"));
  }

  void aCliThatWritesNothingIsAFailure() {
    TelemetryImportRunner runner;
    runner.set_program(script("import-nothing.sh", "exit 0\n"));
    QSignalSpy failed(&runner, &TelemetryImportRunner::failed);
    QString error;
    QVERIFY2(runner.start("scrape.prom", "dcgm-prometheus", "", &error), qPrintable(error));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    const std::string out = runner.out_file().toStdString();
    QCOMPARE(failed.front().front().toString(), QStringLiteral("slicewise profile import wrote no readable tenants: %1")
                                                    .arg(QString::fromStdString(import_error_of_missing(out))));
  }

 private:
  /// read_text_file's own message for a file that does not exist.
  static std::string import_error_of_missing(const std::string& path) {
    try {
      read_text_file(path);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "(read)";
  }
};

int run_telemetry_import_test(int argc, char** argv) {
  TelemetryImportTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "telemetry_import_test.moc"
