// The simulated platform: one SimGrid host per simulated device (a GPU or a MIG instance).
// SimGrid stays private to sw_sim; this header exposes plain types only.
#pragma once

#include <string>
#include <vector>

namespace slicewise::sim {

/// One simulated device. Its speed is 1 work unit per second: the rate model (models/) decides how
/// fast each context progresses, so SimGrid only keeps the clock and the actors.
struct DeviceSpec {
  std::string name;  ///< unique host name, e.g. "gpu0" or "gpu0/mig1"
};

/// Adds one host per device to the current Engine's platform (a full zone named "fleet").
/// Requires a live simgrid::s4u::Engine; call once per process.
void build_platform(const std::vector<DeviceSpec>& devices);

/// "3.32" etc., the SimGrid library actually linked.
std::string simgrid_version();

}  // namespace slicewise::sim
