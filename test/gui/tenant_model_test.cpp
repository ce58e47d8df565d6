// TenantModel: shape, headers and cell texts (numbers, optionals, load text), under
// QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "gui/model_text.hpp"
#include "gui/tenant_model.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class TenantModelTest : public QObject {
  Q_OBJECT

 private slots:
  void setScenarioResetsRows() {
    ScenarioDocument document;
    TenantModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QCOMPARE(model.rowCount(), 0);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 8);
    document.set_document(document_of(scenario::Scenario{}));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.count(), 2);
  }

  void headers() {
    ScenarioDocument document;
    TenantModel model(&document);
    QStringList headers;
    for (int column = 0; column < model.columnCount(); ++column) {
      headers << model.headerData(column, Qt::Horizontal).toString();
    }
    QCOMPARE(headers, QStringList({"Name", "Kind", "Solo latency (s)", "Memory (GiB)", "Max concurrency", "Load",
                                   "SLA latency (s)", "Isolation"}));
  }

  void cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("name") << 0 << int(TenantModel::kName) << "phi-3.5-mini";
    QTest::newRow("kind generic") << 0 << int(TenantModel::kKind) << "generic";
    QTest::newRow("solo latency") << 0 << int(TenantModel::kSoloLatency) << "0.609";
    QTest::newRow("memory") << 0 << int(TenantModel::kMemory) << "19.2";
    QTest::newRow("max concurrency") << 0 << int(TenantModel::kMaxConcurrency) << "16";
    QTest::newRow("poisson load") << 0 << int(TenantModel::kLoad) << "poisson 2/s";
    QTest::newRow("sla latency") << 0 << int(TenantModel::kSlaLatency) << "2";
    QTest::newRow("isolation none") << 0 << int(TenantModel::kIsolation) << "none";
    QTest::newRow("second name") << 1 << int(TenantModel::kName) << "deepseek-8b";
    QTest::newRow("kind llm") << 1 << int(TenantModel::kKind) << "llm";
    QTest::newRow("no solo latency") << 1 << int(TenantModel::kSoloLatency) << "";
    QTest::newRow("no memory: its engine's") << 1 << int(TenantModel::kMemory) << "";
    QTest::newRow("closed-loop load") << 1 << int(TenantModel::kLoad) << "closed_loop 3 users, think 1.5 s";
    QTest::newRow("no sla latency") << 1 << int(TenantModel::kSlaLatency) << "";
    QTest::newRow("isolation software") << 1 << int(TenantModel::kIsolation) << "software";
  }

  void cells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, expected);
    ScenarioDocument document;
    TenantModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.data(model.index(row, column)).toString(), expected);
  }

  void numbersAlignRight() {
    ScenarioDocument document;
    TenantModel model(&document);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.data(model.index(0, TenantModel::kMemory), Qt::TextAlignmentRole).toInt(), kNumberAlignment);
    QVERIFY(!model.data(model.index(0, TenantModel::kName), Qt::TextAlignmentRole).isValid());
  }

  void loadText_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("poisson") << int(scenario::LoadKind::poisson) << "poisson 0.5/s";
    QTest::newRow("one user") << int(scenario::LoadKind::closed_loop) << "closed_loop 1 user, think 0 s";
    QTest::newRow("trace") << int(scenario::LoadKind::trace) << "trace traces/a.csv (azure-llm)";
  }

  void loadText() {
    QFETCH(int, kind);
    QFETCH(QString, expected);
    scenario::LoadSpec load;
    load.kind = static_cast<scenario::LoadKind>(kind);
    load.rate_per_s = 0.5;
    load.num_users = 1;
    load.trace_file = "traces/a.csv";
    load.trace_format = "azure-llm";
    QCOMPARE(load_text(load), expected);
  }
};

int run_tenant_model_test(int argc, char** argv) {
  TenantModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "tenant_model_test.moc"
