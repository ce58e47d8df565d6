// ResultsPanel, shown offscreen with two runs (the seed, then the mixed MIG fleet): the summary at
// the top gives the report's answer, the table shows the current run whole, the Charts tab has one
// drawn FigureView per report figure at its own aspect, the compare combos pick the last two runs
// and the compare table their differences; re-pricing and clearing.
#include <cstdlib>
#include <memory>
#include <string>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include "gui/compare_model.hpp"
#include "gui/figure_view.hpp"
#include "gui/result_model.hpp"
#include "gui/results_panel.hpp"
#include "gui_test.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "test_results.hpp"

namespace slicewise::gui::test {

namespace {

/// True when `image` has two pixels of different colours.
bool has_content(const QImage& image) {
  const QRgb first = image.pixel(0, 0);
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (image.pixel(x, y) != first) return true;
    }
  }
  return false;
}

}  // namespace

class ResultsPanelTest : public QObject {
  Q_OBJECT

 private:
  template <typename T>
  T* child(const char* name) const {
    auto* found = panel_->findChild<T*>(name);
    if (!found) qFatal("no child \"%s\"", name);
    return found;
  }

  QAbstractItemModel* model_of(const char* view_name) const { return child<QTableView>(view_name)->model(); }

  QString cell(const char* view_name, int row, int column) const {
    QAbstractItemModel* model = model_of(view_name);
    return model->index(row, column).data().toString();
  }

  std::unique_ptr<ResultsPanel> panel_;

 private slots:
  void init() {
    panel_ = std::make_unique<ResultsPanel>();
    panel_->resize(1100, 800);
    panel_->show();
    QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
  }

  void cleanup() { panel_.reset(); }

  void startsEmpty() {
    QCOMPARE(panel_->run_count(), 0);
    QCOMPARE(panel_->summary_text(),
             QStringLiteral("No results yet: run a simulation to see its costs, savings and SLAs here."));
    QVERIFY(panel_->current_report() == nullptr);
    QCOMPARE(model_of("resultTable")->rowCount(), 0);
    QCOMPARE(child<QComboBox>("compareA")->count(), 0);
    QCOMPARE(model_of("compareTable")->rowCount(), 0);
    QVERIFY(panel_->findChildren<FigureView*>().isEmpty());
  }

