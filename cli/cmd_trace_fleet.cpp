// `slicewise trace fleet FILE [--map MODEL=GPU_ID]... [--skip-unmapped] [--out F]`: a node list
// (openb-nodes) summed per trace GPU model, each model mapped onto a GPU catalog id, printed as a
// scenario's "fleet" array. Only models that are the very same GPU are mapped without being told.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string_view>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "report/text_table.hpp"
#include "traces/node_inventory.hpp"

namespace slicewise::cli {

namespace {

constexpr const char* kCommand = "slicewise trace fleet";

struct Pair {
  std::string_view model;
  std::string_view text;
};

/// Trace models that are the same GPU as a catalog id (the built-in mapping).
constexpr Pair kSameGpu[] = {{"T4", "T4"}, {"V100M16", "V100-16GB"}, {"V100M32", "V100-32GB"}};

/// Why a model of the public node lists has no built-in mapping (SOURCE.md of the v2023 trace).
constexpr Pair kWhyUnmapped[] = {{"P100", "no P100 in the GPU catalog"},
                                 {"A10", "an A10, not the A10G"},
                                 {"G1", "type undisclosed"},
                                 {"G2", "type undisclosed"},
                                 {"G3", "type undisclosed"}};

/// The text of `model` in `table`; empty when absent.
template <std::size_t N>
std::string_view lookup(const Pair (&table)[N], std::string_view model) {
  for (const auto& p : table) {
    if (p.model == model) return p.text;
  }
  return {};
}

/// One trace model and where its GPUs go.
struct ModelRow {
  std::string model;
  traces::NodeModelCount count;
  std::string gpu_id;  ///< catalog id; empty when skipped or unmapped
  std::string source;  ///< "built-in", "--map" or "skipped"
};

struct FleetLine {
  std::string gpu_id;
  std::int64_t count = 0;
};

std::vector<std::string> model_names(const traces::NodeInventory& inventory) {
  std::vector<std::string> names;
  for (const auto& [model, count] : inventory.models) names.push_back(model);
  return names;
}

/// The --map options as model -> catalog id; every problem reported at once.
std::map<std::string, std::string> parse_maps(const std::vector<std::string>& maps,
                                              const traces::NodeInventory& inventory) {
  const auto& gpus = models::GpuCatalog::shipped();
  const auto names = model_names(inventory);
  std::map<std::string, std::string> mapped;
  Diagnostics problems;
  auto problem = [&](std::string message) { problems.push_back({kCommand, 0, 0, "--map", std::move(message)}); };
  for (const auto& text : maps) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
      problem("expected MODEL=GPU_ID (got " + quoted_excerpt(text) + ")");
      continue;
    }
    const std::string model = text.substr(0, eq);
    const std::string gpu_name = text.substr(eq + 1);
    if (!inventory.models.count(model)) {
      std::string message = excerpt(text) + ": " + inventory.path;
      message += " has no GPU model " + quoted_excerpt(model) + "; its models are " + excerpt(join(names, "|"), 400);
      message += did_you_mean_suffix(model, names);
      problem(std::move(message));
      continue;
    }
    const auto* gpu = gpus.find(gpu_name);
    if (!gpu) {
      std::string message = excerpt(text) + ": unknown GPU ";
      message += quoted_excerpt(gpu_name) + gpus.did_you_mean_suffix(gpu_name);
      message += "; see `slicewise gpus`";
      problem(std::move(message));
      continue;
    }
    const auto [it, inserted] = mapped.emplace(model, gpu->id);
    if (!inserted && it->second != gpu->id) problem(model + " mapped twice (" + it->second + " and " + gpu->id + ")");
  }
  if (!problems.empty()) throw ConfigError(problems);
  return mapped;
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

/// The error for models with neither a built-in mapping nor a --map: each with its nodes and
/// GPUs, and both fixes.
[[noreturn]] void throw_unmapped(const traces::NodeInventory& inventory, const std::vector<const ModelRow*>& unmapped) {
  std::size_t widths[3] = {0, 0, 0};
  for (const auto* row : unmapped) {
    widths[0] = std::max(widths[0], excerpt(row->model).size());
    widths[1] = std::max(widths[1], std::to_string(row->count.num_nodes).size());
    widths[2] = std::max(widths[2], std::to_string(row->count.num_gpus).size());
  }
  std::string message = std::to_string(unmapped.size()) + (unmapped.size() == 1 ? " GPU model is" : " GPU models are") +
                        " not mapped to a catalog GPU:\n";
  for (const auto* row : unmapped) {
    std::string line = "  " + pad_right(excerpt(row->model), widths[0]) + "  " +
                       pad_left(std::to_string(row->count.num_nodes), widths[1]) + " nodes  " +
                       pad_left(std::to_string(row->count.num_gpus), widths[2]) + " GPUs";
    if (const auto why = lookup(kWhyUnmapped, row->model); !why.empty()) line += "  (" + std::string(why) + ")";
    message += line + "\n";
  }
  message += "map each with --map MODEL=GPU_ID (e.g. --map " + excerpt(unmapped.front()->model) +
             "=A100-80GB; `slicewise gpus` lists the ids), or leave them out with --skip-unmapped";
  throw ConfigError(kCommand, inventory.path, message);
}

/// Every model of the inventory with its GPU and the source of that mapping, most GPUs first.
std::vector<ModelRow> map_models(const traces::NodeInventory& inventory, const std::vector<std::string>& maps,
                                 bool skip_unmapped) {
  const auto mapped = parse_maps(maps, inventory);
  std::vector<ModelRow> rows;
  for (const auto& [model, count] : inventory.models) {
    ModelRow row{model, count, "", ""};
    if (const auto it = mapped.find(model); it != mapped.end()) {
      row.gpu_id = it->second;
      row.source = "--map";
    } else if (const auto same = lookup(kSameGpu, model); !same.empty()) {
      row.gpu_id = std::string(same);
      row.source = "built-in";
    }
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ModelRow& a, const ModelRow& b) { return a.count.num_gpus > b.count.num_gpus; });
  std::vector<const ModelRow*> unmapped;
  for (auto& row : rows) {
    if (!row.gpu_id.empty()) continue;
    if (skip_unmapped) {
      row.source = "skipped";
    } else {
      unmapped.push_back(&row);
    }
  }
  if (!unmapped.empty()) throw_unmapped(inventory, unmapped);
  return rows;
}

