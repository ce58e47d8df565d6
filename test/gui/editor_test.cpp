// The editor's parts: PointerForm (commit, kind-dependent rows, the CLI's message at a field),
// MigLayoutEditor (only valid layouts), the arrival preview (closed forms on a hand-written trace)
// and the ScenarioEditor's trace picker.
#include <algorithm>
#include <utility>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "gui/arrival_chart.hpp"
#include "gui/arrival_preview.hpp"
#include "gui/mig_layout_editor.hpp"
#include "gui/pointer_form.hpp"
#include "gui/scenario_editor.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

QString rates_text(const ArrivalPreview& preview) {
  QStringList rates;
  for (double r : preview.rate_per_s) rates << QString::number(r);
  return rates.join(' ');
}

class EditorTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString write(const QString& name, const QByteArray& text) { return write_file(dir_, name, text); }

  /// A native trace with one request every 2 s from t = 0 to 58 s (30 rows).
  QString write_trace() {
    QByteArray text = "arrived_at_s,prompt_tokens,output_tokens\n";
    for (int i = 0; i < 30; ++i) text += QByteArray::number(2 * i) + ",100,10\n";
    return write("traces/every2s.csv", text);
  }

 private slots:
  void formCommitsAndShowsTheCliMessage() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    PointerForm form(
        &document,
        {FieldSpec("Rate", "/load/rate_per_s", FieldType::number).when("/load/kind", {"poisson", "diurnal"}, "poisson"),
         FieldSpec("Users", "/load/num_users", FieldType::integer).when("/load/kind", {"closed_loop"}, "poisson"),
         FieldSpec("Load", "/load/kind", FieldType::choice).with_choices({"poisson", "closed_loop"})});
    form.set_base("/tenants/1");
    form.show();
    auto* rate = qobject_cast<QLineEdit*>(form.editor("/load/rate_per_s"));
    QVERIFY(rate);
    QCOMPARE(rate->objectName(), QStringLiteral("load_rate_per_s"));
    QCOMPARE(rate->text(), QStringLiteral("2"));
    QVERIFY(rate->isVisible());
    QVERIFY(!form.editor("/load/num_users")->isVisible());

    rate->setText(QStringLiteral("-1"));
    emit rate->editingFinished();
    QCOMPARE(document.value_at("/tenants/1/load/rate_per_s")->get<double>(), -1.0);
    QVERIFY(rate->property("problem").toBool());
    QCOMPARE(rate->toolTip(), QStringLiteral("must be > 0 (got -1)"));
    auto* problems = form.findChild<QLabel*>("formProblems");
    QVERIFY(problems->isVisible());
    QCOMPARE(problems->text(), QStringLiteral("Rate: must be > 0 (got -1)"));

    // Switching the kind shows the closed-loop rows.
    auto* kind = qobject_cast<QComboBox*>(form.editor("/load/kind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("closed_loop")));
    emit kind->activated(kind->currentIndex());
    QCOMPARE(document.value_at("/tenants/1/load/kind")->get<std::string>(), std::string("closed_loop"));
    QVERIFY(form.editor("/load/num_users")->isVisible());
    QVERIFY(!rate->isVisible());

    document.undo_stack()->undo();
    document.undo_stack()->undo();
    QCOMPARE(rate->text(), QStringLiteral("2"));
    QVERIFY(!rate->property("problem").toBool());
    QVERIFY(!problems->isVisible());
  }

  void migEditorOffersOnlyValidLayouts() {
    MigLayoutEditor editor;
    QSignalSpy chosen(&editor, &MigLayoutEditor::layoutChosen);
    editor.set_state("H100-SXM-80GB", "4g.40gb");
    const auto presets = editor.presets();
    QCOMPARE(presets.size(), std::size_t(28));  // `slicewise mig H100-SXM-80GB --enumerate | wc -l`
    QVERIFY(std::find(presets.begin(), presets.end(), "3g.40gb+2g.20gb+1g.10gb+1g.10gb") != presets.end());
    QCOMPARE(editor.addable_profiles(), (std::vector<std::string>{"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb"}));
    QCOMPARE(editor.findChild<QLabel*>("migStatus")->text(),
             QStringLiteral("H100-SXM-80GB: 4 of 7 compute slices, 64 SMs, 39.5 GiB."));

    // The add menu holds exactly the profiles that fit; choosing one gives the canonical layout.
    auto* add = editor.findChild<QToolButton*>("migAddProfile");
    QStringList offered;
    for (QAction* action : add->menu()->actions()) offered << action->text();
    QCOMPARE(offered, (QStringList{"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb"}));
    add->menu()->actions().back()->trigger();
    QCOMPARE(chosen.takeFirst().front().toString(), QStringLiteral("4g.40gb+3g.40gb"));

    editor.set_state("H100-SXM-80GB", "4g.40gb+3g.40gb");
    QVERIFY(editor.addable_profiles().empty());
    QVERIFY(!add->isEnabled());
    editor.findChild<QToolButton*>("migRemoveLast")->click();
    QCOMPARE(chosen.takeFirst().front().toString(), QStringLiteral("4g.40gb"));

    editor.set_state("H100-SXM-80GB", "4g.40gb+4g.40gb");
    QCOMPARE(editor.findChild<QLabel*>("migStatus")->text(),
             QStringLiteral("Invalid layout \"4g.40gb+4g.40gb\": 4g.40gb allows at most 1 instance per GPU (got 2)"));
    editor.set_state("L40S", "");
    QVERIFY(!editor.isEnabled());
    QVERIFY(editor.presets().empty());
  }

  void previewOfATraceIsItsArrivals() {
    const QString trace = write_trace();
    QByteArray text = valid_scenario_json();
    text.replace(R"("load": {"kind": "poisson", "rate_per_s": 1.0})",
                 R"("load": {"kind": "trace", "trace_file": "traces/every2s.csv", "trace_format": "native"})");
    ScenarioDocument document;
    QVERIFY(document.open(write("trace.json", text), nullptr));
    QVERIFY2(document.is_valid(), document.diagnostics().empty() ? "" : document.diagnostics()[0].format().c_str());

    // Horizon 60 s in at most 120 bins: 1 s bins; a request in every even second.
    ArrivalPreview preview = preview_arrivals(*document.scenario(), 0);
    QCOMPARE(preview.bin_s, 1.0);
    QCOMPARE(preview.rate_per_s.size(), std::size_t(60));
    QCOMPARE(preview.num_arrivals, std::int64_t(30));
    QCOMPARE(preview.mean_rate_per_s, 0.5);
    QCOMPARE(preview.peak_rate_per_s, 1.0);
    QCOMPARE(preview.rate_per_s[0], 1.0);
    QCOMPARE(preview.rate_per_s[1], 0.0);
    QVERIFY(preview.note.empty());

    // Multiplier 2: each row twice, the copy halfway to the next row: one per second; the last
    // row has no next row, so both its copies land at 58 s.
    document.set_value("/tenants/0/load/multiplier", Json(2));
    preview = preview_arrivals(*document.scenario(), 0);
    QCOMPARE(preview.num_arrivals, std::int64_t(60));
    QCOMPARE(preview.mean_rate_per_s, 1.0);
    std::vector<double> expected(60, 1.0);
    expected[58] = 2.0;
    expected[59] = 0.0;
    QVERIFY2(preview.rate_per_s == expected, qPrintable(rates_text(preview)));

    // At most 10 bins: 6 s each, 3 requests per bin at ×1.
    document.set_value("/tenants/0/load/multiplier", std::nullopt);
    preview = preview_arrivals(*document.scenario(), 0, 10);
    QCOMPARE(preview.bin_s, 6.0);
    QCOMPARE(preview.rate_per_s, std::vector<double>(10, 0.5));

    // The request cap stops early and says so.
    preview = preview_arrivals(*document.scenario(), 0, 120, 7);
    QVERIFY(preview.truncated);
    QCOMPARE(preview.num_arrivals, std::int64_t(7));
  }

  void previewOfGeneratedAndClosedLoads() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    document.set_value("/horizon_s", Json(600));
    // Poisson 2/s over 600 s: 1200 expected, within 4 standard deviations (sqrt(1200) ≈ 35).
    const ArrivalPreview poisson = preview_arrivals(*document.scenario(), 1);
    QCOMPARE(poisson.bin_s, 5.0);
    QVERIFY2(std::abs(poisson.num_arrivals - 1200) < 140, qPrintable(QString::number(poisson.num_arrivals)));
    QCOMPARE(preview_arrivals(*document.scenario(), 1).num_arrivals, poisson.num_arrivals);  // seeded

    document.set_value("/tenants/1/load", Json{{"kind", "closed_loop"}, {"num_users", 4}, {"think_time_s", 2}});
    const ArrivalPreview closed = preview_arrivals(*document.scenario(), 1);
    QVERIFY(closed.rate_per_s.empty());
    QCOMPARE(
        QString::fromStdString(closed.note),
        QStringLiteral("closed loop: arrivals follow the replies; at most 2 requests/s (4 users / 2 s think time)"));
  }

  void tracePickerStoresARelativePathAndShowsThePreview() {
    write_trace();
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    ScenarioEditor editor(&document);
    editor.show();
    QCOMPARE(editor.selected_tenant(), 0);
    QSignalSpy requested(&editor, &ScenarioEditor::traceFileRequested);
    editor.findChild<QWidget*>("browseTrace")->setVisible(true);
    QMetaObject::invokeMethod(editor.findChild<QObject*>("browseTrace"), "click");
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.front().front().toInt(), 0);

    editor.set_trace_file(0, dir_.filePath("traces/every2s.csv"));
    QCOMPARE(document.value_at("/tenants/0/load/kind")->get<std::string>(), std::string("trace"));
    QCOMPARE(document.value_at("/tenants/0/load/trace_file")->get<std::string>(), std::string("traces/every2s.csv"));
    QVERIFY(!document.value_at("/tenants/0/load/rate_per_s"));
    QCOMPARE(document.undo_stack()->count(), 1);  // one step
    QVERIFY2(document.is_valid(), document.diagnostics().empty() ? "" : document.diagnostics()[0].format().c_str());
    editor.update_preview();
    auto* chart = editor.findChild<ArrivalChart*>("arrivalPreview");
    QCOMPARE(chart->points().size(), 120);  // 60 one-second steps
    QCOMPARE(chart->summary(), QStringLiteral("30 arrivals, mean 0.5/s, peak 1/s over 1 s bins"));

    // A problem in the list takes the editor to the tenant.
    editor.navigate_to("/tenants/1/load/rate_per_s");
    QCOMPARE(editor.selected_tenant(), 1);
    QCOMPARE(editor.findChild<PointerForm*>("tenantForm")->base(), std::string("/tenants/1"));
  }

  void theFaultsTabAddsEditsAndRemovesTheSection() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    ScenarioEditor editor(&document);
    editor.show();
    auto* tabs = editor.findChild<QTabWidget*>("editorTabs");
    QCOMPARE(tabs->tabText(4), QStringLiteral("Faults"));
    auto* enabled = editor.findChild<QCheckBox*>("faultsEnabled");
    auto* form = editor.findChild<PointerForm*>("faultForm");
    QVERIFY(enabled && form);
    QVERIFY(!enabled->isChecked());
    QVERIFY(!form->isEnabled());  // no faults section: nothing to edit

    enabled->click();
    QCOMPARE(QString::fromStdString(document.value_at("/faults")->dump()), QStringLiteral("{}"));
    QVERIFY(enabled->isChecked());
    QVERIFY(form->isEnabled());
    QCOMPARE(form->base(), std::string("/faults"));
    const auto line = [&](const char* pointer) { return qobject_cast<QLineEdit*>(form->editor(pointer)); };
    QCOMPARE(line("/gpu_failure_per_gpu_hour")->placeholderText(), QStringLiteral("1.21e-05 (Llama 3)"));
    QCOMPARE(line("/driver_reset_per_gpu_hour")->placeholderText(), QStringLiteral("0"));
    QCOMPARE(line("/gpu_repair_s")->placeholderText(), QStringLiteral("3600"));
    QCOMPARE(line("/co_tenant_kill_frac")->placeholderText(), QStringLiteral("1"));
    for (const auto& [pointer, text] :
         {std::pair{"/driver_reset_per_gpu_hour", "0.001"}, std::pair{"/max_retries", "0"},
          std::pair{"/schedule", R"([{"at_s": 60, "kind": "gpu_failure", "gpu": 0}])"}}) {
      line(pointer)->setText(QString::fromUtf8(text));
      emit line(pointer)->editingFinished();
    }
    auto* random = qobject_cast<QComboBox*>(form->editor("/random"));
    random->setCurrentIndex(random->findData(QStringLiteral("false")));
    emit random->activated(random->currentIndex());
    QCOMPARE(QString::fromStdString(document.value_at("/faults")->dump()),
             QStringLiteral(R"({"driver_reset_per_gpu_hour":0.001,"max_retries":0,)"
                            R"("schedule":[{"at_s":60,"kind":"gpu_failure","gpu":0}],"random":false})"));

    tabs->setCurrentIndex(0);
    editor.navigate_to("/faults/max_retries");
    QCOMPARE(tabs->currentIndex(), 4);

    // Unchecking removes the whole section, as one step that undo brings back.
    const int steps = document.undo_stack()->count();
    enabled->click();
    QVERIFY(!document.value_at("/faults"));
    QVERIFY(!enabled->isChecked());
    QVERIFY(!form->isEnabled());
    QCOMPARE(document.undo_stack()->count(), steps + 1);
    document.undo_stack()->undo();
    QVERIFY(enabled->isChecked());
    QVERIFY(form->isEnabled());
    QCOMPARE(document.value_at("/faults/max_retries")->get<int>(), 0);
  }
};

int run_editor_test(int argc, char** argv) {
  EditorTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "editor_test.moc"
