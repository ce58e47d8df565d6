// The fleet and tenant checks of validate_scenario: GPU ids and instance types of the fleet, the
// tenants' workloads (required keys, reference GPU, memory fit) and their trace files.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/error.hpp"
#include "core/spell.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/scenario_checker.hpp"
#include "scenario/validate.hpp"
#include "traces/trace_reader.hpp"

namespace slicewise::scenario::detail {

namespace {

/// "unknown GPU "x" (did you mean "y"?)", or a pointer to `slicewise gpus` when nothing is close.
std::string unknown_gpu(const std::string& id, const models::GpuCatalog& gpus) {
  const auto hint = gpus.did_you_mean_suffix(id);
  return "unknown GPU " + quoted_excerpt(id) +
         (hint.empty() ? "; run \"slicewise gpus\" to list the known ones" : hint);
}

}  // namespace

/// Row of an instance type (in the scenario's region when it lists it), or nullptr with a
/// diagnostic at `pointer` when the table lacks the type. Known types are remembered for pricing().
const pricing::InstancePrice* ScenarioChecker::instance(const std::string& type, const std::string& pointer) {
  if (!table_) return nullptr;
  const auto* row = table_->find(type, s_.pricing.region);
  if (!row) row = table_->find(type);
  if (!row) {
    add(pointer, "unknown instance type " + quoted_excerpt(type) + " in price table \"" + table_->name + "\"" +
                     did_you_mean_suffix(type, table_->instance_types()));
  } else {
    instances_used_.emplace_back(type, pointer);
  }
  return row;
}

/// The GPU of fleet entry `i` (directly or through its instance type), counted into the fleet.
void ScenarioChecker::fleet_entry(std::size_t i) {
  const auto& e = s_.fleet[i];
  entry_gpus_.push_back(nullptr);
  const std::string pointer = "/fleet/" + std::to_string(i);
  const models::GpuSpec* gpu = nullptr;
  int gpus_per_entry = 1;
  if (!e.instance_type.empty()) {
    const auto* row = instance(e.instance_type, pointer + "/instance_type");
    if (!row) return;
    if (!row->gpu || row->num_gpus <= 0) {
      add(pointer + "/instance_type",
          e.instance_type + " has no GPU (CPU-only instances belong in a strategy's \"sidecars\")");
      return;
    }
    gpu = c_.gpus->find(*row->gpu);
    gpus_per_entry = row->num_gpus;
    if (!gpu) add(pointer + "/instance_type", e.instance_type + ": " + unknown_gpu(*row->gpu, *c_.gpus));
    if (gpu && !e.gpu.empty() && c_.gpus->find(e.gpu) != gpu) {
      add(pointer + "/gpu", e.instance_type + " has " + gpu->id + ", not " + e.gpu);
    }
  } else {
    gpu = c_.gpus->find(e.gpu);
    if (!gpu) add(pointer + "/gpu", unknown_gpu(e.gpu, *c_.gpus));
  }
  if (!gpu) return;
  entry_gpus_.back() = gpu;
  num_gpus_ += static_cast<std::int64_t>(gpus_per_entry) * e.count;
  ++fleet_entries_known_;
  if (std::find(fleet_gpus_.begin(), fleet_gpus_.end(), gpu) == fleet_gpus_.end()) fleet_gpus_.push_back(gpu);
  if (reserved(e)) return;
  num_shared_gpus_ += static_cast<std::int64_t>(gpus_per_entry) * e.count;
  if (std::find(shared_gpus_.begin(), shared_gpus_.end(), gpu) == shared_gpus_.end()) shared_gpus_.push_back(gpu);
}

void ScenarioChecker::pools() {
  std::vector<std::string> names;
  for (const auto& t : s_.tenants) names.push_back(t.name);
  bool any_shared = false;
  for (std::size_t i = 0; i < s_.fleet.size(); ++i) {
    any_shared = any_shared || !reserved(s_.fleet[i]);
    for (std::size_t k = 0; k < s_.fleet[i].tenants.size(); ++k) {
      const auto& name = s_.fleet[i].tenants[k];
      if (!find_tenant(s_, name)) {
        add("/fleet/" + std::to_string(i) + "/tenants/" + std::to_string(k),
            "unknown tenant " + quoted_excerpt(name) + did_you_mean_suffix(name, names));
      }
    }
  }
  if (any_shared) return;
  for (std::size_t i = 0; i < s_.tenants.size(); ++i) {
    if (in_reserved_pool(s_, s_.tenants[i].name)) continue;
    add("/tenants/" + std::to_string(i),
        "tenant \"" + s_.tenants[i].name +
            "\" has no GPU to run on: every fleet entry is reserved for other "
            "tenants (\"tenants\"); add it to one, or give an entry without \"tenants\"");
  }
}

std::vector<const models::GpuSpec*> ScenarioChecker::gpus_for(std::size_t i) const {
  const bool pooled = in_reserved_pool(s_, s_.tenants[i].name);
  std::vector<const models::GpuSpec*> gpus;
  for (std::size_t e = 0; e < entry_gpus_.size(); ++e) {
    const auto& names = s_.fleet[e].tenants;
    const bool usable =
        pooled ? std::find(names.begin(), names.end(), s_.tenants[i].name) != names.end() : !reserved(s_.fleet[e]);
    if (usable && entry_gpus_[e] && std::find(gpus.begin(), gpus.end(), entry_gpus_[e]) == gpus.end()) {
      gpus.push_back(entry_gpus_[e]);
    }
  }
  return gpus;
}

const models::GpuSpec* ScenarioChecker::largest_gpu(std::size_t i) const {
  const models::GpuSpec* best = nullptr;
  for (const auto* gpu : gpus_for(i)) {
    if (!best || gpu->memory_gib > best->memory_gib) best = gpu;
  }
  return best;
}

void ScenarioChecker::tenant(std::size_t i) {
  const auto& t = s_.tenants[i];
  const auto& w = t.workload;
  const std::string pointer = "/tenants/" + std::to_string(i);
  if (w.kind == WorkloadKind::generic && !w.solo_latency_s) {
    add(pointer + "/workload", "missing required key \"solo_latency_s\" (required for generic workloads)");
  }
  if ((w.kind == WorkloadKind::llm) != w.llm.has_value()) {
    add(pointer + "/workload", w.llm ? "\"llm\" is only allowed when \"kind\" is \"llm\""
                                     : "missing required key \"llm\" (required when \"kind\" is \"llm\")");
  }
  if (w.kind == WorkloadKind::llm && w.llm && w.llm->legacy_params_b) {
    add(pointer + "/workload/llm",
        "written before LLM tenants named a model: give \"model\" (a catalog id) and "
        "an \"engine\" instead of params_b and the hand-typed figures to simulate it again "
        "(docs/scenario-format.md, LLM tenants)");
  } else if (w.kind == WorkloadKind::llm && w.llm && !w.engine) {
    add(pointer + "/workload",
        "missing \"engine\" (an LLM tenant's serving engine; a scenario file without one "
        "gets vLLM with its defaults)");
  }
  if (!w.reference_gpu.empty() && !c_.gpus->find(w.reference_gpu)) {
    add(pointer + "/workload/reference_gpu", unknown_gpu(w.reference_gpu, *c_.gpus));
  }
  memory_fit(i, pointer);
  if (const auto problem = gpu_frac_demand_problem(t); !problem.empty()) {
    add(pointer + "/load/gpu_frac_demand", problem);
  }
  if (t.load.kind == LoadKind::trace && !t.load.trace_file.empty()) trace_file(t.load, pointer + "/load");
  // The JSON reader checks both; a scenario built in memory (the GUI) is checked here.
  if (const auto limit = t.overload.queue_limit; limit && (*limit < 0 || *limit > 1000000)) {
    add(pointer + "/overload/queue_limit", *limit < 0 ? "must be >= 0 (got " + std::to_string(*limit) + ")"
                                                      : "must be <= 1000000 (got " + std::to_string(*limit) + ")");
  }
  if (t.overload.timeout_s)
    in_range(pointer + "/overload/timeout_s", *t.overload.timeout_s, NumberRange::non_negative());
}

/// Tenant `i` must fit the largest fleet GPU; one that does not is left out of the MIG checks.
void ScenarioChecker::memory_fit(std::size_t i, const std::string& pointer) {
  if (s_.tenants[i].workload.kind == WorkloadKind::llm) {
    llm_fit(i, pointer);
    return;
  }
  const double memory_gib = s_.tenants[i].workload.memory_gib;
  const auto* largest = largest_gpu(i);
  if (largest && memory_gib > largest->memory_gib) {
    too_big_.insert(i);
    const std::string where = gpus_for(i).size() == 1
                                  ? largest->id + " (" + gib(largest->memory_gib) + ")"
                                  : "any fleet GPU (largest: " + largest->id + ", " + gib(largest->memory_gib) + ")";
    add(pointer + "/workload/memory_gib", gib(memory_gib) + " does not fit on " + where);
  }
}

void ScenarioChecker::llm_fit(std::size_t i, const std::string& pointer) {
  const auto& w = s_.tenants[i].workload;
  if (!w.llm || !w.engine || !models::ModelCatalog::shipped().find(w.llm->model)) return;  // the reader said why
  const auto gpus = gpus_for(i);
  for (const auto* gpu : gpus) {
    if (w.engine->tensor_parallel > 1 && gpu->interconnect_gbps <= 0.0) {
      add(pointer + "/workload/engine/tensor_parallel",
          "a tensor-parallel group's all-reduces need the interconnect bandwidth of " + gpu->id +
              ", which the GPU catalog does not have");
    }
    if (!gpu->bf16_dense_tflops && !gpu->fp16_dense_tflops) {
      add(pointer + "/workload/llm", "an LLM tenant's steps need the dense FP16/BF16 TFLOPS of " + gpu->id +
                                         ", which the GPU catalog does not have");
    }
  }
  const auto* largest = largest_gpu(i);
  if (!largest) return;
  const auto engine = engine_on_device(w, largest->id, largest->memory_gib);
  if (engine.problem.empty()) return;
  too_big_.insert(i);
  const std::string where = gpus.size() == 1 ? largest->id : "the largest fleet GPU it may use, " + largest->id;
  std::string message = w.llm->model + " (" + w.llm->dtype + ") does not run on " + where + ": " + engine.problem;
  if (const auto tp = smallest_tensor_parallel(w, largest->id, largest->memory_gib)) {
    message += "; set engine.tensor_parallel to " + std::to_string(*tp) + ", the fewest GPUs that hold it";
  }
  add(pointer + "/workload/llm/model", message);
}

namespace {

/// "; fetch it with `scripts/fetch-traces openb`" when the missing file's folder holds a FETCH file
/// naming the command that downloads it (a trace slicewise may not redistribute); "" otherwise.
std::string fetch_hint(const std::filesystem::path& missing) {
  std::ifstream in(missing.parent_path() / "FETCH");
  std::string command;
  if (!in || !std::getline(in, command) || command.empty()) return "";
  return "; it is not shipped with slicewise (see examples/traces/NOTICE.md): fetch it with `" + command + "`";
}

}  // namespace

/// The trace file of a trace load (at `pointer`) must exist and be a file that carries arrivals.
void ScenarioChecker::trace_file(const LoadSpec& load, const std::string& pointer) {
  const auto path = resolve_relative_path(s_, load.trace_file);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    add(pointer + "/trace_file", "trace file not found: " + path.string() + fetch_hint(path));
  } else if (std::filesystem::is_directory(path, ec)) {
    add(pointer + "/trace_file", "trace file is a directory: " + path.string());
  } else {
    trace(load, pointer);
  }
}

/// Opens the trace to check its format, header, split column and first row (the other rows are
/// read by the run): a file with a header and no rows would replay no request and meet every SLA.
void ScenarioChecker::trace(const LoadSpec& load, const std::string& pointer) {
  try {
    const auto reader = open_load_trace(s_, load);
    if (!traces::carries_load(reader->format())) {
      add(pointer + "/trace_format",
          "a " + std::string(traces::to_string(reader->format())) +
              " file describes machines or per-instance averages, not arrivals; see \"slicewise trace inspect\"");
      return;
    }
    traces::TraceRow first;
    if (!reader->next(first) && reader->num_bad_rows() == 0) {
      add(pointer + "/trace_file", reader->path() + ": the trace has a header and no rows: nothing to replay");
    }
  } catch (const TraceError& e) {
    add(pointer + "/trace_file", e.what());
  }
}

}  // namespace slicewise::scenario::detail
