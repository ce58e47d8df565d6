// ResultModel and LatencyModel over reports priced from the checked-in seed results: shape, headers,
// the report's formatting, raw numbers on kSortRole (numeric sorting through a proxy), bold
// recommendation, red missed SLAs and issue tooltips; always under QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "gui/model_text.hpp"
#include "gui/result_model.hpp"
#include "gui/result_text.hpp"
#include "gui_test.hpp"
#include "test_results.hpp"

namespace slicewise::gui::test {

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

/// The first column's DisplayRole of every row of `model`, top to bottom.
QStringList names(const QAbstractItemModel& model) {
  QStringList out;
  for (int row = 0; row < model.rowCount(); ++row) out << model.index(row, ResultModel::kStrategy).data().toString();
  return out;
}

}  // namespace

class ResultModelTest : public QObject {
  Q_OBJECT

 private slots:
  void startsWithTheFixedColumnsOnly() {
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
  }

  void setReportGivesOneRowPerStrategyAndNoTenantColumns() {
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.set_report(seed_report());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
    model.set_report(mixed_mig_report());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
    QCOMPARE(resets.count(), 3);
  }

  void headers() {
    ResultModel model;
    model.set_report(seed_report());
    QStringList headers;
    for (int column = 0; column < model.columnCount(); ++column)
      headers << model.headerData(column, Qt::Horizontal).toString();
    QCOMPARE(headers, (QStringList{"Strategy", "Kind", "GPUs", "$/month", "Savings\n$/month", "Savings\n%",
                                   "$/1k\nin SLA", "Busy\n%", "SM util\n%", "kWh\n/month", "Over\nSLA %", "SLA"}));
    // The tooltips say them in full.
    auto tip = [&](int column) { return model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString(); };
    QCOMPARE(tip(ResultModel::kMonthlyCost), QStringLiteral("Monthly cost (USD) at the scenario's prices"));
    QCOMPARE(tip(ResultModel::kSlaViolationsPercent),
             QStringLiteral("SLA violations: requests over their latency target, % of all arrivals"));
  }

  void theKindColumnIsRedundantWhenEveryStrategyIsNamedAfterIt() {
    ResultModel model;
    model.set_report(seed_report());  // dedicated, time_slicing
    QVERIFY(!model.kinds_differ_from_names());
    auto renamed = seed_report();
    renamed.strategies[1].name = "ts-4";
    model.set_report(renamed);
    QVERIFY(model.kinds_differ_from_names());
  }

