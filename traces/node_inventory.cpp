// Counting a node list per GPU model.
#include "traces/node_inventory.hpp"

#include "core/error.hpp"
#include "traces/trace_reader.hpp"

namespace slicewise::traces {

std::int64_t NodeInventory::num_gpu_nodes() const {
  std::int64_t n = 0;
  for (const auto& [model, count] : models) n += count.num_nodes;
  return n;
}

std::int64_t NodeInventory::num_gpus() const {
  std::int64_t n = 0;
  for (const auto& [model, count] : models) n += count.num_gpus;
  return n;
}

NodeInventory read_node_inventory(const std::string& path, std::optional<TraceFormat> format, BadRowPolicy on_bad_row) {
  const TraceFormat f = format ? *format : detect_format(path);
  if (f != TraceFormat::openb_nodes) {
    throw TraceError(path, 0, "",
                     "a fleet comes from a node list, one machine per row; this file reads as " +
                         std::string(to_string(f)) + ", whose rows are not machines (expected --format openb-nodes)");
  }
  auto reader = open_trace(path, f, {on_bad_row, "model"});
  NodeInventory inventory;
  inventory.path = path;
  TraceRow row;
  while (reader->next(row)) {
    if (row.num_gpus == 0) {
      ++inventory.num_cpu_nodes;
      continue;
    }
    auto& count = inventory.models[row.key];
    ++count.num_nodes;
    count.num_gpus += row.num_gpus;
    ++count.nodes_per_size[row.num_gpus];
  }
  inventory.num_bad_rows = reader->num_bad_rows();
  inventory.bad_rows = reader->bad_rows();
  return inventory;
}

}  // namespace slicewise::traces
