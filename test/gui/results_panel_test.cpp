// ResultsPanel, shown offscreen with two runs (the seed, then the mixed MIG fleet): the table shows
// the current run, the Charts tab has one drawn FigureView per report figure, the compare combos
// pick the last two runs and the compare table their differences; re-pricing and clearing.
#include <memory>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include "gui/compare_model.hpp"
#include "gui/figure_view.hpp"
#include "gui/result_model.hpp"
#include "gui/results_panel.hpp"
#include "gui_test.hpp"
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
  }

  void aFigureViewDrawsOnRequestAndShowsWhyItCannot() {
    const auto report = std::make_shared<const report::RoiReport>(seed_report());
    const auto figures = report::report_figures(*report);
    FigureView cdf(report, figures.at(2));
    QCOMPARE(cdf.figure().id, std::string("latency-cdf"));
    QCOMPARE(cdf.sizeHint(), QSize(900, 320));  // two tenants: one row of two charts
    cdf.resize(600, 320);
    QVERIFY(!cdf.is_drawn());
    cdf.draw_now();
    QVERIFY(cdf.is_drawn());
    QVERIFY(has_content(cdf.grab().toImage()));

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
