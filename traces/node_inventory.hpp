// What a node list holds (Alibaba v2023 openb-nodes): nodes and GPUs per GPU model, and the
// CPU-only nodes. The input of `slicewise trace fleet`, which maps each model onto the GPU catalog.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "traces/trace_format.hpp"

namespace slicewise::traces {

/// The nodes of one GPU model.
struct NodeModelCount {
  std::int64_t num_nodes = 0;
  std::int64_t num_gpus = 0;                   ///< Σ GPUs over the nodes
  std::map<int, std::int64_t> nodes_per_size;  ///< GPUs on a node -> nodes with that many

  bool operator==(const NodeModelCount&) const = default;
};

struct NodeInventory {
  std::string path;
  std::map<std::string, NodeModelCount> models;  ///< GPU nodes by their `model`, in name order
  std::int64_t num_cpu_nodes = 0;                ///< nodes with no GPU (gpu 0; model empty)
  std::int64_t num_bad_rows = 0;                 ///< skipped under BadRowPolicy::skip
  std::vector<std::string> bad_rows;             ///< the first five messages

  std::int64_t num_gpu_nodes() const;
  std::int64_t num_gpus() const;
};

/// Reads a node list to the end. `format` nullopt = detected from the header. A format whose rows
/// are not machines (everything but openb-nodes) throws TraceError naming the allowed one; bad rows
/// follow `on_bad_row`.
NodeInventory read_node_inventory(const std::string& path, std::optional<TraceFormat> format,
                                  BadRowPolicy on_bad_row = BadRowPolicy::fail);

}  // namespace slicewise::traces
