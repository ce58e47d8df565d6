// The results side of the main window (see results_panel.hpp).
#include "gui/results_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/compare_model.hpp"
#include "gui/figure_view.hpp"
#include "gui/model_text.hpp"
#include "gui/result_model.hpp"
#include "gui/result_text.hpp"

namespace slicewise::gui {

namespace {

/// A read-only table view over `proxy`, sortable by clicking a header; unsorted (model order) until
/// then, and a third click on a header returns to that order.
QTableView* sortable_table(const char* name, QSortFilterProxyModel* proxy, QWidget* parent) {
  proxy->setSortRole(kSortRole);
  auto* view = new QTableView(parent);
  view->setObjectName(name);
  view->setModel(proxy);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setAlternatingRowColors(true);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setSortIndicatorClearable(true);
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  view->setSortingEnabled(true);
  return view;
}

}  // namespace

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent) {
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName("resultTabs");
  tabs_->addTab(make_table_tab(), tr("Table"));
  chart_area_ = new QScrollArea(this);
  chart_area_->setObjectName("chartArea");
  chart_area_->setWidgetResizable(true);
  tabs_->addTab(chart_area_, tr("Charts"));
  tabs_->addTab(make_compare_tab(), tr("Compare"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
  show_current();
}

QWidget* ResultsPanel::make_table_tab() {
  auto* tab = new QWidget(this);
  summary_ = new QLabel(tab);
  summary_->setObjectName("resultSummary");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  result_model_ = new ResultModel(this);
  result_proxy_ = new QSortFilterProxyModel(this);
  result_proxy_->setSourceModel(result_model_);
  result_table_ = sortable_table("resultTable", result_proxy_, tab);
  auto* layout = new QVBoxLayout(tab);
  layout->addWidget(summary_);
  layout->addWidget(result_table_, 1);
  return tab;
}

QWidget* ResultsPanel::make_compare_tab() {
  auto* tab = new QWidget(this);
  compare_a_ = new QComboBox(tab);
  compare_a_->setObjectName("compareA");
  compare_b_ = new QComboBox(tab);
  compare_b_->setObjectName("compareB");
  compare_model_ = new CompareModel(this);
  compare_proxy_ = new QSortFilterProxyModel(this);
  compare_proxy_->setSourceModel(compare_model_);
  compare_table_ = sortable_table("compareTable", compare_proxy_, tab);
  auto* pickers = new QFormLayout();
  pickers->addRow(tr("Run A:"), compare_a_);
  pickers->addRow(tr("Run B:"), compare_b_);
  auto* layout = new QVBoxLayout(tab);
  layout->addLayout(pickers);
  layout->addWidget(compare_table_, 1);
  for (QComboBox* combo : {compare_a_, compare_b_}) {
    connect(combo, &QComboBox::currentIndexChanged, this, &ResultsPanel::refresh_compare);
  }
  return tab;
}

void ResultsPanel::add_run(const QString& label, report::RoiReport report) {
  runs_.push_back(Run{label, std::make_shared<const report::RoiReport>(std::move(report))});
  const int newest = run_count() - 1;
  fill_compare_combos(newest > 0 ? newest - 1 : newest, newest);
  show_current();
  emit currentReportChanged();
}

void ResultsPanel::replace_current(report::RoiReport report) {
  if (runs_.empty()) {
    add_run(tr("Run 1"), std::move(report));
    return;
  }
  runs_.back().report = std::make_shared<const report::RoiReport>(std::move(report));
  refresh_compare();
  show_current();
  emit currentReportChanged();
}

void ResultsPanel::clear() {
  runs_.clear();
  fill_compare_combos(-1, -1);
  show_current();
  emit currentReportChanged();
}

const report::RoiReport* ResultsPanel::current_report() const {
  return runs_.empty() ? nullptr : runs_.back().report.get();
}

QString ResultsPanel::run_label(int index) const {
  return index >= 0 && index < run_count() ? runs_[static_cast<std::size_t>(index)].label : QString();
}

void ResultsPanel::show_current() {
  const report::RoiReport* current = current_report();
  if (current) {
    result_model_->set_report(*current);
    summary_->setText(to_qstring(current->recommendation + "\n" + current->savings + "\n" + current->sla_risk +
                                 (current->rejected.empty() ? std::string() : "\n" + current->rejected)));
  } else {
    result_model_->clear();
    summary_->setText(tr("No results yet: run a simulation to see its costs, savings and SLAs here."));
  }
  result_table_->resizeColumnsToContents();
  rebuild_charts();
}

void ResultsPanel::rebuild_charts() {
  // The old figures may be drawing (draw_figure runs the event loop): delete them later, detached.
  if (QWidget* old = chart_area_->takeWidget()) old->deleteLater();
  auto* content = new QWidget();
  auto* layout = new QVBoxLayout(content);
  if (runs_.empty()) {
    layout->addWidget(new QLabel(tr("No figures yet."), content));
  } else {
    const auto& report = runs_.back().report;
    for (const auto& figure : report::report_figures(*report)) {
      auto* title = new QLabel("<b>" + to_qstring(figure.title).toHtmlEscaped() + "</b>", content);
      auto* view = new FigureView(report, figure, content);
      view->setObjectName(to_qstring("figure-" + figure.id));
      auto* caption = new QLabel(to_qstring(figure.caption), content);
      caption->setWordWrap(true);
      caption->setStyleSheet("color: #555555");
      layout->addWidget(title);
      layout->addWidget(view);
      layout->addWidget(caption);
      layout->addSpacing(12);
    }
  }
  layout->addStretch(1);
  chart_area_->setWidget(content);
}

void ResultsPanel::fill_compare_combos(int a, int b) {
  for (QComboBox* combo : {compare_a_, compare_b_}) {
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (int i = 0; i < run_count(); ++i) combo->addItem(QStringLiteral("#%1 %2").arg(i + 1).arg(run_label(i)));
  }
  {
    const QSignalBlocker blocker_a(compare_a_);
    const QSignalBlocker blocker_b(compare_b_);
    compare_a_->setCurrentIndex(a);
    compare_b_->setCurrentIndex(b);
  }
  refresh_compare();
}

void ResultsPanel::refresh_compare() {
  const int a = compare_a_->currentIndex(), b = compare_b_->currentIndex();
  if (a < 0 || b < 0 || a >= run_count() || b >= run_count()) {
    compare_model_->clear();
  } else {
    compare_model_->set_runs(*runs_[static_cast<std::size_t>(a)].report, *runs_[static_cast<std::size_t>(b)].report);
  }
  compare_table_->resizeColumnsToContents();
}

}  // namespace slicewise::gui