  void cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("baseline name") << 0 << int(ResultModel::kStrategy) << "dedicated (baseline)";
    QTest::newRow("recommended name") << 1 << int(ResultModel::kStrategy) << "time_slicing (recommended)";
    QTest::newRow("kind") << 1 << int(ResultModel::kKind) << "time_slicing";
    QTest::newRow("dedicated GPUs") << 0 << int(ResultModel::kGpus) << "2";
    QTest::newRow("time_slicing GPUs") << 1 << int(ResultModel::kGpus) << "1";
    QTest::newRow("2 x g6e.2xlarge x 730 h") << 0 << int(ResultModel::kMonthlyCost) << "$3,273.44";
    QTest::newRow("g6e.2xlarge + 2 sidecars") << 1 << int(ResultModel::kMonthlyCost) << "$1,758.19";
    QTest::newRow("baseline saves nothing") << 0 << int(ResultModel::kMonthlySavings) << "$0.00";
    QTest::newRow("savings") << 1 << int(ResultModel::kMonthlySavings) << "$1,515.25";
    QTest::newRow("savings %") << 1 << int(ResultModel::kSavingsPercent) << "46.3";
    QTest::newRow("dedicated busy") << 0 << int(ResultModel::kBusyPercent) << "84.5";
    QTest::newRow("time_slicing busy") << 1 << int(ResultModel::kBusyPercent) << "99.3";
    QTest::newRow("dedicated SM") << 0 << int(ResultModel::kSmUtilPercent) << "51.2";
    QTest::newRow("time_slicing SM") << 1 << int(ResultModel::kSmUtilPercent) << "59.0";
    // L40S from 33 W idle to 350 W: (2 x 33 + 317 x (0.3975 + 0.6272)) W x 730 h / 1000.
    QTest::newRow("dedicated kWh/month") << 0 << int(ResultModel::kEnergyKwhMonth) << "285.3";
    QTest::newRow("time_slicing kWh/month") << 1 << int(ResultModel::kEnergyKwhMonth) << "160.7";
    QTest::newRow("violations") << 1 << int(ResultModel::kSlaViolationsPercent) << "0.00";
    QTest::newRow("SLA") << 1 << int(ResultModel::kSla) << "met";
  }

  void cells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, expected);
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report());
    QCOMPARE(model.index(row, column).data().toString(), expected);
  }

  void sortRoleCarriesTheRawNumbers() {
    ResultModel model;
    model.set_report(seed_report());
    const auto number = [&](int row, int column) { return model.index(row, column).data(kSortRole); };
    QVERIFY(qAbs(number(0, ResultModel::kMonthlyCost).toDouble() - 3273.4368) < 1e-6);
    QVERIFY(qAbs(number(1, ResultModel::kMonthlyCost).toDouble() - 1758.1904) < 1e-6);
    QVERIFY(qAbs(number(1, ResultModel::kMonthlySavings).toDouble() - 1515.2464) < 1e-6);
    QVERIFY(qAbs(number(1, ResultModel::kSavingsPercent).toDouble() - 100.0 * 1515.2464 / 3273.4368) < 1e-6);
    QVERIFY(qAbs(number(0, ResultModel::kBusyPercent).toDouble() - 84.55) < 1e-9);
    QCOMPARE(number(0, ResultModel::kGpus).toInt(), 2);
    QCOMPARE(number(1, ResultModel::kSla).toInt(), 0);
    QCOMPARE(number(1, ResultModel::kStrategy).toString(), QStringLiteral("time_slicing"));
    // The equal-work figure beside the saving: the report's, to four decimals on screen.
    const auto report = seed_report();
    for (int row = 0; row < 2; ++row) {
      const double per_1k = report.strategies[static_cast<std::size_t>(row)].cost_per_1k_in_sla_usd;
      QVERIFY(per_1k > 0.0);
      QCOMPARE(number(row, ResultModel::kCostPer1kInSla).toDouble(), per_1k);
      QCOMPARE(model.index(row, ResultModel::kCostPer1kInSla).data().toString(), QString::number(per_1k, 'f', 4));
    }
  }

  void numbersAreRightAligned() {
    ResultModel model;
    model.set_report(seed_report());
    QCOMPARE(model.index(0, ResultModel::kMonthlyCost).data(Qt::TextAlignmentRole).toInt(), kNumberAlignment);
    QVERIFY(!model.index(0, ResultModel::kStrategy).data(Qt::TextAlignmentRole).isValid());
  }

  void theRecommendedRowIsBold() {
    ResultModel model;
    model.set_report(seed_report());
    for (int column = 0; column < model.columnCount(); ++column) {
      QVERIFY(model.index(1, column).data(Qt::FontRole).value<QFont>().bold());
      QVERIFY(!model.index(0, column).data(Qt::FontRole).isValid());
    }
  }

  void aMissedSlaIsRedAndTheTooltipSaysWhy() {
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report_missing_sla());
    QCOMPARE(model.index(0, ResultModel::kStrategy).data().toString(),
             QStringLiteral("dedicated (recommended) (baseline)"));
    QCOMPARE(model.index(1, ResultModel::kStrategy).data().toString(), QStringLiteral("time_slicing"));
    const QModelIndex sla = model.index(1, ResultModel::kSla);
    QCOMPARE(sla.data().toString(), QStringLiteral("missed (1)"));
    QCOMPARE(sla.data(kSortRole).toInt(), 1);
    const QColor red(0xa0, 0x10, 0x10);
    QCOMPARE(sla.data(Qt::ForegroundRole).value<QColor>(), red);
    QCOMPARE(model.index(1, ResultModel::kSlaViolationsPercent).data(Qt::ForegroundRole).value<QColor>(), red);
    QVERIFY(!model.index(0, ResultModel::kSla).data(Qt::ForegroundRole).isValid());
    QCOMPARE(sla.data(Qt::ToolTipRole).toString(),
             QStringLiteral("phi-3.5-mini-instruct: 5.00 % over 2 s (allowed 1.0 %)\n"
                            "phi-3.5-mini-instruct: queue grew without bound"));
    QCOMPARE(model.index(1, ResultModel::kMonthlyCost).data(Qt::ToolTipRole).toString(),
             QStringLiteral("phi-3.5-mini-instruct: queue grew without bound"));
    QVERIFY(!model.index(0, ResultModel::kMonthlyCost).data(Qt::ToolTipRole).isValid());  // no issues
  }

  void aProxySortsSavingsNumericallyNotAsText() {
    // A third strategy saving $757.62: as text "$757.62" sorts after "$1,515.25".
    auto report = seed_report();
    report.strategies.push_back(report.strategies[1]);
    report.strategies.back().name = "half";
    report.strategies.back().monthly_savings_usd = 1515.2464 / 2;
    ResultModel model;
    model.set_report(report);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, kFatal);
    proxy.setSourceModel(&model);
    proxy.sort(ResultModel::kMonthlySavings, Qt::AscendingOrder);
    QCOMPARE(names(proxy), (QStringList{"dedicated (baseline)", "time_slicing (recommended)", "half"}));  // DisplayRole
    proxy.setSortRole(kSortRole);
    QCOMPARE(names(proxy), (QStringList{"dedicated (baseline)", "half", "time_slicing (recommended)"}));
    proxy.sort(ResultModel::kMonthlySavings, Qt::DescendingOrder);
    QCOMPARE(names(proxy), (QStringList{"time_slicing (recommended)", "half", "dedicated (baseline)"}));
  }

  void withoutFaultsTheFaultColumnsAreAbsent() {
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report());
    QVERIFY(!model.has_faults());
    QCOMPARE(model.availability_column(), -1);
    QCOMPARE(model.blast_radius_column(), -1);
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
    QStringList headers;
    for (int column = 0; column < model.columnCount(); ++column)
      headers << model.headerData(column, Qt::Horizontal).toString();
    QVERIFY(!headers.contains(QStringLiteral("Avail. %\nexpected")));
    QVERIFY(!headers.contains(QStringLiteral("Blast\nradius")));
    // A report with faults, then one without again: the columns go with them.
    model.set_report(seed_report_with_faults());
    QVERIFY(model.has_faults());
    model.set_report(mixed_mig_report());
    QVERIFY(!model.has_faults());
    QCOMPARE(model.columnCount(), int(ResultModel::kNumFixedColumns));
  }

  void withFaultsTheAvailabilityAndBlastRadiusFollowSla() {
    ResultModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report_with_faults());
    QVERIFY(model.has_faults());
    QCOMPARE(model.availability_column(), ResultModel::kNumFixedColumns + 0);
    QCOMPARE(model.blast_radius_column(), ResultModel::kNumFixedColumns + 1);
    QCOMPARE(model.columnCount(), ResultModel::kNumFixedColumns + 2);
    QCOMPARE(model.headerData(model.availability_column(), Qt::Horizontal).toString(),
             QStringLiteral("Avail. %\nexpected"));
    QCOMPARE(model.headerData(model.blast_radius_column(), Qt::Horizontal).toString(), QStringLiteral("Blast\nradius"));
    const auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };
    // time_slicing: phi is the least available tenant, 99.875 %; (0.0088 × 2 + 1.46 × 1.5) / 1.4688
    // = 1.503 tenants per fault.
    QCOMPARE(text(1, model.availability_column()), QStringLiteral("99.875"));
    QCOMPARE(text(1, model.blast_radius_column()), QStringLiteral("1.50"));
    // dedicated has no FaultRecord.
    QCOMPARE(text(0, model.availability_column()), QStringLiteral("—"));
    QCOMPARE(text(0, model.blast_radius_column()), QStringLiteral("—"));
    QCOMPARE(text(1, ResultModel::kSla), QStringLiteral("met"));

    QCOMPARE(model.index(1, model.availability_column()).data(kSortRole).toDouble(), 100.0 * 0.99875);
    QCOMPARE(model.index(1, model.blast_radius_column()).data(kSortRole).toDouble(),
             (0.0088 * 2.0 + 1.46 * 1.5) / 1.4688);
    QVERIFY(!model.index(0, model.availability_column()).data(kSortRole).isValid());
    QCOMPARE(model.index(1, model.availability_column()).data(Qt::TextAlignmentRole).toInt(), kNumberAlignment);

    QCOMPARE(model.index(1, model.availability_column()).data(Qt::ToolTipRole).toString(),
             QStringLiteral("phi-3.5-mini-instruct: 99.875 % expected; 0.91 h of outage and 1.47 interruptions a "
                            "month\n"
                            "deepseek-r1-distill-llama-8b: 99.950 % expected; 0.36 h of outage and 1.47 "
                            "interruptions a month"));
    QCOMPARE(model.index(1, model.blast_radius_column()).data(Qt::ToolTipRole).toString(),
             QStringLiteral("gpu_failure: 0.0088 a month, 2.00 tenants (2.00 contexts) per fault, down 3600 s\n"
                            "tenant_crash: 1.46 a month, 1.50 tenants (1.50 contexts) per fault, down 30 s\n"
                            "In the run: 2 faults, 2.00 tenants hit per fault"));
    QVERIFY(!model.index(0, model.availability_column()).data(Qt::ToolTipRole).isValid());
  }

  void aProxySortsTheMixedFleetsCostNumerically() {
    ResultModel model;
    model.set_report(mixed_mig_report());
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, kFatal);
    proxy.setSourceModel(&model);
    proxy.setSortRole(kSortRole);
    proxy.sort(ResultModel::kMonthlyCost, Qt::AscendingOrder);
    QCOMPARE(names(proxy), (QStringList{"mig (recommended)", "mig_time_slicing", "mps", "dedicated (baseline)"}));
    QCOMPARE(proxy.index(3, ResultModel::kMonthlyCost).data().toString(), QStringLiteral("$20,089.60"));
  }

  void latencyHasOneRowPerTenantAndTwoColumnsPerStrategy() {
    LatencyModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(LatencyModel::kNumFixedColumns));
    model.set_report(seed_report());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), LatencyModel::kNumFixedColumns + 4);
    QCOMPARE(model.strategies(), (std::vector<std::string>{"dedicated", "time_slicing"}));
    QStringList headers;
    for (int column = 0; column < model.columnCount(); ++column)
      headers << model.headerData(column, Qt::Horizontal).toString();
    QCOMPARE(headers, (QStringList{"Tenant", "Target\ns", "dedicated\np95 s", "dedicated\np99 s", "time_slicing\np95 s",
                                   "time_slicing\np99 s"}));
    QCOMPARE(model.headerData(LatencyModel::p99_column(1), Qt::Horizontal, Qt::ToolTipRole).toString(),
             QStringLiteral("time_slicing (recommended): the tenant's 99th-percentile latency (s)"));
    model.set_report(mixed_mig_report());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), LatencyModel::kNumFixedColumns + 8);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(LatencyModel::kNumFixedColumns));
    QCOMPARE(resets.count(), 3);
  }

  void latencyCells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("phi") << 0 << int(LatencyModel::kTenant) << "phi-3.5-mini-instruct";
    QTest::newRow("phi target") << 0 << int(LatencyModel::kTarget) << "2";
    QTest::newRow("phi p95 dedicated") << 0 << LatencyModel::p95_column(0) << "0.609";
    QTest::newRow("phi p99 time-sliced") << 0 << LatencyModel::p99_column(1) << "1.057";
    QTest::newRow("deepseek p95 dedicated") << 1 << LatencyModel::p95_column(0) << "1.135";
    QTest::newRow("deepseek p99 time-sliced") << 1 << LatencyModel::p99_column(1) << "1.969";
  }

  void latencyCells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, expected);
    LatencyModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report());
    QCOMPARE(model.index(row, column).data().toString(), expected);
  }

  void latencySortsNumericallyAndBoldsTheRecommendedStrategy() {
    LatencyModel model;
    model.set_report(seed_report());
    QVERIFY(qAbs(model.index(1, LatencyModel::p95_column(1)).data(kSortRole).toDouble() - 1.9694297265061658) < 1e-12);
    QCOMPARE(model.index(0, LatencyModel::p99_column(1)).data(Qt::TextAlignmentRole).toInt(), kNumberAlignment);
    QVERIFY(!model.index(0, LatencyModel::kTenant).data(Qt::TextAlignmentRole).isValid());
    for (int row = 0; row < model.rowCount(); ++row) {
      QVERIFY(model.index(row, LatencyModel::p95_column(1)).data(Qt::FontRole).value<QFont>().bold());
      QVERIFY(model.index(row, LatencyModel::p99_column(1)).data(Qt::FontRole).value<QFont>().bold());
      QVERIFY(!model.index(row, LatencyModel::p95_column(0)).data(Qt::FontRole).isValid());
      QVERIFY(!model.index(row, LatencyModel::kTenant).data(Qt::FontRole).isValid());
    }
  }

  void latencyOfAMissedSlaIsRedAndItsTooltipSaysByHowMuch() {
    LatencyModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(seed_report_missing_sla());
    const QColor red(0xa0, 0x10, 0x10);
    QCOMPARE(model.index(0, LatencyModel::p95_column(1)).data(Qt::ForegroundRole).value<QColor>(), red);
    QCOMPARE(model.index(0, LatencyModel::p99_column(1)).data(Qt::ForegroundRole).value<QColor>(), red);
    QVERIFY(!model.index(1, LatencyModel::p95_column(1)).data(Qt::ForegroundRole).isValid());  // deepseek met it
    QVERIFY(!model.index(0, LatencyModel::p95_column(0)).data(Qt::ForegroundRole).isValid());
    QCOMPARE(model.index(0, LatencyModel::p95_column(1)).data(Qt::ToolTipRole).toString(),
             QStringLiteral("phi-3.5-mini-instruct: 5.00 % over 2 s (allowed 1.0 %)"));
  }

  void latencyOfAStrategyWithoutTheTenantIsADash() {
    auto report = seed_report();
    report.strategies.push_back(report.strategies[1]);
    report.strategies.back().name = "unsimulated";
    LatencyModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.set_report(report);
    QCOMPARE(model.index(0, LatencyModel::p95_column(2)).data().toString(), QStringLiteral("—"));
    QVERIFY(!model.index(0, LatencyModel::p95_column(2)).data(kSortRole).isValid());
    QVERIFY(!model.index(0, LatencyModel::p95_column(2)).data(Qt::ToolTipRole).isValid());
  }
};

int run_result_model_test(int argc, char** argv) {
  ResultModelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "result_model_test.moc"
