// docs/gui.md's pictures: every image the page shows is in docs/images/ and reads as an image, so
// the page never shows a broken picture. The screenshots there are ScreenshotTest's, copied by
// scripts/update-screenshots.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

#include "gui_test.hpp"

namespace slicewise::gui::test {

class GuiDocsTest : public QObject {
  Q_OBJECT

 private slots:
  void everyImageThePageShowsIsThere() {
    const QDir docs(QStringLiteral(SW_SOURCE_DIR "/docs"));
    QFile page(docs.filePath(QStringLiteral("gui.md")));
    QVERIFY2(page.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(page.fileName()));
    const QString text = QString::fromUtf8(page.readAll());
    static const QRegularExpression kImage(QStringLiteral(R"(!\[[^\]]*\]\(([^)\s]+)\))"));
    QStringList shown;
    for (auto it = kImage.globalMatch(text); it.hasNext();) shown << it.next().captured(1);
    // The screenshots of the main window, its charts and the MIG layout editor, at least.
    QVERIFY2(shown.size() >= 3, qPrintable(shown.join(QStringLiteral(", "))));
    for (const QString& path : shown) {
      QVERIFY2(path.startsWith(QLatin1String("images/")), qPrintable(path + ": not in docs/images/"));
      const QString file = docs.filePath(path);
      QVERIFY2(QFileInfo(file).isFile(), qPrintable(file + ": missing (scripts/update-screenshots makes it)"));
      QVERIFY2(!QImage(file).isNull(), qPrintable(file + ": not an image"));
    }
  }
};

int run_gui_docs_test(int argc, char** argv) {
  GuiDocsTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "docs_test.moc"
