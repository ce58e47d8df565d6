// Shared by the GUI test classes: their entry points (run by gui_test_main.cpp) and fixtures.
#pragma once

#include <QByteArray>
#include <QString>
#include <QTableView>
#include <QTemporaryDir>

#include "gui/scenario_document.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::gui::test {

/// Each runs one QTest class with QTest::qExec and returns its exit code.
int run_fleet_model_test(int argc, char** argv);
int run_tenant_model_test(int argc, char** argv);
int run_strategy_model_test(int argc, char** argv);
int run_scenario_document_test(int argc, char** argv);
int run_editor_test(int argc, char** argv);
int run_simulation_runner_test(int argc, char** argv);
int run_screenshot_test(int argc, char** argv);
int run_main_window_test(int argc, char** argv);
int run_advise_test(int argc, char** argv);
int run_result_model_test(int argc, char** argv);
int run_compare_model_test(int argc, char** argv);
int run_results_panel_test(int argc, char** argv);
int run_gui_docs_test(int argc, char** argv);
int run_strategy_detail_model_test(int argc, char** argv);
int run_telemetry_import_test(int argc, char** argv);

/// An in-memory scenario (no file; it parses, though the catalogs may reject parts) with 2 fleet entries, 2 tenants and
/// 2 strategies; the model tests assert its cell texts:
/// - fleet: L40S by GPU ×1; g6e.2xlarge (L40S) ×2
/// - tenants: "phi-3.5-mini" generic, solo 0.609 s, 19.2 GiB, 16 at once, poisson 2/s, SLA 2 s,
///   isolation none; "deepseek-8b" llm, no solo latency, 24.5 GiB, 1 at once, closed_loop 3 users
///   think 1.5 s, no SLA latency, isolation software
/// - strategies: dedicated with defaults; "ts-10" time_slicing with replicas 10, quantum_ms 2,
///   sidecars 2×t3.large, and a weight 2 override for phi-3.5-mini
scenario::Scenario two_tenant_scenario();

/// Writes `text` to `name` inside `dir` (creating sub-folders) and returns its path; fails the
/// process when it cannot.
QString write_file(const QTemporaryDir& dir, const QString& name, const QByteArray& text);

/// The first column of `table` narrower than its header asks for or than its widest cell, said as
/// "column 3 ($/month): 80 px for a header of 90 and cells of 85"; empty when every column fits.
QString column_cut_short(const QTableView* table);

/// `scenario` as the JSON document the editor holds (scenario::to_json).
Json document_of(const scenario::Scenario& scenario);

/// A valid scenario document "gui-test" ("Two generic tenants on one L40S."): fleet L40S ×1;
/// tenants "alpha" (solo 0.5 s, 19.2 GiB, poisson 1/s) and "beta" (solo 0.25 s, 8 GiB,
/// poisson 2/s, SLA 1 s); strategies dedicated and time_slicing (replicas 4); pricing aws.
QByteArray valid_scenario_json();

/// valid_scenario_json() with a misspelt top-level key: "horizon" for "horizon_s", which the loader
/// reports as `<file>: /horizon: unknown key (did you mean "horizon_s"?)`.
QByteArray broken_scenario_json();

}  // namespace slicewise::gui::test
