// Loading a scenario for the GUI (see scenario_loader.hpp).
#include "gui/scenario_loader.hpp"

#include <exception>

#include "core/error.hpp"
#include "scenario/json_io.hpp"

namespace slicewise::gui {

LoadResult try_load_scenario(const std::filesystem::path& file) {
  LoadResult result;
  try {
    result.scenario = scenario::load_scenario(file);
  } catch (const ConfigError& e) {
    result.diagnostics = e.diagnostics();
    if (result.diagnostics.empty()) result.diagnostics.push_back(Diagnostic{file.string(), 0, 0, "", e.what()});
  } catch (const std::exception& e) {
    result.diagnostics.push_back(Diagnostic{file.string(), 0, 0, "", e.what()});
  }
  return result;
}

}  // namespace slicewise::gui