  void twoRunsShowTheNewestAndCompareTheLastTwo() {
    QSignalSpy changed(panel_.get(), &ResultsPanel::currentReportChanged);
    panel_->add_run("seed", seed_report());
    panel_->add_run("mixed", mixed_mig_report());
    QCOMPARE(changed.count(), 2);
    QCOMPARE(panel_->run_count(), 2);
    QCOMPARE(panel_->run_label(0), QStringLiteral("seed"));
    QCOMPARE(panel_->current_report()->scenario, mixed_mig_report().scenario);

    QAbstractItemModelTester table_tester(model_of("resultTable"),
                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
    QCOMPARE(model_of("resultTable")->rowCount(), 4);
    QCOMPARE(cell("resultTable", 0, ResultModel::kMonthlyCost), QStringLiteral("$20,089.60"));

    auto* a = child<QComboBox>("compareA");
    auto* b = child<QComboBox>("compareB");
    QCOMPARE(a->count(), 2);
    QCOMPARE(a->currentIndex(), 0);
    QCOMPARE(b->currentIndex(), 1);
    QCOMPARE(a->currentText(), QStringLiteral("#1 seed"));
    QCOMPARE(b->currentText(), QStringLiteral("#2 mixed"));
    QAbstractItemModelTester compare_tester(model_of("compareTable"),
                                            QAbstractItemModelTester::FailureReportingMode::Fatal);
    QCOMPARE(model_of("compareTable")->rowCount(), 5);
    QCOMPARE(cell("compareTable", 0, CompareModel::column(CompareModel::kMonthlyCost, CompareModel::kDelta)),
             QStringLiteral("+$16,816.16"));

    a->setCurrentIndex(1);  // the mixed fleet against itself
    QCOMPARE(model_of("compareTable")->rowCount(), 4);
    QCOMPARE(cell("compareTable", 0, CompareModel::column(CompareModel::kMonthlyCost, CompareModel::kDelta)),
             QStringLiteral("$0.00"));
  }

  void theSummaryGivesTheAnswerAtTheTop() {
    panel_->add_run("mixed", mixed_mig_report());
    const report::RoiReport& report = *panel_->current_report();
    // mig on one p5.4xlarge instead of dedicated's four: 3 × 6.88 × 730 = 15,067.20 a month saved,
    // × 12 = 180,806.40 a year (whole dollars in the headline, as the HTML report).
    QCOMPARE(report.recommended, 1);
    QCOMPARE(report::format_usd(report.strategies[1].monthly_savings_usd), std::string("$15,067.20"));
    auto* headline = child<QLabel>("summaryHeadline");
    QVERIFY(headline->isVisible());
    QCOMPARE(headline->text(),
             QStringLiteral("<b>Recommended strategy: mig (MIG 3g.40gb+2g.20gb+1g.10gb+1g.10gb)</b> — monthly savings "
                            "$15,067.20, annual $180,806"));
    QCOMPARE(child<QLabel>("summaryRecommendation")->text(),
             QStringLiteral(
                 "Share with mig (mig, isolation hardware): it meets every tenant's SLA on 1 GPU instead of 4. This "
                 "compares the scenario's strategies as given, on its fleet and settings; it is not a search: the "
                 "advisor (slicewise advise) searches GPU types, settings and pools, and can answer otherwise."));
    QVERIFY(child<QLabel>("summarySavings")
                ->text()
                .startsWith(QStringLiteral(
                    "mig saves $15,067.20 per month ($180,806 per year, 75.0 %) against dedicated, at on_demand")));
    QCOMPARE(child<QLabel>("summarySlaRisk")->text(), QString::fromStdString(report.sla_risk));
    // This fixture predates latency distributions: no margin, so the risk is not called low.
    QVERIFY(child<QLabel>("summarySlaRisk")->text().startsWith(QStringLiteral("SLA risk under mig is not stated")));
    QVERIFY(child<QLabel>("summaryRejected")->isHidden());  // nothing rejected
    QCOMPARE(panel_->summary_text(),
             QString::fromStdString("The answer: " + report.answer + "\n") +
                 QStringLiteral("Recommended strategy: mig (MIG 3g.40gb+2g.20gb+1g.10gb+1g.10gb) — monthly savings "
                                "$15,067.20, annual $180,806\n") +
                 QString::fromStdString(report.recommendation + " " + report.scope + "\n" + report.savings + "\n" +
                                        report.sla_risk));
    // Above the tabs, so every tab shows it.
    QVERIFY(child<QWidget>("resultSummary")->geometry().bottom() < child<QTabWidget>("resultTabs")->geometry().top());

    // A run whose cheaper strategy misses its SLA keeps the baseline: no saving to claim.
    panel_->replace_current(seed_report_missing_sla());
    QCOMPARE(
        headline->text(),
        QStringLiteral("<b>Recommended strategy: dedicated (dedicated GPUs)</b> — monthly savings $0.00, annual $0"));
    QVERIFY(child<QLabel>("summaryRecommendation")
                ->text()
                .startsWith(QStringLiteral("Keep dedicated: every cheaper strategy misses an SLA (time_slicing). This "
                                           "compares the scenario's strategies as given")));

    // Nothing recommended: no headline, the report's sentence says why.
    report::RoiReport none = seed_report_missing_sla();
    none.recommended = -1;
    none.recommendation = "No strategy meets every tenant's SLA, the baseline included.";
    none.scope.clear();  // a report written before it said which answer it is
    none.sla_risk.clear();
    none.answer.clear();  // a report written before it opened with its answer
    panel_->replace_current(none);
    QVERIFY(headline->isHidden());
    QVERIFY(child<QLabel>("summarySlaRisk")->isHidden());
    QVERIFY(panel_->summary_text().startsWith(
        QStringLiteral("No strategy meets every tenant's SLA, the baseline included.\nNo monthly saving")));
  }

  void theTableShowsEveryColumnAndRowWhole() {
    panel_->add_run("mixed", mixed_mig_report());
    auto* table = child<QTableView>("resultTable");
    QHeaderView* header = table->horizontalHeader();
    QCOMPARE(header->count(), int(ResultModel::kNumFixedColumns));
    // Every strategy is named after its kind: the kind column would repeat the first.
    QVERIFY(header->isSectionHidden(ResultModel::kKind));
    // Every column as wide as its header (sort indicator included) and its widest cell.
    QTRY_VERIFY_WITH_TIMEOUT(
        header->sectionSize(ResultModel::kStrategy) >= header->sectionSizeHint(ResultModel::kStrategy), 5000);
    const QString cut = column_cut_short(table);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    // Its four rows whole, without a vertical scroll bar.
    QTRY_VERIFY_WITH_TIMEOUT(table->viewport()->height() >= table->verticalHeader()->length(), 5000);
    QCOMPARE(table->verticalScrollBar()->maximum(), 0);
    QCOMPARE(table->model()->rowCount(), 4);
    // The tenants' latencies below it: one row per tenant, two columns per strategy, whole.
    auto* latency = child<QTableView>("latencyTable");
    QCOMPARE(latency->model()->rowCount(), 4);
    QCOMPARE(latency->model()->columnCount(), LatencyModel::kNumFixedColumns + 8);
    QTRY_VERIFY_WITH_TIMEOUT(column_cut_short(latency).isEmpty(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(latency->viewport()->height() >= latency->verticalHeader()->length(), 5000);
    // A strategy not named after its kind shows the kind column.
    auto renamed = mixed_mig_report();
    renamed.strategies[2].name = "mig-ts";
    panel_->replace_current(renamed);
    QVERIFY(!header->isSectionHidden(ResultModel::kKind));
  }

  void theSortIndicatorKeepsOnlyTheRoomTheStyleDrawsItIn() {
    // QHeaderView reserves a section's height plus a margin for the indicator: 34 px on the
    // two-line headers, where the style draws a 16 px mark within two margins.
    panel_->add_run("mixed", mixed_mig_report());
    QHeaderView* header = child<QTableView>("resultTable")->horizontalHeader();
    QVERIFY(header->isSortIndicatorShown());
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int mark = header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    const QFontMetrics metrics(header->font());
    // "Savings\n%": its wider line, the label's margins, then the mark's room.
    const int text = metrics.horizontalAdvance(QStringLiteral("Savings"));
    const int hint = header->sectionSizeHint(ResultModel::kSavingsPercent);
    QVERIFY2(hint >= text + mark + 2 * margin, qPrintable(QString::number(hint)));
    QVERIFY2(hint <= text + mark + 2 * margin + 4 * margin + 8, qPrintable(QString::number(hint)));
  }

  void clickingAHeaderSortsTheTableNumerically() {
    panel_->add_run("mixed", mixed_mig_report());
    QHeaderView* header = child<QTableView>("resultTable")->horizontalHeader();
    QCOMPARE(cell("resultTable", 0, ResultModel::kStrategy), QStringLiteral("dedicated (baseline)"));  // report order
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(ResultModel::kMonthlyCost) + 4, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), int(ResultModel::kMonthlyCost));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QStringList names;
    for (int row = 0; row < 4; ++row) names << cell("resultTable", row, ResultModel::kStrategy);
    QCOMPARE(names, (QStringList{"mig (recommended)", "mig_time_slicing", "mps", "dedicated (baseline)"}));
  }

  void theChartsTabDrawsEveryFigure() {
    panel_->add_run("seed", seed_report());
    panel_->add_run("mixed", mixed_mig_report());
    child<QTabWidget>("resultTabs")->setCurrentIndex(1);
    auto* area = child<QScrollArea>("chartArea");
    QVERIFY(area->isVisible());
    const auto figures = report::report_figures(*panel_->current_report());
    QCOMPARE(figures.size(), std::size_t{4});  // cost, savings, utilization, mig-layout
    const auto views = area->widget()->findChildren<FigureView*>();
    QCOMPARE(views.size(), qsizetype(figures.size()));
    for (const auto& figure : figures) {
      auto* view = area->widget()->findChild<FigureView*>(QString::fromStdString("figure-" + figure.id));
      QVERIFY2(view, figure.id.c_str());
      QCOMPARE(view->figure().title, figure.title);
    }
    auto* mig = area->widget()->findChild<FigureView*>("figure-mig-layout");
    area->ensureWidgetVisible(mig);
    QTRY_VERIFY_WITH_TIMEOUT(mig->is_drawn(), 20000);
    QVERIFY(has_content(mig->grab().toImage()));
    auto* cost = area->widget()->findChild<FigureView*>("figure-cost");
    QTRY_VERIFY_WITH_TIMEOUT(cost->is_drawn(), 20000);
    QVERIFY(has_content(cost->grab().toImage()));
    // As wide as the area, at the figure's own aspect (900 × 480 for the cost), drawn at that size.
    QVERIFY2(cost->width() > area->viewport()->width() - 60, qPrintable(QString::number(cost->width())));
    QCOMPARE(cost->height(), cost->heightForWidth(cost->width()));
    QCOMPARE(cost->heightForWidth(900), 480);
    QCOMPARE(cost->drawn_size(), cost->size());
    QVERIFY(!area->horizontalScrollBar()->isVisible());
  }

  void aNarrowAreaShowsTheFiguresDrawnWiderAndScaledDown() {
    panel_->add_run("mixed", mixed_mig_report());
    panel_->resize(520, 800);
    child<QTabWidget>("resultTabs")->setCurrentIndex(1);
    auto* area = child<QScrollArea>("chartArea");
    auto* cost = area->widget()->findChild<FigureView*>("figure-cost");
    QTRY_VERIFY_WITH_TIMEOUT(cost->is_drawn() && cost->width() < FigureView::kMinimumDrawWidthPx, 20000);
    QCOMPARE(cost->height(), cost->heightForWidth(cost->width()));
    // Drawn 720 wide at the view's aspect, so the axis labels and legend keep the exports' room.
    QCOMPARE(cost->drawn_size().width(), FigureView::kMinimumDrawWidthPx);
    QVERIFY2(std::abs(cost->drawn_size().height() - 384) <= 2,  // 720 × 480 / 900, up to the view's rounding
             qPrintable(QString::number(cost->drawn_size().height())));
    QVERIFY(!area->horizontalScrollBar()->isVisible());
    QVERIFY(has_content(cost->grab().toImage()));
  }

  void aFigureViewDrawsOnRequestAndShowsWhyItCannot() {
    const auto report = std::make_shared<const report::RoiReport>(seed_report());
    const auto figures = report::report_figures(*report);
    FigureView cdf(report, figures.at(2));
    QCOMPARE(cdf.figure().id, std::string("latency-cdf"));
    QCOMPARE(cdf.sizeHint(), QSize(900, 320));  // two tenants: one row of two charts
    QVERIFY(cdf.hasHeightForWidth());
    QCOMPARE(cdf.heightForWidth(450), 160);
    QCOMPARE(cdf.minimumSizeHint(), QSize(FigureView::kMinimumWidthPx, 128));  // 360 × 320 / 900
    cdf.resize(600, 320);
    QVERIFY(!cdf.is_drawn());
    QVERIFY(cdf.drawn_size().isEmpty());
    cdf.draw_now();
    QVERIFY(cdf.is_drawn());
    QCOMPARE(cdf.drawn_size(), QSize(720, 384));  // under 720 wide: drawn at 720, same aspect
    QVERIFY(has_content(cdf.grab().toImage()));
    cdf.resize(800, 300);
    QVERIFY(!cdf.is_drawn());
    cdf.draw_now();
    QCOMPARE(cdf.drawn_size(), QSize(800, 300));

    report::Figure unknown;
    unknown.id = "pie";
    FigureView broken(report, unknown);
    broken.resize(300, 200);
    broken.draw_now();
    QVERIFY(broken.is_drawn());  // with the error's message in place of the picture
  }

  void replacingTheCurrentRunKeepsItsLabelAndRefreshesTheViews() {
    panel_->add_run("seed", seed_report());
    panel_->add_run("seed again", seed_report());
    QSignalSpy changed(panel_.get(), &ResultsPanel::currentReportChanged);
    panel_->replace_current(seed_report_missing_sla());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(panel_->run_count(), 2);
    QCOMPARE(panel_->run_label(1), QStringLiteral("seed again"));
    QCOMPARE(panel_->current_report()->recommended, 0);
    QCOMPARE(cell("resultTable", 1, ResultModel::kSla), QStringLiteral("missed (1)"));
    QCOMPARE(child<QComboBox>("compareB")->currentText(), QStringLiteral("#2 seed again"));
    QCOMPARE(cell("compareTable", 0, CompareModel::column(CompareModel::kMonthlyCost, CompareModel::kDelta)),
             QStringLiteral("$0.00"));
  }

  void theFaultColumnsAndTabFollowTheRunsFaults() {
    panel_->add_run("seed", seed_report());
    auto* tabs = child<QTabWidget>("resultTabs");
    QCOMPARE(tabs->tabText(ResultsPanel::kDetailsTab), QStringLiteral("Details"));
    QCOMPARE(tabs->tabText(ResultsPanel::kFaultsTab), QStringLiteral("Faults"));
    QVERIFY(!panel_->faults_shown());
    QCOMPARE(model_of("resultTable")->columnCount(), int(ResultModel::kNumFixedColumns));

    panel_->add_run("faults", seed_report_with_faults());
    QVERIFY(panel_->faults_shown());
    QCOMPARE(model_of("resultTable")->columnCount(), ResultModel::kNumFixedColumns + 2);
    QCOMPARE(cell("resultTable", 1, ResultModel::kNumFixedColumns), QStringLiteral("99.875"));
    QCOMPARE(model_of("faultEventTable")->rowCount(), 2);
    QCOMPARE(cell("faultEventTable", 1, 2), QStringLiteral("tenant_crash"));
    QCOMPARE(model_of("faultExpectedTable")->rowCount(), 2);
    QCOMPARE(
        child<QLabel>("faultNote")->text(),
        QStringLiteral("The run saw 2 faults and 0 re-partitions over its strategies. A run is usually far shorter "
                       "than a fault's mean time: the expected figures come from the rates over the strategy's "
                       "placement, per 730-hour month (docs/faults.md)."));
    tabs->setCurrentIndex(ResultsPanel::kFaultsTab);
    QTRY_VERIFY_WITH_TIMEOUT(column_cut_short(child<QTableView>("faultEventTable")).isEmpty(), 5000);
    const QString cut = column_cut_short(child<QTableView>("faultEventTable"));
    QVERIFY2(cut.isEmpty(), qPrintable(cut));

    // Re-pricing to a run without faults hides the tab and the columns again.
    panel_->replace_current(seed_report());
    QVERIFY(!panel_->faults_shown());
    QCOMPARE(model_of("resultTable")->columnCount(), int(ResultModel::kNumFixedColumns));
    QCOMPARE(model_of("faultEventTable")->rowCount(), 0);
  }

  void theDetailsShowTheChosenStrategysTenantsAndDevices() {
    panel_->add_run("faults", seed_report_with_faults());
    auto* strategy = child<QComboBox>("detailStrategy");
    QCOMPARE(strategy->count(), 2);
    QCOMPARE(strategy->currentText(), QStringLiteral("time_slicing"));  // the recommended one
    QAbstractItemModelTester tester(model_of("tenantResultTable"),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModel* tenants = model_of("tenantResultTable");
    QCOMPARE(tenants->rowCount(), 2);
    QCOMPARE(tenants->columnCount(), 14);  // with the fault columns
    QCOMPARE(tenants->headerData(8, Qt::Horizontal).toString(), QStringLiteral("Failed"));
    QCOMPARE(cell("tenantResultTable", 0, 8), QStringLiteral("3"));
    QCOMPARE(cell("deviceTable", 0, 3), QStringLiteral("day"));

    strategy->setCurrentIndex(0);  // dedicated: no faults, no phases
    QCOMPARE(tenants->columnCount(), 7);
    QCOMPARE(cell("tenantResultTable", 1, 0), QStringLiteral("deepseek-r1-distill-llama-8b"));
    QCOMPARE(model_of("deviceTable")->rowCount(), 2);
    QCOMPARE(model_of("deviceTable")->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Contexts"));

    panel_->clear();
    QCOMPARE(strategy->count(), 0);
    QCOMPARE(tenants->rowCount(), 0);
  }

  void clearRemovesEveryRun() {
    panel_->add_run("seed", seed_report());
    QSignalSpy changed(panel_.get(), &ResultsPanel::currentReportChanged);
    panel_->clear();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(panel_->run_count(), 0);
    QVERIFY(panel_->current_report() == nullptr);
    QCOMPARE(model_of("resultTable")->rowCount(), 0);
    QCOMPARE(child<QComboBox>("compareB")->count(), 0);
    QCOMPARE(model_of("compareTable")->rowCount(), 0);
    QVERIFY(child<QScrollArea>("chartArea")->widget()->findChildren<FigureView*>().isEmpty());
  }
};

int run_results_panel_test(int argc, char** argv) {
  ResultsPanelTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "results_panel_test.moc"
