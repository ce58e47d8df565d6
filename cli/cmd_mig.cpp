// `slicewise mig GPU --layout L | --enumerate`: check a MIG layout or list the valid ones.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_layout.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

CLI::App* setup_mig(CLI::App& app, MigOptions& options) {
  auto* sub = app.add_subcommand("mig", "Check a MIG layout on a GPU, or enumerate every maximal valid layout");
  sub->add_option("gpu", options.gpu, "GPU id, e.g. A100-80GB (see `slicewise gpus`)")->required();
  auto* layout =
      sub->add_option("--layout", options.layout, "Layout such as 3g.40gb+2g.20gb+1g.10gb+1g.10gb or 7x1g.10gb");
  auto* enumerate = sub->add_flag("--enumerate", options.enumerate, "List every maximal valid layout, one per line");
  sub->add_flag("--include-me", options.include_media_extensions, "With --enumerate: also use the +me profiles");
  layout->excludes(enumerate);
  sub->callback([layout, enumerate] {
    if (layout->count() == 0 && enumerate->count() == 0) {
      throw CLI::RequiredError("mig: one of --layout or --enumerate");
    }
  });
  return sub;
}

namespace {
/// The MIG geometry of a GPU named by id or alias; throws ConfigError with a did-you-mean.
const models::MigGpu& mig_gpu_or_throw(const std::string& name) {
  const auto& gpus = models::GpuCatalog::shipped();
  const auto* gpu = gpus.find(name);
  if (!gpu) {
    throw ConfigError(
        "slicewise mig", "",
        "unknown GPU " + quoted_excerpt(name) + gpus.did_you_mean_suffix(name) + "; see `slicewise gpus`");
  }
  const auto& catalog = models::MigCatalog::shipped();
  const auto* mig = catalog.find(gpu->id);
  if (!mig) {
    std::vector<std::string> capable;
    for (const auto& entry : catalog.gpus()) capable.push_back(entry.gpu_id);
    throw ConfigError("slicewise mig", "", gpu->id + " does not support MIG; MIG GPUs: " + join(capable, ", "));
  }
  return *mig;
}
}  // namespace

int run_mig(const MigOptions& options, Io io) {
  const auto& gpu = mig_gpu_or_throw(options.gpu);
  if (options.enumerate) {
    for (const auto& layout : models::enumerate_mig_layouts(gpu, options.include_media_extensions)) {
      io.out << layout << "\n";
    }
    return 0;
  }
  const auto placement = models::place_mig_layout(gpu, options.layout);
  if (!placement.valid) {
    io.err << gpu.gpu_id << ": invalid MIG layout \"" << options.layout << "\": " << placement.reason << "\n";
    return 1;
  }
  using report::Align;
  report::TextTable table({{"instance"},
                           {"profile"},
                           {"memory slots"},
                           {"compute slices", Align::right},
                           {"SMs", Align::right},
                           {"memory GiB", Align::right}});
  for (std::size_t i = 0; i < placement.instances.size(); ++i) {
    const auto& instance = placement.instances[i];
    const int last = instance.start_slot + instance.memory_slices - 1;
    table.add_row({std::to_string(i), instance.profile,
                   instance.memory_slices == 1 ? std::to_string(instance.start_slot)
                                               : std::to_string(instance.start_slot) + "-" + std::to_string(last),
                   std::to_string(instance.compute_slices), std::to_string(instance.num_sms),
                   report::format_fixed(instance.memory_gib, 2)});
  }
  table.add_row({"total", "", "",
                 std::to_string(placement.total_compute_slices) + "/" + std::to_string(gpu.compute_slices),
                 std::to_string(placement.total_sms), report::format_fixed(placement.total_memory_gib, 2)});
  io.out << gpu.gpu_id << ": valid MIG layout " << models::canonical_mig_layout([&] {
    std::vector<std::string> names;
    for (const auto& instance : placement.instances) names.push_back(instance.profile);
    return names;
  }()) << "\n"
         << table.to_text();
  return 0;
}

}  // namespace slicewise::cli
