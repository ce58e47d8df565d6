// The scenario editor's panes (see editor_panes.hpp).
#include "gui/editor_panes.hpp"

#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QScrollArea>
#include <QVBoxLayout>

#include "gui/choice_delegate.hpp"

namespace slicewise::gui {

QTableView* make_table_view(QAbstractItemModel* model, const QString& object_name, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setObjectName(object_name);
  view->setModel(model);
  view->setItemDelegate(new ChoiceDelegate(view));
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                        QAbstractItemView::AnyKeyPressed);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  // Every column as wide as its widest cell (the last one too: stretched to the pane it was cut
  // short when wider), whatever the model becomes: a name is never cut short
  // ("llm-…", two notebooks alike); a table wider than its pane scrolls.
  const auto fit = [view] { view->resizeColumnsToContents(); };
  QObject::connect(model, &QAbstractItemModel::modelReset, view, fit);
  QObject::connect(model, &QAbstractItemModel::rowsInserted, view, fit);
  QObject::connect(model, &QAbstractItemModel::dataChanged, view, fit);
  QObject::connect(model, &QAbstractItemModel::layoutChanged, view, fit);
  return view;
}

QPushButton* make_button(const QString& text, const QString& object_name, QWidget* parent) {
  auto* button = new QPushButton(text, parent);
  button->setObjectName(object_name);
  return button;
}

TablePane table_pane(QAbstractItemModel* model, const QString& view_name, const QString& add_text,
                     const QString& add_name, const QString& remove_text, const QString& remove_name, QWidget* parent) {
  auto* widget = new QWidget(parent);
  auto* layout = new QVBoxLayout(widget);
  layout->setContentsMargins(0, 0, 0, 0);
  TablePane pane{widget, make_table_view(model, view_name, widget), make_button(add_text, add_name, widget),
                 make_button(remove_text, remove_name, widget)};
  layout->addWidget(pane.view, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(pane.add);
  buttons->addWidget(pane.remove);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  return pane;
}

QWidget* scrolled(QWidget* content, QWidget* parent) {
  auto* area = new QScrollArea(parent);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  area->setWidget(content);
  return area;
}

}  // namespace slicewise::gui
