// The results side of the main window (issue 8): the current run's answer (the ROI report's
// executive summary), its strategy table, its figures (the report's own charts) and a side-by-side
// compare of any two runs of this session.
#pragma once

#include <memory>
#include <vector>

#include <QString>
#include <QWidget>

#include "report/roi_content.hpp"

class QComboBox;
class QLabel;
class QScrollArea;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace slicewise::gui {

class CompareModel;
class DeviceResultModel;
class FaultEventModel;
class FaultExposureModel;
class LatencyModel;
class ResultModel;
class TenantResultModel;

/// The current run's answer at the top, "resultSummary" (a QFrame) with the ROI report's own texts
/// (report::RoiReport), as the HTML and PDF reports' executive summary:
/// - "summaryHeadline" (rich text): "<b>Recommended strategy: NAME</b> — monthly savings $X, annual
///   $Y" (report::format_usd); hidden when nothing is recommended;
/// - "summaryRecommendation", "summarySavings", "summarySlaRisk", "summaryRejected" (plain text,
///   wrapped): the report's sentences recommendation, savings, sla_risk and rejected; an empty one
///   is hidden. Before any run, "summaryRecommendation" says how to get results.
///
/// Below it, three tabs ("resultTabs") over the runs this panel holds, newest last:
/// - "Table": the current run's ResultModel in "resultTable", sortable by any column through a
///   QSortFilterProxyModel on kSortRole (unsorted, in the report's order, until a header is
///   clicked), its kKind column hidden when every strategy is named after its kind; below it, its
///   LatencyModel in "latencyTable", one row per tenant, sortable the same way. Their columns fit
///   their contents and headers (the sort indicator's room as the style draws it), and their
///   heights fit their rows, so a handful of strategies show whole, without an inner scroll bar;
/// - "Charts": "chartArea", a scroll area with, per report::report_figures() figure, a title label
///   and a FigureView named "figure-<id>" (as wide as the area, at the figure's own aspect), then
///   the caption;
/// - "Compare": combos "compareA" and "compareB" listing the runs as "#<n> <label>", and
///   "compareTable", a sortable CompareModel of the two selected runs, fitted as the table;
/// - "Details": combo "detailStrategy" listing the current run's strategies (the recommended one
///   selected, else the first), and that strategy's tenants in "tenantResultTable"
///   (TenantResultModel: with their failures, retries, downtime and availability when it has
///   faults) and devices in "deviceTable" (DeviceResultModel: with their layout phase when set),
///   both sortable and fitted as the table;
/// - "Faults", shown only when some strategy of the current run has a FaultRecord (the scenario
///   has faults, or a strategy a MIG layout schedule): "faultNote" (what the run saw, and where
///   the expected figures come from), "faultEventTable" (FaultEventModel: every fault and
///   re-partition of the run) and "faultExpectedTable" (FaultExposureModel: per strategy and
///   fault kind, what the rates make expected per month).
/// The current run is the newest one. The panel owns the reports.
class ResultsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsPanel(QWidget* parent = nullptr);

  /// Appends a run and shows it: the table and charts switch to it, compare B selects it and
  /// compare A the run before it (it too when it is the only one). Emits currentReportChanged().
  void add_run(const QString& label, report::RoiReport report);
  /// Replaces the current run's report (the same run re-priced, so its label stays) and refreshes
  /// every view showing it; adds a run labelled "Run 1" when there is none. Emits
  /// currentReportChanged().
  void replace_current(report::RoiReport report);
  /// Removes every run and empties the views. Emits currentReportChanged().
  void clear();

  /// Number of runs held.
  int run_count() const { return static_cast<int>(runs_.size()); }
  /// The newest run's report; nullptr when there is none. Valid until the next change.
  const report::RoiReport* current_report() const;
  /// The label `index` (0 = oldest) was added with.
  QString run_label(int index) const;
  /// The summary as shown, in plain text: the headline (when shown), then each shown sentence,
  /// one per line.
  QString summary_text() const;

  /// Indices of the tabs in "resultTabs".
  enum Tab : int { kTableTab, kChartsTab, kCompareTab, kDetailsTab, kFaultsTab };
  /// Whether the Faults tab is shown (the current run has faults).
  bool faults_shown() const;

 signals:
  /// The current report changed (added, replaced or cleared).
  void currentReportChanged();

 private:
  struct Run {
    QString label;
    std::shared_ptr<const report::RoiReport> report;  ///< shared with the FigureViews drawing it
  };

  QWidget* make_summary();
  QWidget* make_table_tab();
  QWidget* make_compare_tab();
  QWidget* make_details_tab();
  QWidget* make_faults_tab();
  /// The Details tab's strategy list from the current run, and its selection.
  void fill_details();
  void show_detail_strategy();
  /// The Faults tab from the current run, and whether it is shown.
  void fill_faults();
  /// Table, summary and charts from the current run.
  void show_current();
  void fill_summary(const report::RoiReport* report);
  void rebuild_charts();
  /// Combo items from runs_, selecting `a` and `b` (-1: none).
  void fill_compare_combos(int a, int b);
  void refresh_compare();

  std::vector<Run> runs_;
  QTabWidget* tabs_ = nullptr;
  QLabel* answer_ = nullptr;  ///< the report's answer in one sentence
  QLabel* headline_ = nullptr;
  QLabel* recommendation_ = nullptr;
  QLabel* savings_ = nullptr;
  QLabel* sla_risk_ = nullptr;
  QLabel* rejected_ = nullptr;
  ResultModel* result_model_ = nullptr;
  LatencyModel* latency_model_ = nullptr;
  QSortFilterProxyModel* result_proxy_ = nullptr;
  QTableView* result_table_ = nullptr;
  QScrollArea* chart_area_ = nullptr;
  QComboBox* compare_a_ = nullptr;
  QComboBox* compare_b_ = nullptr;
  CompareModel* compare_model_ = nullptr;
  QSortFilterProxyModel* compare_proxy_ = nullptr;
  QTableView* compare_table_ = nullptr;
  QComboBox* detail_strategy_ = nullptr;
  TenantResultModel* tenant_result_model_ = nullptr;
  DeviceResultModel* device_model_ = nullptr;
  QWidget* faults_tab_ = nullptr;
  QLabel* fault_note_ = nullptr;
  FaultEventModel* fault_event_model_ = nullptr;
  FaultExposureModel* fault_exposure_model_ = nullptr;
};

}  // namespace slicewise::gui
