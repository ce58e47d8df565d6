// sw_gui_test's main: a headless QApplication at a fixed DPI (as hotspot's tests/testutils.h),
// then every test class, or only the one named by the first argument:
//   sw_gui_test                       all classes
//   sw_gui_test TenantModelTest -v2   one class, the rest are QTest options
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <thread>
#include <vector>

#include <QApplication>

#include "gui_test.hpp"

namespace {

struct TestClass {
  const char* name;
  int (*run)(int argc, char** argv);
};

// LeakSanitizer's check at exit stops every thread of the process with ptrace. Qt's pool threads
// are joined by ~QApplication, but a joined QThread may still be unwinding in the kernel, and a
// tracer that attaches to it then can crash: "Tracer caught signal 11 ... LeakSanitizer has
// encountered a fatal error" after every test passed, now and then under load (CI, 2026-11-23;
// google/sanitizers#1353). Return from main only as its last thread, waiting at most
// two seconds; /proc/self/task lists the live threads.
void wait_until_single_threaded() {
  using namespace std::chrono_literals;
  for (int tries = 0; tries < 200; ++tries) {
    std::error_code error;
    std::filesystem::directory_iterator tasks("/proc/self/task", error);
    if (error || std::distance(tasks, std::filesystem::directory_iterator{}) <= 1) return;
    std::this_thread::sleep_for(10ms);
  }
}

int run_classes(int argc, char** argv) {
  using namespace slicewise::gui::test;
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("slicewise-test"));

  const std::vector<TestClass> classes = {
      {"FleetModelTest", run_fleet_model_test},
      {"TenantModelTest", run_tenant_model_test},
      {"StrategyModelTest", run_strategy_model_test},
      {"ScenarioDocumentTest", run_scenario_document_test},
      {"EditorTest", run_editor_test},
      {"SimulationRunnerTest", run_simulation_runner_test},
      {"MainWindowTest", run_main_window_test},
      {"AdviseTest", run_advise_test},
      {"ResultModelTest", run_result_model_test},
      {"CompareModelTest", run_compare_model_test},
      {"ResultsPanelTest", run_results_panel_test},
      {"StrategyDetailModelTest", run_strategy_detail_model_test},
      {"TelemetryImportTest", run_telemetry_import_test},
      {"GuiDocsTest", run_gui_docs_test},
      {"ScreenshotTest", run_screenshot_test},
  };
  if (argc > 1 && argv[1][0] != '-') {
    for (const TestClass& test_class : classes) {
      if (std::strcmp(argv[1], test_class.name) != 0) continue;
      argv[1] = argv[0];  // drop the class name: QTest sees "<program> [options]"
      return test_class.run(argc - 1, argv + 1);
    }
    std::fprintf(stderr, "sw_gui_test: unknown test class \"%s\"; expected one of:", argv[1]);
    for (const TestClass& test_class : classes) std::fprintf(stderr, " %s", test_class.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  int failures = 0;
  for (const TestClass& test_class : classes) failures += test_class.run(argc, argv);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
  qputenv("QT_FONT_DPI", "96");
  const int status = run_classes(argc, argv);  // the QApplication ends, and joins its threads, here
  wait_until_single_threaded();
  return status;
}
