// FleetModel: shape, headers and cell texts, under QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include "gui/fleet_model.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class FleetModelTest : public QObject {
  Q_OBJECT

 private slots:
  void startsEmpty() {
    ScenarioDocument document;
    FleetModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(FleetModel::kNumColumns));
  }

  void setScenarioResetsRows() {
    ScenarioDocument document;
    FleetModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 4);
    document.set_document(document_of(scenario::Scenario{}));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.count(), 2);
  }

  void headers() {
    ScenarioDocument document;
    FleetModel model(&document);
    QCOMPARE(model.headerData(FleetModel::kGpu, Qt::Horizontal).toString(), QStringLiteral("GPU"));
    QCOMPARE(model.headerData(FleetModel::kInstanceType, Qt::Horizontal).toString(), QStringLiteral("Instance type"));
    QCOMPARE(model.headerData(FleetModel::kCount, Qt::Horizontal).toString(), QStringLiteral("Count"));
  }

  void cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("by gpu: gpu") << 0 << int(FleetModel::kGpu) << "L40S";
    QTest::newRow("by gpu: no instance type") << 0 << int(FleetModel::kInstanceType) << "";
    QTest::newRow("by gpu: count") << 0 << int(FleetModel::kCount) << "1";
    QTest::newRow("by instance: gpu") << 1 << int(FleetModel::kGpu) << "L40S";
    QTest::newRow("by instance: instance type") << 1 << int(FleetModel::kInstanceType) << "g6e.2xlarge";
    QTest::newRow("by instance: count") << 1 << int(FleetModel::kCount) << "2";
  }

  void cells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, expected);
    ScenarioDocument document;
    FleetModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.data(model.index(row, column)).toString(), expected);
  }

  void instanceTypeChoicesFollowThePriceTable() {
    ScenarioDocument document;
    FleetModel model(&document);
    document.set_document(document_of(two_tenant_scenario()));  // pricing: aws
    const auto choices = [&] {
      return model.data(model.index(0, FleetModel::kInstanceType), JsonTableModel::kChoicesRole).toStringList();
    };
    QVERIFY(choices().contains(QStringLiteral("g6e.2xlarge")));
    QVERIFY(!choices().contains(QStringLiteral("Standard_NC24ads_A100_v4")));
    document.set_value("/pricing/table", Json("azure"), QStringLiteral("table"));
    QVERIFY(choices().contains(QStringLiteral("Standard_NC24ads_A100_v4")));
    QVERIFY(!choices().contains(QStringLiteral("g6e.2xlarge")));
    document.undo_stack()->undo();
    QVERIFY(choices().contains(QStringLiteral("g6e.2xlarge")));
  }
};

int run_fleet_model_test(int argc, char** argv) {
  FleetModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "fleet_model_test.moc"
