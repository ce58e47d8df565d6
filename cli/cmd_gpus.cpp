// `slicewise gpus`: the GPU catalog as a table (or JSON).
#include <cmath>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/json_reader.hpp"
#include "models/gpu_catalog.hpp"
#include "models/power_model.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

CLI::App* setup_gpus(CLI::App& app, GpusOptions& options) {
  auto* sub = app.add_subcommand("gpus", "List the GPU catalog (SMs, memory, bandwidth, TFLOPS, TDP, idle power, MIG)");
  sub->add_flag("--json", options.json, "Print JSON instead of a table");
  return sub;
}

namespace {
std::string optional_text(const std::optional<double>& value) { return value ? format_number(*value) : "-"; }

/// The idle power the energy model uses (models/power_model.hpp): measured, "12 (est.)" when
/// estimated from the catalog's measured GPUs, "-" without a TDP.
std::string idle_text(const std::optional<models::PowerCurve>& curve) {
  if (!curve) return "-";
  const long watts = std::lround(curve->idle_w);
  return std::to_string(watts) + (curve->idle_estimated ? " (est.)" : "");
}
}  // namespace

int run_gpus(const GpusOptions& options, Io io) {
  const auto& catalog = models::GpuCatalog::shipped();
  if (options.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& gpu : catalog.gpus()) {
      nlohmann::ordered_json row = {{"id", gpu.id},
                                    {"name", gpu.name},
                                    {"arch", gpu.arch},
                                    {"num_sms", gpu.num_sms},
                                    {"memory_gib", gpu.memory_gib},
                                    {"memory_bandwidth_gbps", gpu.memory_bandwidth_gbps}};
      row["fp16_dense_tflops"] = gpu.fp16_dense_tflops ? nlohmann::ordered_json(*gpu.fp16_dense_tflops) : nullptr;
      row["tdp_w"] = gpu.tdp_w ? nlohmann::ordered_json(*gpu.tdp_w) : nullptr;
      const auto curve = models::power_curve(gpu, catalog);
      row["idle_w"] = curve ? nlohmann::ordered_json(curve->idle_w) : nullptr;
      row["idle_estimated"] = curve && curve->idle_estimated;
      row["idle_source"] = gpu.idle_source;
      row["mig_capable"] = gpu.mig_capable;
      row["source"] = gpu.source;
      row["as_of"] = gpu.as_of;
      out.push_back(row);
    }
    io.out << out.dump(2) << "\n";
    return 0;
  }
  using report::Align;
  report::TextTable table({{"id"},
                           {"arch"},
                           {"SMs", Align::right},
                           {"memory GiB", Align::right},
                           {"bandwidth GB/s", Align::right},
                           {"FP16 TFLOPS", Align::right},
                           {"TDP W", Align::right},
                           {"idle W", Align::right},
                           {"MIG"}});
  for (const auto& gpu : catalog.gpus()) {
    table.add_row({gpu.id, gpu.arch, std::to_string(gpu.num_sms), format_number(gpu.memory_gib),
                   format_number(gpu.memory_bandwidth_gbps), optional_text(gpu.fp16_dense_tflops),
                   optional_text(gpu.tdp_w), idle_text(models::power_curve(gpu, catalog)),
                   gpu.mig_capable ? "yes" : "no"});
  }
  io.out << table.to_text();
  io.out << "\nSource: " << catalog.source() << " (as of " << catalog.as_of()
         << "); '-' = not published in the reference.\n";
  if (const auto frac = models::measured_idle_frac(catalog)) {
    io.out << "Idle W: nvidia-smi readings at rest, each GPU's idle_source; (est.) = "
           << report::format_fixed(100.0 * *frac, 1)
           << " % of TDP, the median of the measured GPUs (docs/energy.md).\n";
  }
  return 0;
}

}  // namespace slicewise::cli
