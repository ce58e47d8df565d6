// Sortable tables that fit their rows (see sortable_table.hpp).
#include "gui/sortable_table.hpp"

#include <algorithm>
#include <limits>

#include <QHeaderView>
#include <QResizeEvent>
#include <QScrollBar>
#include <QStyle>

#include "gui/result_text.hpp"

namespace slicewise::gui {

namespace {

/// Rows a fitted table keeps on screen, scrolling the rest, when the window is too short for all.
constexpr int kMinimumVisibleRows = 3;

/// A table view as tall as its rows, its header, its frame and, when its columns are wider than
/// the view, the horizontal scroll bar: a layout then gives a handful of strategies their room and
/// no inner scroll bar. With less height than that (a short window) it scrolls, down to
/// kMinimumVisibleRows.
class FittedTableView : public QTableView {
 public:
  using QTableView::QTableView;

  QSize sizeHint() const override {
    return {QTableView::sizeHint().width(), height_for_rows(std::numeric_limits<int>::max())};
  }
  QSize minimumSizeHint() const override {
    return {QTableView::minimumSizeHint().width(), height_for_rows(kMinimumVisibleRows)};
  }

 protected:
  /// Rows and columns changed (a model reset, columns fitted to their contents): a new size hint.
  void updateGeometries() override {
    QTableView::updateGeometries();
    updateGeometry();
  }
  void resizeEvent(QResizeEvent* event) override {
    QTableView::resizeEvent(event);
    // The width decides whether the horizontal scroll bar takes height.
    if (event->size().width() != event->oldSize().width()) updateGeometry();
  }

 private:
  int height_for_rows(int max_rows) const {
    int height = 2 * frameWidth();
    if (!horizontalHeader()->isHidden()) height += horizontalHeader()->sizeHint().height();
    const int rows = std::min(model() ? model()->rowCount() : 0, max_rows);
    for (int row = 0; row < rows; ++row) height += rowHeight(row);
    if (horizontalHeader()->length() > width() - 2 * frameWidth()) {
      height += horizontalScrollBar()->sizeHint().height();
    }
    return height;
  }
};

/// A horizontal header whose sections keep room for the sort indicator as the style draws it, and
/// no more. QHeaderView reserves the section's height plus a margin for it, whether or not the
/// section is sorted: 34 px on a two-line header, where Fusion draws a 16 px arrow (the mark size)
/// inside two margins. Over a dozen two-line columns that is the width of two more columns, and
/// the results table scrolled sideways with half its pane empty.
class CompactSortHeader : public QHeaderView {
 public:
  /// Clickable and highlighting its sections, as the header a QTableView makes for itself.
  explicit CompactSortHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
    setSectionsClickable(true);
    setHighlightSections(true);
  }

 protected:
  QSize sectionSizeFromContents(int logical_index) const override {
    QSize size = QHeaderView::sectionSizeFromContents(logical_index);
    if (!isSortIndicatorShown()) return size;
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    const int mark = style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, this);
    size.rwidth() += (mark + 2 * margin) - (size.height() + margin);
    return size;
  }
};

}  // namespace

QTableView* sortable_table(const char* name, QSortFilterProxyModel* proxy, QWidget* parent) {
  proxy->setSortRole(kSortRole);
  auto* view = new FittedTableView(parent);
  view->setHorizontalHeader(new CompactSortHeader(view));
  view->setObjectName(name);
  view->setModel(proxy);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setAlternatingRowColors(true);
  view->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // Sections fit their headers, so nothing needs eliding; and eliding would measure a two-line
  // header ("llm-8b\np95 s") as one line, and cut it short.
  view->horizontalHeader()->setTextElideMode(Qt::ElideNone);
  view->horizontalHeader()->setSortIndicatorClearable(true);
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  view->setSortingEnabled(true);
  return view;
}

QTableView* sortable_table_of(const char* name, QAbstractItemModel* model, QObject* owner, QWidget* parent) {
  auto* proxy = new QSortFilterProxyModel(owner);
  proxy->setSourceModel(model);
  return sortable_table(name, proxy, parent);
}

}  // namespace slicewise::gui
