// The MIG layouts `slicewise advise` sizes (see mig_checks.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include "models/mig_catalog.hpp"
#include "models/mig_layout.hpp"
#include "scenario/strategies/mig_checks.hpp"

namespace slicewise::scenario {

namespace {

/// One valid maximal layout of a GPU, placed: its instances and the memory of its smallest and
/// largest.
struct PlacedLayout {
  std::string layout;
  std::size_t instances = 0;
  double smallest = 0.0;
  double biggest = 0.0;
};

/// Every valid maximal layout of `geometry`, in enumeration order.
std::vector<PlacedLayout> placed_layouts(const models::MigGpu& geometry) {
  std::vector<PlacedLayout> all;
  for (const auto& layout : models::enumerate_mig_layouts(geometry)) {
    const auto placed = models::place_mig_layout(geometry, layout);
    if (!placed.valid || placed.instances.empty()) continue;
    PlacedLayout p{layout, placed.instances.size(), placed.instances.front().memory_gib, 0.0};
    for (const auto& instance : placed.instances) {
      p.smallest = std::min(p.smallest, instance.memory_gib);
      p.biggest = std::max(p.biggest, instance.memory_gib);
    }
    all.push_back(std::move(p));
  }
  return all;
}

/// Every layout, each with the memory of its largest instance.
std::vector<AdvisorSetting> every_layout(models::StrategyKind kind, const std::vector<PlacedLayout>& all) {
  std::vector<AdvisorSetting> out;
  for (const auto& p : all) {
    auto spec = sized_for_sla(kind);
    spec.layout = p.layout;
    out.push_back({" " + p.layout, spec, p.biggest});
  }
  return out;
}

/// Two layouts the GPUs take in turn, for tenants that one layout fits badly: when the layout of
/// the most instances cannot hold the largest tenant that shares (`largest_gib`), that layout beside
/// each of the (at most two, most instances first) layouts whose every instance holds it: large
/// instances on some GPUs, many small ones on the others.
std::vector<AdvisorSetting> mixed_layouts(models::StrategyKind kind, const std::vector<PlacedLayout>& all,
                                          double largest_gib) {
  const auto most = std::max_element(
      all.begin(), all.end(), [](const PlacedLayout& a, const PlacedLayout& b) { return a.instances < b.instances; });
  if (most == all.end() || most->biggest + 1e-9 >= largest_gib) return {};
  std::vector<const PlacedLayout*> large;
  for (const auto& p : all) {
    if (p.smallest + 1e-9 >= largest_gib) large.push_back(&p);
  }
  std::stable_sort(large.begin(), large.end(),
                   [](const PlacedLayout* a, const PlacedLayout* b) { return a->instances > b->instances; });
  std::vector<AdvisorSetting> out;
  for (std::size_t i = 0; i < large.size() && i < 2; ++i) {
    auto spec = sized_for_sla(kind);
    spec.layouts = {large[i]->layout, most->layout};
    out.push_back({" " + large[i]->layout + " / " + most->layout, spec, large[i]->biggest});
  }
  return out;
}

}  // namespace

std::vector<AdvisorSetting> mig_advisor_settings(models::StrategyKind kind, const AdvisorGpu& gpu) {
  if (!gpu.geometry) return {};
  const auto all = placed_layouts(*gpu.geometry);
  auto out = every_layout(kind, all);
  for (auto& mixed : mixed_layouts(kind, all, gpu.largest_sharing_gib)) out.push_back(std::move(mixed));
  return out;
}

}  // namespace slicewise::scenario
