// `slicewise gpus`: the GPU catalog as a table (or JSON).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/json_reader.hpp"
#include "models/gpu_catalog.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

CLI::App* setup_gpus(CLI::App& app, GpusOptions& options) {
  auto* sub = app.add_subcommand("gpus", "List the GPU catalog (SMs, memory, bandwidth, TFLOPS, TDP, MIG)");
  sub->add_flag("--json", options.json, "Print JSON instead of a table");
  return sub;
}

namespace {
std::string optional_text(const std::optional<double>& value) { return value ? format_number(*value) : "-"; }
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
                           {"MIG"}});
  for (const auto& gpu : catalog.gpus()) {
    table.add_row({gpu.id, gpu.arch, std::to_string(gpu.num_sms), format_number(gpu.memory_gib),
                   format_number(gpu.memory_bandwidth_gbps), optional_text(gpu.fp16_dense_tflops),
                   optional_text(gpu.tdp_w), gpu.mig_capable ? "yes" : "no"});
  }
  io.out << table.to_text();
  io.out << "\nSource: " << catalog.source() << " (as of " << catalog.as_of()
         << "); '-' = not published in the reference.\n";
  return 0;
}

}  // namespace slicewise::cli
