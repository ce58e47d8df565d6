// The scenario editor's panes: its editable tables (a choice delegate for enum columns, one row
// selected at a time, every column as wide as its widest cell whatever the model becomes), a
// table with Add and Remove buttons under it, and a form that scrolls.
#pragma once

#include <QAbstractItemModel>
#include <QPushButton>
#include <QString>
#include <QTableView>
#include <QWidget>

namespace slicewise::gui {

/// An editable table over `model`, named `object_name` (for tests and navigation).
QTableView* make_table_view(QAbstractItemModel* model, const QString& object_name, QWidget* parent);
/// A push button named `object_name`.
QPushButton* make_button(const QString& text, const QString& object_name, QWidget* parent);

/// A table over one array of the document with Add and Remove buttons under it.
struct TablePane {
  QWidget* widget;
  QTableView* view;
  QPushButton* add;
  QPushButton* remove;
};

/// A table over `model` with its Add and Remove buttons, in a widget of its own.
TablePane table_pane(QAbstractItemModel* model, const QString& view_name, const QString& add_text,
                     const QString& add_name, const QString& remove_text, const QString& remove_name, QWidget* parent);

/// `content` in a frameless scroll area that resizes it.
QWidget* scrolled(QWidget* content, QWidget* parent);

}  // namespace slicewise::gui