/// GPUs summed per catalog id (two trace models may map onto one), most GPUs first, then by id.
std::vector<FleetLine> fleet_of(const std::vector<ModelRow>& rows) {
  std::map<std::string, std::int64_t> per_gpu;
  for (const auto& row : rows) {
    if (!row.gpu_id.empty()) per_gpu[row.gpu_id] += row.count.num_gpus;
  }
  std::vector<FleetLine> fleet;
  fleet.reserve(per_gpu.size());
  for (const auto& [id, count] : per_gpu) fleet.push_back({id, count});
  std::stable_sort(fleet.begin(), fleet.end(),
                   [](const FleetLine& a, const FleetLine& b) { return a.count > b.count; });
  return fleet;
}

/// The "fleet" array, one entry per line, ready to paste into a scenario.
std::string fleet_json(const std::vector<FleetLine>& fleet) {
  std::string out = "[\n";
  for (std::size_t i = 0; i < fleet.size(); ++i) {
    out += "  {\"gpu\": " + nlohmann::json(fleet[i].gpu_id).dump() + ", \"count\": " + std::to_string(fleet[i].count) +
           "}" + (i + 1 < fleet.size() ? ",\n" : "\n");
  }
  return out + "]\n";
}

/// "2,4": the distinct node sizes of a model.
std::string node_sizes(const traces::NodeModelCount& count) {
  std::vector<std::string> sizes;
  for (const auto& [gpus, nodes] : count.nodes_per_size) sizes.push_back(std::to_string(gpus));
  return join(sizes, ",");
}

