// SimGrid platform construction.
#include "sim/platform.hpp"

#include <simgrid/s4u.hpp>
// version.h uses the declaration macros that s4u.hpp brings in.
#include <simgrid/version.h>

#include "core/error.hpp"

namespace sg4 = simgrid::s4u;

namespace slicewise::sim {

void build_platform(const std::vector<DeviceSpec>& devices) {
  SW_CHECK(sg4::Engine::is_initialized(), "build_platform needs a live Engine");
  auto* zone = sg4::create_full_zone("fleet");
  for (const auto& device : devices) {
    zone->create_host(device.name, 1.0)->seal();
  }
  zone->seal();
}

std::string simgrid_version() {
  int major = 0;
  int minor = 0;
  int patch = 0;
  sg_version_get(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + (patch ? "." + std::to_string(patch) : "");
}

}  // namespace slicewise::sim
