// Loading a scenario for the GUI: the library's exceptions become a value the window can show,
// so no widget parses or catches (hotspot's backend/widget split).
#pragma once

#include <filesystem>
#include <optional>

#include "core/diagnostic.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::gui {

/// What loading one file gave: the scenario, or every problem found (never both).
struct LoadResult {
  std::optional<scenario::Scenario> scenario;  ///< set on success
  Diagnostics diagnostics;                     ///< at least one on failure, empty on success
  bool ok() const { return scenario.has_value(); }
};

/// scenario::load_scenario(file) (parse + validate against the shipped catalogs) without throwing:
/// a ConfigError gives its diagnostics; any other error gives one diagnostic naming `file` whose
/// message is the error's text (an event handler must not let an exception reach Qt's loop).
LoadResult try_load_scenario(const std::filesystem::path& file);

}  // namespace slicewise::gui
