// The Details and Faults tabs' models over the seed result with a hand-built FaultRecord on
// time_slicing (test_results.hpp): a strategy's tenants gain their fault columns only when it has
// faults, its devices their phase only when one is set, and the run's events and expected faults
// read as written; always under QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QTest>

#include "gui/model_text.hpp"
#include "gui/result_text.hpp"
#include "gui/strategy_detail_models.hpp"
#include "gui_test.hpp"
#include "test_results.hpp"

namespace slicewise::gui::test {

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

/// Row `row` of `model` as shown, column by column.
QStringList row_texts(const QAbstractItemModel& model, int row) {
  QStringList out;
  for (int column = 0; column < model.columnCount(); ++column) out << model.index(row, column).data().toString();
  return out;
}

}  // namespace

class StrategyDetailModelTest : public QObject {
  Q_OBJECT

 private slots:
  void tenantsWithoutFaultsHaveNoFaultColumns() {
    const scenario::SimResult result = load_test_result("seed-report");
    TenantResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_strategy(result.strategies.at(0));
    QVERIFY(!model.has_fault_columns());
    QCOMPARE(model.headers(), (QStringList{"Tenant", "Contexts", "Completed", "p95 s", "p99 s", "Over\nSLA %", "SLA"}));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(row_texts(model, 0), (QStringList{"phi-3.5-mini-instruct", "1", "986", "0.609", "0.609", "0.00", "met"}));
    QCOMPARE(model.column_of(QStringLiteral("Failed")), -1);
  }

  void tenantsWithFaultsShowFailuresRetriesDowntimeAndAvailability() {
    const scenario::SimResult result = seed_result_with_faults();
    TenantResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_strategy(result.strategies.at(1));
    QVERIFY(model.has_fault_columns());
    QCOMPARE(model.headers(), (QStringList{"Tenant", "Contexts", "Completed", "p95 s", "p99 s", "Over\nSLA %", "SLA",
                                           "Interruptions", "Failed", "Retried", "Downtime\ns", "Avail. %\nrun",
                                           "Avail. %\nexpected", "Outage\nh/month"}));
    // phi: 1 − 12.5 / 600 = 97.917 % in the run; 99.875 % and 0.9125 h a month expected.
    QCOMPARE(row_texts(model, 0), (QStringList{"phi-3.5-mini-instruct", "1", "568", "1.057", "1.057", "0.00", "met",
                                               "2", "3", "5", "12.5", "97.917", "99.875", "0.91"}));
    QCOMPARE(row_texts(model, 1), (QStringList{"deepseek-r1-distill-llama-8b", "1", "305", "1.969", "1.969", "0.00",
                                               "met", "2", "0", "2", "0.0", "100.000", "99.950", "0.36"}));
    const int failed = model.column_of(QStringLiteral("Failed"));
    QCOMPARE(model.index(0, failed).data(kSortRole).toLongLong(), 3);
    QCOMPARE(model.index(0, failed).data(Qt::TextAlignmentRole).toInt(), kNumberAlignment);
    QVERIFY(!model.index(0, 0).data(Qt::TextAlignmentRole).isValid());
    QCOMPARE(model.index(0, model.column_of(QStringLiteral("Avail. %\nrun"))).data(kSortRole).toDouble(),
             100.0 * (1.0 - 12.5 / 600.0));
    QCOMPARE(model.headerData(failed, Qt::Horizontal, Qt::ToolTipRole).toString(),
             QStringLiteral("Requests lost when their context went down and not re-sent (counted as SLA violations)"));

    // A tenant the record does not list has no expected figures.
    scenario::StrategyResult partial = result.strategies.at(1);
    partial.faults->tenants.pop_back();
    model.set_strategy(partial);
    QCOMPARE(model.index(1, model.column_of(QStringLiteral("Avail. %\nexpected"))).data().toString(),
             QStringLiteral("—"));
    QVERIFY(!model.index(1, model.column_of(QStringLiteral("Outage\nh/month"))).data(kSortRole).isValid());
  }

  void devicesShowTheirPhaseOnlyWhenSet() {
    const scenario::SimResult result = seed_result_with_faults();
    DeviceResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_strategy(result.strategies.at(0));  // dedicated: no phase, no faults
    QCOMPARE(model.headers(),
             (QStringList{"Device", "GPU", "MIG profile", "Contexts", "Busy\n%", "SM util\n%", "Memory\nGiB"}));
    QCOMPARE(row_texts(model, 1),
             (QStringList{"gpu1", "L40S", "—", "deepseek-r1-distill-llama-8b#0", "89.6", "62.7", "19.2 / 48.0"}));
    model.set_strategy(result.strategies.at(1));  // time_slicing: phase "day", 300 s out of it, 12.5 s down
    QCOMPARE(model.headers(), (QStringList{"Device", "GPU", "MIG profile", "Phase", "Contexts", "Busy\n%", "SM util\n%",
                                           "Memory\nGiB", "Out of\nphase s", "Down\ns"}));
    QCOMPARE(row_texts(model, 0),
             (QStringList{"gpu0", "L40S", "—", "day", "phi-3.5-mini-instruct#0, deepseek-r1-distill-llama-8b#0", "99.3",
                          "59.0", "38.4 / 48.0", "300.0", "12.5"}));
  }

  void eventsListEveryStrategysFaultsInOrder() {
    FaultEventModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_result(seed_result_with_faults());
    QCOMPARE(model.headers(),
             (QStringList{"Strategy", "Time\ns", "Kind", "GPU", "Origin", "Hit", "Tenants\nhit", "Outage\ns", "From"}));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(row_texts(model, 0),
             (QStringList{"time_slicing", "120.0", "gpu_failure", "0", "—",
                          "phi-3.5-mini-instruct#0, deepseek-r1-distill-llama-8b#0", "2", "3600.0", "schedule"}));
    QCOMPARE(row_texts(model, 1),
             (QStringList{"time_slicing", "300.5", "tenant_crash", "0", "phi-3.5-mini-instruct#0",
                          "phi-3.5-mini-instruct#0, deepseek-r1-distill-llama-8b#0", "2", "30.0", "drawn"}));
    QCOMPARE(model.index(1, 1).data(kSortRole).toDouble(), 300.5);
    model.set_result(load_test_result("seed-report"));
    QCOMPARE(model.rowCount(), 0);
  }

  void expectedFaultsPerStrategyAndKind() {
    FaultExposureModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_result(seed_result_with_faults());
    QCOMPARE(model.headers(),
             (QStringList{"Strategy", "Kind", "Per\nmonth", "Tenants\nper fault", "Contexts\nper fault", "Outage\ns"}));
    QCOMPARE(row_texts(model, 0), (QStringList{"time_slicing", "gpu_failure", "0.0088", "2.00", "2.00", "3600"}));
    QCOMPARE(row_texts(model, 1), (QStringList{"time_slicing", "tenant_crash", "1.46", "1.50", "1.50", "30"}));
    QCOMPARE(model.index(0, 2).data(kSortRole).toDouble(), 0.0088);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 0);
  }
};

int run_strategy_detail_model_test(int argc, char** argv) {
  StrategyDetailModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "strategy_detail_models_test.moc"
