// The results side of the main window (see results_panel.hpp).
#include "gui/results_panel.hpp"

#include <algorithm>
#include <limits>

#include <QComboBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include "gui/compare_model.hpp"
#include "gui/figure_view.hpp"
#include "gui/model_text.hpp"
#include "gui/result_model.hpp"
#include "gui/sortable_table.hpp"
#include "gui/strategy_detail_models.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::gui {

namespace {

/// A label of the summary: plain text by default (the report's names are shown as written; rich
/// text for the answer and headline, whose names are HTML-escaped), wrapped, selectable.
QLabel* summary_label(const char* name, QWidget* parent, Qt::TextFormat format = Qt::PlainText) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setTextFormat(format);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

/// Shows `text` in `label`, or hides the label when it is empty.
void set_sentence(QLabel* label, const std::string& text) {
  label->setText(to_qstring(text));
  label->setVisible(!text.empty());
}

/// A bold caption over a table of a tab.
QLabel* caption(const QString& text, QWidget* parent) {
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
  label->setTextFormat(Qt::RichText);
  return label;
}

/// The sentence above the fault tables: what the run saw, over every strategy, and where the
/// expected figures come from.
QString fault_note_text(const scenario::SimResult& result) {
  std::size_t faults = 0, repartitions = 0;
  for (const auto& strategy : result.strategies) {
    if (!strategy.faults) continue;
    for (const auto& event : strategy.faults->events) {
      if (event.kind == "repartition") {
        ++repartitions;
      } else {
        ++faults;
      }
    }
  }
  return QObject::tr(
             "The run saw %1 and %2 over its strategies. A run is usually far shorter than a fault's mean "
             "time: the expected figures come from the rates over the strategy's placement, per 730-hour "
             "month (docs/faults.md).")
      .arg(count_text(faults, QObject::tr("fault"), QObject::tr("faults")),
           count_text(repartitions, QObject::tr("re-partition"), QObject::tr("re-partitions")));
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
  tabs_->addTab(make_details_tab(), tr("Details"));
  faults_tab_ = make_faults_tab();
  tabs_->addTab(faults_tab_, tr("Faults"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(make_summary());
  layout->addWidget(tabs_, 1);
  show_current();
}

QWidget* ResultsPanel::make_summary() {
  auto* frame = new QFrame(this);
  frame->setObjectName("resultSummary");
  frame->setFrameShape(QFrame::StyledPanel);
  frame->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  answer_ = summary_label("summaryAnswer", frame, Qt::RichText);
  headline_ = summary_label("summaryHeadline", frame, Qt::RichText);
  recommendation_ = summary_label("summaryRecommendation", frame);
  savings_ = summary_label("summarySavings", frame);
  sla_risk_ = summary_label("summarySlaRisk", frame);
  rejected_ = summary_label("summaryRejected", frame);
  auto* layout = new QVBoxLayout(frame);
  for (QLabel* label : {answer_, headline_, recommendation_, savings_, sla_risk_, rejected_}) layout->addWidget(label);
  return frame;
}

QWidget* ResultsPanel::make_table_tab() {
  auto* tab = new QWidget(this);
  result_model_ = new ResultModel(this);
  result_proxy_ = new QSortFilterProxyModel(this);
  result_proxy_->setSourceModel(result_model_);
  result_table_ = sortable_table("resultTable", result_proxy_, tab);
  latency_model_ = new LatencyModel(this);
  auto* layout = new QVBoxLayout(tab);
  layout->addWidget(result_table_);
  // Each tenant's latency under each strategy: tenants as rows, so that a fleet of many tenants
  // takes the pane's height, not a sideways scroll of the strategies' table.
  layout->addWidget(caption(tr("Latency per tenant (s)"), tab));
  layout->addWidget(sortable_table_of("latencyTable", latency_model_, this, tab));
  layout->addStretch(1);
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
  layout->addWidget(compare_table_);
  layout->addStretch(1);
  for (QComboBox* combo : {compare_a_, compare_b_}) {
    connect(combo, &QComboBox::currentIndexChanged, this, &ResultsPanel::refresh_compare);
  }
  return tab;
}

QWidget* ResultsPanel::make_details_tab() {
  auto* tab = new QWidget(this);
  detail_strategy_ = new QComboBox(tab);
  detail_strategy_->setObjectName("detailStrategy");
  tenant_result_model_ = new TenantResultModel(this);
  device_model_ = new DeviceResultModel(this);
  auto* picker = new QFormLayout();
  picker->addRow(tr("Strategy:"), detail_strategy_);
  auto* layout = new QVBoxLayout(tab);
  layout->addLayout(picker);
  layout->addWidget(caption(tr("Tenants"), tab));
  layout->addWidget(sortable_table_of("tenantResultTable", tenant_result_model_, this, tab));
  layout->addWidget(caption(tr("Devices"), tab));
  layout->addWidget(sortable_table_of("deviceTable", device_model_, this, tab));
  layout->addStretch(1);
  connect(detail_strategy_, &QComboBox::currentIndexChanged, this, &ResultsPanel::show_detail_strategy);
  return tab;
}

QWidget* ResultsPanel::make_faults_tab() {
  auto* tab = new QWidget(this);
  fault_note_ = summary_label("faultNote", tab);
  fault_event_model_ = new FaultEventModel(this);
  fault_exposure_model_ = new FaultExposureModel(this);
  auto* layout = new QVBoxLayout(tab);
  layout->addWidget(fault_note_);
  layout->addWidget(caption(tr("Faults and re-partitions in the run"), tab));
  layout->addWidget(sortable_table_of("faultEventTable", fault_event_model_, this, tab));
  layout->addWidget(caption(tr("Expected per month"), tab));
  layout->addWidget(sortable_table_of("faultExpectedTable", fault_exposure_model_, this, tab));
  layout->addStretch(1);
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

QString ResultsPanel::summary_text() const {
  QStringList lines;
  // isVisibleTo: what the summary shows once on screen, whether or not the panel is yet.
  for (const QLabel* label : {answer_, headline_}) {
    if (!label->isVisibleTo(this)) continue;
    QTextDocument html;
    html.setHtml(label->text());
    lines << html.toPlainText();
  }
  for (const QLabel* label : {recommendation_, savings_, sla_risk_, rejected_}) {
    if (label->isVisibleTo(this)) lines << label->text();
  }
  return lines.join(QLatin1Char('\n'));
}

void ResultsPanel::show_current() {
  const report::RoiReport* current = current_report();
  if (current) {
    result_model_->set_report(*current);
    latency_model_->set_report(*current);
  } else {
    result_model_->clear();
    latency_model_->clear();
  }
  // A kind column that repeats every strategy's name only takes width.
  result_table_->setColumnHidden(ResultModel::kKind, !result_model_->kinds_differ_from_names());
  fill_summary(current);
  rebuild_charts();
  fill_details();
  fill_faults();
}

bool ResultsPanel::faults_shown() const { return tabs_->isTabVisible(kFaultsTab); }

void ResultsPanel::fill_details() {
  const report::RoiReport* current = current_report();
  {
    const QSignalBlocker blocker(detail_strategy_);
    detail_strategy_->clear();
    if (current) {
      for (const auto& strategy : current->result.strategies) detail_strategy_->addItem(to_qstring(strategy.name));
      // The recommended strategy first, as the summary names it.
      int selected = 0;
      if (current->recommended >= 0) {
        const auto& name = current->strategies[static_cast<std::size_t>(current->recommended)].name;
        selected = std::max(0, detail_strategy_->findText(to_qstring(name)));
      }
      detail_strategy_->setCurrentIndex(selected);
    }
  }
  show_detail_strategy();
}

void ResultsPanel::show_detail_strategy() {
  const report::RoiReport* current = current_report();
  const int index = detail_strategy_->currentIndex();
  if (!current || index < 0 || index >= static_cast<int>(current->result.strategies.size())) {
    tenant_result_model_->set_strategy(scenario::StrategyResult{});
    device_model_->set_strategy(scenario::StrategyResult{});
    return;
  }
  const auto& strategy = current->result.strategies[static_cast<std::size_t>(index)];
  tenant_result_model_->set_strategy(strategy);
  device_model_->set_strategy(strategy);
}

void ResultsPanel::fill_faults() {
  const report::RoiReport* current = current_report();
  const bool any = current && std::any_of(current->result.strategies.begin(), current->result.strategies.end(),
                                          [](const scenario::StrategyResult& s) { return s.faults.has_value(); });
  fault_event_model_->set_result(any ? current->result : scenario::SimResult{});
  fault_exposure_model_->set_result(any ? current->result : scenario::SimResult{});
  fault_note_->setText(any ? fault_note_text(current->result) : QString());
  tabs_->setTabVisible(kFaultsTab, any);
}

void ResultsPanel::fill_summary(const report::RoiReport* report) {
  if (!report) {
    answer_->hide();
    headline_->hide();
    recommendation_->setText(tr("No results yet: run a simulation to see its costs, savings and SLAs here."));
    recommendation_->show();
    for (QLabel* label : {savings_, sla_risk_, rejected_}) label->hide();
    return;
  }
  // The headline as the HTML and PDF reports write it (report::recommended_headline, then the savings).
  const std::string headline = report::recommended_headline(*report);
  const bool recommends = !headline.empty();
  if (recommends) {
    const auto& best = report->strategies[static_cast<std::size_t>(report->recommended)];
    headline_->setText(QStringLiteral("<b>%1</b> — %2")
                           .arg(to_qstring(headline).toHtmlEscaped(),
                                tr("monthly savings %1, annual %2")
                                    .arg(to_qstring(report::format_usd(best.monthly_savings_usd)),
                                         to_qstring(report::format_usd(best.annual_savings_usd, 0)))
                                    .toHtmlEscaped()));
  }
  headline_->setVisible(recommends);
  // The answer a reader can repeat, first, as the reports open (report/report_answer.hpp).
  answer_->setText(tr("<b>The answer:</b> %1").arg(to_qstring(report->answer).toHtmlEscaped()));
  answer_->setVisible(!report->answer.empty());
  // Which answer this is (the strategies as given, or the advisor's search), so that Advise's
  // answer and this one are not read as two answers to one question.
  set_sentence(recommendation_, report->recommendation + (report->scope.empty() ? "" : " " + report->scope));
  std::string savings;
  for (const auto& sentence : report->sweep_savings) savings += sentence + "\n";
  set_sentence(savings_, savings + report->savings);
  set_sentence(sla_risk_, report->sla_risk);
  set_sentence(rejected_, report->rejected);
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
      title->setWordWrap(true);
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
}

}  // namespace slicewise::gui
