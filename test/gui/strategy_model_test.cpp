// StrategyModel: shape, headers, cell texts and the parameters text, under
// QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "gui/model_text.hpp"
#include "gui/strategy_model.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class StrategyModelTest : public QObject {
  Q_OBJECT

 private slots:
  void setScenarioResetsRows() {
    ScenarioDocument document;
    StrategyModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 3);
    document.set_document(document_of(scenario::Scenario{}));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.count(), 2);
  }

  void headers() {
    ScenarioDocument document;
    StrategyModel model(&document);
    QCOMPARE(model.headerData(StrategyModel::kName, Qt::Horizontal).toString(), QStringLiteral("Name"));
    QCOMPARE(model.headerData(StrategyModel::kKind, Qt::Horizontal).toString(), QStringLiteral("Kind"));
    QCOMPARE(model.headerData(StrategyModel::kParameters, Qt::Horizontal).toString(), QStringLiteral("Parameters"));
  }

  void cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("dedicated name") << 0 << int(StrategyModel::kName) << "dedicated";
    QTest::newRow("dedicated kind") << 0 << int(StrategyModel::kKind) << "dedicated";
    QTest::newRow("dedicated defaults") << 0 << int(StrategyModel::kParameters) << "";
    QTest::newRow("named") << 1 << int(StrategyModel::kName) << "ts-10";
    QTest::newRow("time_slicing kind") << 1 << int(StrategyModel::kKind) << "time_slicing";
    QTest::newRow("time_slicing parameters")
        << 1 << int(StrategyModel::kParameters)
        << "replicas=10, quantum_ms=2, sidecars=2×t3.large; phi-3.5-mini: weight=2";
  }

  void cells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, expected);
    ScenarioDocument document;
    StrategyModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.data(model.index(row, column)).toString(), expected);
  }

  void parametersTooltipHasOneLinePerItem() {
    ScenarioDocument document;
    StrategyModel model(&document);
    document.set_document(document_of(two_tenant_scenario()));
    QCOMPARE(model.data(model.index(1, StrategyModel::kParameters), Qt::ToolTipRole).toString(),
             QStringLiteral("replicas=10\nquantum_ms=2\nsidecars=2×t3.large\nphi-3.5-mini: weight=2"));
  }

  void unnamedStrategyShowsItsKind() {
    ScenarioDocument document;
    StrategyModel model(&document);
    document.set_document(Json{{"strategies", Json::array({Json{{"kind", "mps"}}})}});
    QCOMPARE(model.data(model.index(0, StrategyModel::kName)).toString(), QStringLiteral("mps"));
  }

  void vgpuAndMigParameters() {
    scenario::StrategySpec vgpu;
    vgpu.kind = models::StrategyKind::vgpu;
    vgpu.placement = scenario::PlacementPolicy::spread;
    vgpu.vgpu_scheduler = scenario::VgpuScheduler::fixed_share;
    vgpu.timeslice_ms = 1.0;
    QCOMPARE(strategy_parameters_text(vgpu),
             QStringLiteral("placement=spread, vgpu_scheduler=fixed_share, timeslice_ms=1"));
    scenario::StrategySpec mig;
    mig.kind = models::StrategyKind::mig;
    mig.layout = "3g.40gb+2g.20gb";
    mig.tenants["a"].mig_profile = "3g.40gb";
    mig.tenants["b"].mig_profile = "2g.20gb";
    QCOMPARE(strategy_parameters_text(mig),
             QStringLiteral("layout=3g.40gb+2g.20gb; a: mig_profile=3g.40gb; b: mig_profile=2g.20gb"));
  }
};

int run_strategy_model_test(int argc, char** argv) {
  StrategyModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "strategy_model_test.moc"
