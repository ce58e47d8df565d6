// The arrival rate over time of one tenant's load (see arrival_preview.hpp).
#include "gui/arrival_preview.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/json_reader.hpp"
#include "sim/load_source.hpp"

namespace slicewise::gui {

ArrivalPreview preview_arrivals(const scenario::Scenario& scenario, std::size_t index, int max_bins,
                                std::int64_t max_requests) {
  ArrivalPreview preview;
  if (index >= scenario.tenants.size() || scenario.horizon_s <= 0.0 || max_bins < 1) {
    preview.note = "no tenant or horizon to preview";
    return preview;
  }
  const scenario::LoadSpec& load = scenario.tenants[index].load;
  if (load.kind == scenario::LoadKind::closed_loop) {
    preview.note = "closed loop: arrivals follow the replies";
    if (load.think_time_s > 0.0) {
      preview.note += "; at most " + format_number(load.num_users / load.think_time_s) + " requests/s (" +
                      std::to_string(load.num_users) + " users / " + format_number(load.think_time_s) +
                      " s think time)";
    }
    return preview;
  }
  preview.bin_s = std::max(1.0, std::ceil(scenario.horizon_s / max_bins));
  const auto bins = static_cast<std::size_t>(std::ceil(scenario.horizon_s / preview.bin_s));
  std::vector<std::int64_t> counts(bins, 0);
  try {
    const auto source = sim::open_loop_source_of(scenario, index);
    traces::RequestRecord record;
    while (source->next(record)) {
      if (record.arrived_at_s >= scenario.horizon_s) break;
      if (preview.num_arrivals == max_requests) {
        preview.truncated = true;
        break;
      }
      const auto bin = std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, record.arrived_at_s) / preview.bin_s));
      ++counts[bin];
      ++preview.num_arrivals;
    }
  } catch (const std::exception& e) {
    preview.note = e.what();
    return preview;
  }
  preview.rate_per_s.reserve(bins);
  for (std::size_t b = 0; b < bins; ++b) {
    // The last bin may be shorter than bin_s.
    const double width = std::min(preview.bin_s, scenario.horizon_s - static_cast<double>(b) * preview.bin_s);
    const double rate = width > 0.0 ? static_cast<double>(counts[b]) / width : 0.0;
    preview.rate_per_s.push_back(rate);
    preview.peak_rate_per_s = std::max(preview.peak_rate_per_s, rate);
  }
  preview.mean_rate_per_s = static_cast<double>(preview.num_arrivals) / scenario.horizon_s;
  return preview;
}

}  // namespace slicewise::gui
