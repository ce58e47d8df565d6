// CompareModel over the seed run (A) and the mixed MIG fleet (B): row order, A | B | Δ texts, "—"
// for a side without the strategy, raw numbers on kSortRole; always under
// QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "gui/compare_model.hpp"
#include "gui/result_text.hpp"
#include "gui_test.hpp"
#include "test_results.hpp"

namespace slicewise::gui::test {

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

QString cell(const QAbstractItemModel& model, int row, CompareModel::Metric metric, CompareModel::Side side) {
  return model.index(row, CompareModel::column(metric, side)).data().toString();
}

}  // namespace

class CompareModelTest : public QObject {
  Q_OBJECT

 private slots:
  void startsEmpty() {
    CompareModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 1 + 3 * CompareModel::kNumMetrics);
  }

  void headers() {
    CompareModel model;
    auto header = [&](CompareModel::Metric metric, CompareModel::Side side, int role) {
      return model.headerData(CompareModel::column(metric, side), Qt::Horizontal, role).toString();
    };
    QCOMPARE(model.headerData(CompareModel::kStrategyColumn, Qt::Horizontal).toString(), QStringLiteral("Strategy"));
    QCOMPARE(header(CompareModel::kMonthlyCost, CompareModel::kA, Qt::DisplayRole), QStringLiteral("$/month A"));
    QCOMPARE(header(CompareModel::kBusyPercent, CompareModel::kB, Qt::DisplayRole), QStringLiteral("Busy % B"));
    QCOMPARE(header(CompareModel::kWorstP95, CompareModel::kDelta, Qt::DisplayRole), QStringLiteral("Worst p95 s Δ"));
    QCOMPARE(header(CompareModel::kMonthlyCost, CompareModel::kA, Qt::ToolTipRole),
             QStringLiteral("Monthly cost (USD) in run A"));
    QCOMPARE(header(CompareModel::kSlaViolationsPercent, CompareModel::kDelta, Qt::ToolTipRole),
             QStringLiteral("SLA violations, % of arrivals: run B minus run A"));
  }

  void rowsAreAsStrategiesThenBOnlyOnes() {
    CompareModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.set_runs(seed_report(), mixed_mig_report());
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row)
      names << model.index(row, CompareModel::kStrategyColumn).data().toString();
    QCOMPARE(names, (QStringList{"dedicated", "time_slicing", "mig", "mig_time_slicing", "mps"}));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.count(), 2);
  }

  void cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("metric");
    QTest::addColumn<int>("side");
    QTest::addColumn<QString>("expected");
    using M = CompareModel;
    // dedicated: 2 x g6e.2xlarge in A, 4 x H100 in B.
    QTest::newRow("cost A") << 0 << int(M::kMonthlyCost) << int(M::kA) << "$3,273.44";
    QTest::newRow("cost B") << 0 << int(M::kMonthlyCost) << int(M::kB) << "$20,089.60";
    QTest::newRow("cost delta") << 0 << int(M::kMonthlyCost) << int(M::kDelta) << "+$16,816.16";
    QTest::newRow("baselines save nothing") << 0 << int(M::kMonthlySavings) << int(M::kDelta) << "$0.00";
    QTest::newRow("violations delta") << 0 << int(M::kSlaViolationsPercent) << int(M::kDelta) << "0.00";
    QTest::newRow("busy A") << 0 << int(M::kBusyPercent) << int(M::kA) << "84.5";
    QTest::newRow("busy B") << 0 << int(M::kBusyPercent) << int(M::kB) << "27.9";
    QTest::newRow("busy delta") << 0 << int(M::kBusyPercent) << int(M::kDelta) << "-56.7";
    QTest::newRow("worst p95 A (deepseek)") << 0 << int(M::kWorstP95) << int(M::kA) << "1.135";
    QTest::newRow("worst p95 B (notebook-bob)") << 0 << int(M::kWorstP95) << int(M::kB) << "4.999";
    QTest::newRow("worst p95 delta") << 0 << int(M::kWorstP95) << int(M::kDelta) << "+3.864";
    // time_slicing only in A, mig only in B.
    QTest::newRow("A only: A") << 1 << int(M::kMonthlySavings) << int(M::kA) << "$1,515.25";
    QTest::newRow("A only: B") << 1 << int(M::kMonthlySavings) << int(M::kB) << "—";
    QTest::newRow("A only: delta") << 1 << int(M::kMonthlySavings) << int(M::kDelta) << "—";
    QTest::newRow("B only: A") << 2 << int(M::kMonthlyCost) << int(M::kA) << "—";
    QTest::newRow("B only: B") << 2 << int(M::kMonthlyCost) << int(M::kB) << "$5,022.40";
    QTest::newRow("B only: violations") << 2 << int(M::kSlaViolationsPercent) << int(M::kB) << "1.23";
    QTest::newRow("B only: savings") << 4 << int(M::kMonthlySavings) << int(M::kB) << "$10,044.80";
  }

  void cells() {
    QFETCH(int, row);
    QFETCH(int, metric);
    QFETCH(int, side);
    QFETCH(QString, expected);
    CompareModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_runs(seed_report(), mixed_mig_report());
    QCOMPARE(cell(model, row, CompareModel::Metric(metric), CompareModel::Side(side)), expected);
  }

  void aRunAgainstItselfHasNoDifference() {
    CompareModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    const auto seed = seed_report();
    model.set_runs(seed, seed);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 1, CompareModel::kMonthlyCost, CompareModel::kDelta), QStringLiteral("$0.00"));
    QCOMPARE(cell(model, 1, CompareModel::kBusyPercent, CompareModel::kDelta), QStringLiteral("0.0"));
    QCOMPARE(cell(model, 1, CompareModel::kWorstP95, CompareModel::kDelta), QStringLiteral("0.000"));
  }

  void aNegativeDifferenceHasAMinus() {
    CompareModel model;
    model.set_runs(mixed_mig_report(), seed_report());
    QCOMPARE(cell(model, 0, CompareModel::kMonthlyCost, CompareModel::kDelta), QStringLiteral("-$16,816.16"));
    QCOMPARE(cell(model, 0, CompareModel::kBusyPercent, CompareModel::kDelta), QStringLiteral("+56.7"));
  }

  void sortRoleCarriesTheRawNumbers() {
    CompareModel model;
    model.set_runs(seed_report(), mixed_mig_report());
    const auto number = [&](int row, CompareModel::Metric metric, CompareModel::Side side) {
      return model.index(row, CompareModel::column(metric, side)).data(kSortRole);
    };
    QVERIFY(qAbs(number(0, CompareModel::kMonthlyCost, CompareModel::kDelta).toDouble() - (20089.6 - 3273.4368)) <
            1e-6);
    QVERIFY(qAbs(number(0, CompareModel::kBusyPercent, CompareModel::kB).toDouble() - 27.85829607620346) < 1e-9);
    QVERIFY(!number(1, CompareModel::kMonthlyCost, CompareModel::kB).isValid());
    QVERIFY(!number(1, CompareModel::kMonthlyCost, CompareModel::kDelta).isValid());
    QCOMPARE(model.index(0, CompareModel::kStrategyColumn).data(kSortRole).toString(), QStringLiteral("dedicated"));
  }

  void aProxySortsNumericallyWithMissingValuesLast() {
    CompareModel model;
    model.set_runs(seed_report(), mixed_mig_report());
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, kFatal);
    proxy.setSourceModel(&model);
    proxy.setSortRole(kSortRole);
    proxy.sort(CompareModel::column(CompareModel::kMonthlyCost, CompareModel::kB), Qt::AscendingOrder);
    QStringList names;
    for (int row = 0; row < proxy.rowCount(); ++row)
      names << proxy.index(row, CompareModel::kStrategyColumn).data().toString();
    QCOMPARE(names, (QStringList{"mig", "mig_time_slicing", "mps", "dedicated", "time_slicing"}));
  }
};

int run_compare_model_test(int argc, char** argv) {
  CompareModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "compare_model_test.moc"