std::string summary(const traces::NodeInventory& inventory, const std::vector<ModelRow>& rows,
                    const std::vector<FleetLine>& fleet) {
  using report::Align;
  std::string out = inventory.path + ": " + std::to_string(inventory.num_gpu_nodes()) + " GPU nodes, " +
                    std::to_string(inventory.num_gpus()) + " GPUs, " + std::to_string(inventory.num_cpu_nodes) +
                    " CPU-only nodes (not in the fleet)\n";
  report::TextTable table(
      {{"model"}, {"nodes", Align::right}, {"GPUs", Align::right}, {"GPUs/node"}, {"GPU"}, {"mapping"}});
  std::int64_t skipped_models = 0, skipped_nodes = 0, skipped_gpus = 0;
  for (const auto& row : rows) {
    table.add_row({excerpt(row.model), std::to_string(row.count.num_nodes), std::to_string(row.count.num_gpus),
                   node_sizes(row.count), row.gpu_id.empty() ? "-" : row.gpu_id, row.source});
    if (row.gpu_id.empty()) {
      ++skipped_models;
      skipped_nodes += row.count.num_nodes;
      skipped_gpus += row.count.num_gpus;
    }
  }
  out += table.to_text();
  std::int64_t fleet_gpus = 0;
  for (const auto& line : fleet) fleet_gpus += line.count;
  out += "fleet: " + std::to_string(fleet.size()) + (fleet.size() == 1 ? " entry, " : " entries, ") +
         std::to_string(fleet_gpus) + " GPUs";
  if (skipped_models > 0) {
    out += "; skipped " + std::to_string(skipped_models) + (skipped_models == 1 ? " model, " : " models, ") +
           std::to_string(skipped_nodes) + " nodes, " + std::to_string(skipped_gpus) + " GPUs";
  }
  out += "\n";
  if (inventory.num_bad_rows > 0) {
    out += "bad rows skipped: " + std::to_string(inventory.num_bad_rows) + "\n";
    for (const auto& m : inventory.bad_rows) out += "  " + m + "\n";
  }
  return out;
}

}  // namespace

void setup_trace_fleet(CLI::App& trace, TraceOptions& options) {
  auto* fleet = trace.add_subcommand("fleet", "Turn a node list (openb-nodes) into a scenario's \"fleet\" array");
  fleet->add_option("file", options.file, "Node list (.gz and .zst are read transparently)")->required();
  one_of(fleet->add_option("--format", options.format, "Trace format"), traces::trace_format_names(),
         "detected from the header");
  one_of(fleet->add_option("--on-bad-row", options.on_bad_row,
                           "A row that cannot be read: fail stops at the first, skip counts it and goes on"),
         traces::bad_row_policy_names(), "fail");
  fleet->add_option("--map", options.maps, "MODEL=GPU_ID: the catalog GPU of a trace model; repeatable")
      ->allow_extra_args(false);
  fleet->add_flag("--skip-unmapped", options.skip_unmapped, "Leave out the models with no GPU (reported on stderr)");
  fleet->add_option("--out", options.out, "Output file, written atomically (default: standard output)");
  fleet->callback([&options] { options.action = "fleet"; });
}

int run_trace_fleet(const TraceOptions& options, Io io) {
  std::error_code ec;
  if (!options.out.empty() && std::filesystem::equivalent(options.out, options.file, ec)) {
    throw ConfigError(kCommand, "--out", options.out + " is the node list being read; write the fleet to another file");
  }
  if (!options.out.empty()) {
    const std::filesystem::path out(options.out);
    if (std::filesystem::is_directory(out, ec)) {
      throw ConfigError(kCommand, "--out", options.out + " is a directory; expected a file to write the fleet to");
    }
    if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path(), ec)) {
      throw ConfigError(kCommand, "--out",
                        "no folder " + out.parent_path().string() + " to write " + options.out + " in");
    }
  }
  std::optional<traces::TraceFormat> format;
  if (!options.format.empty()) format = traces::trace_format_from_string(options.format);
  const auto policy = traces::bad_row_policy_from_string(options.on_bad_row).value_or(traces::BadRowPolicy::fail);
  const auto inventory = traces::read_node_inventory(options.file, format, policy);
  const auto rows = map_models(inventory, options.maps, options.skip_unmapped);
  const auto fleet = fleet_of(rows);
  if (fleet.empty()) {
    throw ConfigError(kCommand, inventory.path,
                      inventory.models.empty() ? "no GPU nodes: nothing to make a fleet of"
                                               : "every GPU model was skipped: nothing left to make a fleet of");
  }
  const std::string json = fleet_json(fleet);
  if (options.out.empty()) {
    io.out << json;
  } else {
    write_file_atomically(options.out, json);
  }
  io.err << summary(inventory, rows, fleet);
  if (!options.out.empty()) io.err << "wrote " << options.out << "\n";
  return 0;
}

}  // namespace slicewise::cli
