// ScenarioDocument: the CLI's checks after every edit, undo/redo, save and save-as (paths rebased),
// and the table models editing through it.
#include <algorithm>

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "core/json_file.hpp"
#include "gui/editor_fields.hpp"
#include "gui/json_field.hpp"
#include "gui/scenario_document.hpp"
#include "gui/strategy_tenant_model.hpp"
#include "gui/tenant_model.hpp"
#include "gui_test.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::gui::test {

class ScenarioDocumentTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString write(const QString& name, const QByteArray& text) { return write_file(dir_, name, text); }

  QStringList messages(const ScenarioDocument& document) {
    QStringList lines;
    for (const auto& d : document.diagnostics()) lines << QString::fromStdString(d.format());
    return lines;
  }

 private slots:
  void validDocumentHasNoDiagnostics() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    QVERIFY(document.is_valid());
    QCOMPARE(document.scenario()->tenants.size(), std::size_t(2));
    QVERIFY(!document.is_modified());
    QCOMPARE(document.display_name(), QStringLiteral("valid.json"));
  }

  void editsAreCheckedLikeTheCli() {
    ScenarioDocument document;
    const QString path = write("valid.json", valid_scenario_json());
    QVERIFY(document.open(path, nullptr));
    QSignalSpy validated(&document, &ScenarioDocument::validated);

    document.set_value("/tenants/1/workload/memory_gib", Json(-4));
    QCOMPARE(validated.count(), 1);
    QVERIFY(!document.is_valid());
    QVERIFY(document.is_modified());
    QCOMPARE(messages(document), QStringList{path + ": /tenants/1/workload/memory_gib: must be > 0 (got -4)"});
    QCOMPARE(document.diagnostics_at("/tenants/1").size(), std::size_t(1));
    QVERIFY(document.diagnostics_at("/tenants/0").empty());
    QVERIFY(document.diagnostics_at("/tenants/1/work").empty());  // a pointer prefix is not a parent

    // Text that is not a number is kept as typed, and the parser says what it expected.
    document.set_value("/horizon_s", field_value(QStringLiteral("ten"), FieldType::number));
    QVERIFY2(messages(document).contains(path + ": /horizon_s: expected number (got \"ten\")"),
             qPrintable(messages(document).join("\n")));
  }

  void fieldTextsReadBackAsTheirValues() {
    QVERIFY(*field_value("3", FieldType::number) == Json(3));  // integral: written as an integer
    QVERIFY(*field_value("0.25", FieldType::number) == Json(0.25));
    QVERIFY(*field_value("1, 2.5, 0", FieldType::list) == Json::parse("[1, 2.5, 0]"));
    QVERIFY(*field_value(" LS , BE ", FieldType::words) == Json::parse(R"(["LS", "BE"])"));
    const Json states =
        Json::parse(R"([{"rate_per_s": 1, "mean_duration_s": 60}, {"rate_per_s": 5, "mean_duration_s": 5}])");
    QVERIFY(*field_value(QString::fromStdString(states.dump()), FieldType::json) == states);
    QVERIFY(*field_value("[{oops", FieldType::json) == Json("[{oops"));  // kept as typed: the check says why
    QVERIFY(!field_value("  ", FieldType::number));                      // empty: the key goes
    for (const Json& value : {Json(19.2), Json::parse("[1, 2]"), Json::parse(R"(["a", "b"])")}) {
      const FieldType type = value.is_number()      ? FieldType::number
                             : value[0].is_string() ? FieldType::words
                                                    : FieldType::list;
      QVERIFY(*field_value(field_text(&value), type) == value);
    }
    QCOMPARE(field_text(&states), QString::fromStdString(states.dump()));
  }

  void undoAndRedoRestoreEveryValue() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    const Json original = document.json();
    document.set_value("/tenants/0/load/rate_per_s", Json(4.5), "rate 4.5");
    document.set_value("/strategies/1/replicas", std::nullopt, "no replicas");
    QCOMPARE(document.undo_stack()->count(), 2);
    QVERIFY(!document.value_at("/strategies/1/replicas"));
    QCOMPARE(document.value_at("/tenants/0/load/rate_per_s")->get<double>(), 4.5);

    document.undo_stack()->undo();
    QCOMPARE(document.value_at("/strategies/1/replicas")->get<int>(), 4);
    document.undo_stack()->undo();
    QVERIFY(document.json() == original);
    QVERIFY(!document.is_modified());
    document.undo_stack()->redo();
    QCOMPARE(document.value_at("/tenants/0/load/rate_per_s")->get<double>(), 4.5);
    QCOMPARE(document.scenario()->tenants[0].load.rate_per_s, 4.5);

    // A macro is one step; setting the same value adds none.
    document.begin_macro("both");
    document.set_value("/seed", Json(7));
    document.set_value("/horizon_s", Json(120));
    document.end_macro();
    document.set_value("/seed", Json(7));
    QCOMPARE(document.undo_stack()->count(), 2);
    document.undo_stack()->undo();
    QVERIFY(!document.value_at("/seed"));
    QCOMPARE(document.value_at("/horizon_s")->get<int>(), 60);
  }

  void notJsonKeepsTheDocumentAndGivesTheCliMessage() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    const QString broken = write("broken.json", "{\"name\": \"x\",\n  oops}\n");
    QString error;
    QVERIFY(!document.open(broken, &error));
    QCOMPARE(error,
             broken + QStringLiteral(":2:3: parse error: syntax error while parsing object key - invalid literal; "
                                     "last read: '\"x\",<U+000A>  o'; expected string literal"));
    QCOMPARE(document.display_name(), QStringLiteral("valid.json"));
    QString missing_error;
    QVERIFY(!document.open(dir_.filePath("absent.json"), &missing_error));
    QCOMPARE(missing_error,
             dir_.filePath("absent.json") + QStringLiteral(": cannot open file: No such file or directory"));
  }

  void saveAsRebasesRelativeTracePaths() {
    QByteArray text = valid_scenario_json();
    text.replace(R"("load": {"kind": "poisson", "rate_per_s": 1.0})",
                 R"("load": {"kind": "trace", "trace_file": "traces/a.csv", "trace_format": "native"})");
    write("project/traces/a.csv", "arrived_at_s,prompt_tokens,output_tokens\n0.5,10,10\n1.5,10,10\n");
    ScenarioDocument document;
    QVERIFY(document.open(write("project/scenario.json", text), nullptr));
    QCOMPARE(QString::fromStdString(document.value_at("/tenants/0/load/trace_file")->get<std::string>()),
             QStringLiteral("traces/a.csv"));
    QVERIFY2(document.diagnostics_at("/tenants/0").empty(), qPrintable(messages(document).join("\n")));

    const QString moved = dir_.filePath("elsewhere/deeper/copy.json");
    QDir().mkpath(QFileInfo(moved).absolutePath());
    QString error;
    QVERIFY2(document.save_as(moved, &error), qPrintable(error));
    QCOMPARE(document.path(), moved);
    QCOMPARE(QString::fromStdString(document.value_at("/tenants/0/load/trace_file")->get<std::string>()),
             QStringLiteral("../../project/traces/a.csv"));
    QVERIFY2(document.diagnostics_at("/tenants/0").empty(), qPrintable(messages(document).join("\n")));
    QVERIFY(!document.is_modified());
    // What was written reads back as the same document.
    QVERIFY(Json::parse(read_text_file(moved.toStdString())) == document.json());
  }

  void tableEditsGoThroughTheDocument() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    TenantModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex memory = model.index(0, TenantModel::kMemory);
    QVERIFY(model.flags(memory) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(0, TenantModel::kLoad)) & Qt::ItemIsEditable));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(model.setData(memory, QStringLiteral("0")));
    QVERIFY(changed.count() >= 1);
    QCOMPARE(model.data(memory).toString(), QStringLiteral("0"));
    QVERIFY(model.data(memory, JsonTableModel::kProblemRole).toBool());
    QCOMPARE(model.data(memory, Qt::ToolTipRole).toString(), QStringLiteral("must be > 0 (got 0)"));
    QVERIFY(model.data(memory, Qt::BackgroundRole).isValid());
    // An emptied optional cell removes the key.
    QVERIFY(model.setData(model.index(1, TenantModel::kSlaLatency), QString()));
    QVERIFY(!document.value_at("/tenants/1/sla/latency_s"));
    // Absent values with a default show it (grey): max concurrency 1.
    QCOMPARE(model.data(model.index(0, TenantModel::kMaxConcurrency)).toString(), QStringLiteral("1"));
    QVERIFY(model.data(model.index(0, TenantModel::kMaxConcurrency), Qt::ForegroundRole).isValid());
    document.undo_stack()->undo();
    document.undo_stack()->undo();
    QCOMPARE(model.data(memory).toString(), QStringLiteral("19.2"));
    QVERIFY(document.is_valid());
    // Adding a tenant resets the rows.
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    Json tenants = *document.value_at("/tenants");
    tenants.push_back(tenants[0]);
    tenants.back()["name"] = "gamma";
    document.set_value("/tenants", tenants);
    QCOMPARE(resets.count(), 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.data(model.index(2, TenantModel::kLoad)).toString(), QStringLiteral("poisson 1/s"));
  }

  void strategyTenantSettingsByName() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    StrategyTenantModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.set_strategy(1);  // time_slicing
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.data(model.index(1, StrategyTenantModel::kTenant)).toString(), QStringLiteral("beta"));
    QVERIFY(model.flags(model.index(0, StrategyTenantModel::column_of("weight"))) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(0, StrategyTenantModel::column_of("mig_profile"))) & Qt::ItemIsEnabled));
    QVERIFY(model.setData(model.index(1, StrategyTenantModel::column_of("weight")), QStringLiteral("3")));
    QCOMPARE(document.value_at("/strategies/1/tenants/beta/weight")->get<double>(), 3.0);
    QCOMPARE(document.scenario()->strategies[1].tenants.at("beta").weight, std::optional<double>(3.0));
    QVERIFY(document.is_valid());
    model.set_strategy(0);  // dedicated: no per-tenant setting applies
    QVERIFY(!(model.flags(model.index(0, StrategyTenantModel::column_of("weight"))) & Qt::ItemIsEnabled));
    // mig reads mig_profile and not weight, though its name is part of mig_time_slicing's, which does.
    document.set_value("/strategies/0/kind", Json("mig"));
    QVERIFY(!(model.flags(model.index(0, StrategyTenantModel::column_of("weight"))) & Qt::ItemIsEnabled));
    QVERIFY(model.flags(model.index(0, StrategyTenantModel::column_of("mig_profile"))) & Qt::ItemIsEnabled);
    // The columns are the declared settings, their tooltips the kinds that read them (the weight's
    // hand-written tooltip once left out hami and mig_time_slicing).
    QCOMPARE(model.columnCount(), 1 + static_cast<int>(scenario::tenant_params().size()));
    const int weight = StrategyTenantModel::column_of("weight");
    QCOMPARE(model.headerData(weight, Qt::Horizontal).toString(), QStringLiteral("Weight"));
    QVERIFY(model.headerData(weight, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("time_slicing, mig_time_slicing, hami, vgpu: relative share of GPU time")));
    QCOMPARE(StrategyTenantModel::column_of("no_such_key"), -1);
  }

  void strategyFormHasEveryDeclaredKey() {
    // Each declared strategy key but the MIG layouts (their own editor) is a field of the form,
    // shown for the kinds that read it, with its default as the placeholder.
    const auto fields = strategy_fields();
    for (const auto& param : scenario::strategy_params()) {
      const auto field =
          std::find_if(fields.begin(), fields.end(), [&](const FieldSpec& f) { return f.pointer == "/" + param.key; });
      using scenario::ParamType;
      if (param.type == ParamType::mig_layout || param.type == ParamType::layouts ||
          param.type == ParamType::layout_schedule) {
        QVERIFY2(field == fields.end(), param.key.c_str());
        continue;
      }
      QVERIFY2(field != fields.end(), param.key.c_str());
      QCOMPARE(field->when_pointer, std::string("/kind"));
      QCOMPARE(field->when_values.size(),
               static_cast<qsizetype>(scenario::kinds_reading_strategy_key(param.key).size()));
    }
    const auto quantum =
        std::find_if(fields.begin(), fields.end(), [](const FieldSpec& f) { return f.pointer == "/quantum_ms"; });
    QCOMPARE(quantum->label, QStringLiteral("Quantum (ms)"));
    QCOMPARE(quantum->placeholder, QStringLiteral("calibrated"));
    QCOMPARE(quantum->when_values, QStringList({"time_slicing", "mig_time_slicing", "hami"}));
    QCOMPARE(quantum->type, FieldType::number);
  }

  void renamingATenantRenamesItsStrategySettings() {
    ScenarioDocument document;
    QVERIFY(document.open(write("valid.json", valid_scenario_json()), nullptr));
    document.set_value("/strategies/1/tenants/beta/weight", Json(3));
    TenantModel model(&document);
    QVERIFY(model.setData(model.index(1, TenantModel::kName), QStringLiteral("gamma")));
    QVERIFY(!document.value_at("/strategies/1/tenants/beta"));
    QCOMPARE(document.value_at("/strategies/1/tenants/gamma/weight")->get<int>(), 3);
    QVERIFY2(document.is_valid(), qPrintable(messages(document).join("\n")));
    QCOMPARE(document.undo_stack()->undoText(), QStringLiteral("Rename tenant beta to gamma"));
    document.undo_stack()->undo();
    QCOMPARE(document.value_at("/strategies/1/tenants/beta/weight")->get<int>(), 3);
    QCOMPARE(document.value_at("/tenants/1/name")->get<std::string>(), std::string("beta"));
  }
};

int run_scenario_document_test(int argc, char** argv) {
  ScenarioDocumentTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "scenario_document_test.moc"
