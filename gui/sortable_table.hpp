// The results' tables: read-only views sortable by a click on a header (unsorted, in model order,
// until then; a third click returns to it), their columns fitted to their contents and headers
// after every change, as tall as their rows so that a layout gives them their room (scrolling only
// in a short window, down to three rows), with a header that keeps no more room for the sort
// indicator than the style draws.
#pragma once

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace slicewise::gui {

/// A sortable table over `proxy` (its sort role kSortRole), named `name` for tests.
QTableView* sortable_table(const char* name, QSortFilterProxyModel* proxy, QWidget* parent);
/// A sortable table over `model`, through a proxy owned by `owner`.
QTableView* sortable_table_of(const char* name, QAbstractItemModel* model, QObject* owner, QWidget* parent);

}  // namespace slicewise::gui
