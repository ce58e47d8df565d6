// sw_gui_test's main: a headless QApplication at a fixed DPI (as hotspot's tests/testutils.h),
// then every test class, or only the one named by the first argument:
//   sw_gui_test                       all classes
//   sw_gui_test TenantModelTest -v2   one class, the rest are QTest options
#include <cstdio>
#include <cstring>
#include <vector>

#include <QApplication>

#include "gui_test.hpp"

namespace {

struct TestClass {
  const char* name;
  int (*run)(int argc, char** argv);
};

}  // namespace

int main(int argc, char** argv) {
  using namespace slicewise::gui::test;
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
  qputenv("QT_FONT_DPI", "96");
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
