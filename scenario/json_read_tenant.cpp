// Reading one tenant: its workload (with the llm spec), its load (json_read_load.cpp), its SLA
// targets, and the checks that tie the workload to the load.
#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/model_catalog.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;

namespace {

/// What reading a workload learnt beyond its fields: whether its kind was valid (the checks against
/// the load apply only then) and which of the llm request lengths were given.
struct WorkloadFacts {
  bool kind_known = false;
  bool has_prompt_tokens = false;
  bool has_output_tokens = false;
};

/// The weights' dtype and the request lengths of generated load, in either form of the llm object.
void read_weights_and_lengths(JsonReader& l, LlmSpec& spec, WorkloadFacts& facts) {
  spec.dtype = l.optional_enum("dtype", std::string("bf16"), dtype_table());
  facts.has_prompt_tokens = l.has("prompt_tokens");
  facts.has_output_tokens = l.has("output_tokens");
  spec.prompt_tokens = l.optional_number("prompt_tokens", 0.0, NumberRange::non_negative());
  spec.output_tokens = l.optional_number("output_tokens", 0.0, NumberRange::non_negative());
}

LlmSpec read_llm(JsonReader& parent, const json& value, WorkloadFacts& facts) {
  JsonReader l(value, parent.pointer("llm"), parent.diagnostics(), parent.file());
  LlmSpec spec;
  if (l.has("params_b")) {
    l.error("params_b",
            "replaced by \"model\": name a model of the catalog (`slicewise models` lists them), "
            "whose shapes give the parameters");
  }
  spec.model = nonempty_string(l, "model", true);
  const auto& catalog = models::ModelCatalog::shipped();
  if (!spec.model.empty() && !catalog.find(spec.model)) {
    l.error("model", "unknown model " + quoted_excerpt(spec.model) + catalog.did_you_mean_suffix(spec.model) +
                         "; `slicewise models` lists the catalog");
  }
  read_weights_and_lengths(l, spec, facts);
  l.finish();
  return spec;
}

/// An optional integer setting >= `min`; absent: none.
std::optional<int> maybe_setting(JsonReader& r, std::string_view key, double min) {
  if (!r.has(key)) return std::nullopt;
  return read_count(r, key, 0, min);
}

EngineSpec read_engine(JsonReader& parent, const json& value) {
  JsonReader r(value, parent.pointer("engine"), parent.diagnostics(), parent.file());
  EngineSpec e;
  const std::size_t before = r.diagnostics().size();
  e.name = r.optional_enum("name", ServingEngine::vllm, serving_engine_table());
  const bool known = r.diagnostics().size() == before && r.valid();
  reject_foreign_keys(r, value, engine_keys(), e.name, known, serving_engine_table(), "engine");
  auto mine = [&](const char* key) { return known && uses(engine_keys(), key, e.name); };
  if (mine("max_num_seqs")) e.max_num_seqs = maybe_setting(r, "max_num_seqs", 1);
  if (mine("max_num_batched_tokens")) e.max_num_batched_tokens = maybe_setting(r, "max_num_batched_tokens", 16);
  if (mine("gpu_memory_utilization")) {
    e.gpu_memory_utilization = r.maybe_number("gpu_memory_utilization", NumberRange::positive_fraction());
  }
  if (mine("max_model_len")) e.max_model_len = maybe_setting(r, "max_model_len", 16);
  if (mine("max_batch_prefill_tokens")) e.max_batch_prefill_tokens = maybe_setting(r, "max_batch_prefill_tokens", 16);
  if (mine("max_total_tokens")) e.max_total_tokens = maybe_setting(r, "max_total_tokens", 2);
  if (mine("max_input_length")) e.max_input_length = maybe_setting(r, "max_input_length", 1);
  if (mine("cuda_memory_fraction")) {
    e.cuda_memory_fraction = r.maybe_number("cuda_memory_fraction", NumberRange::positive_fraction());
  }
  if (mine("max_concurrent_requests")) e.max_concurrent_requests = maybe_setting(r, "max_concurrent_requests", 1);
  e.kv_cache_dtype = r.optional_enum("kv_cache_dtype", std::string("auto"), kv_cache_dtype_table());
  if (r.has("prefix_caching")) e.prefix_caching = r.optional_bool("prefix_caching", false);
  e.tensor_parallel = read_count(r, "tensor_parallel", 1);
  if (e.tensor_parallel != 1 && e.tensor_parallel != 2 && e.tensor_parallel != 4 && e.tensor_parallel != 8) {
    r.error("tensor_parallel",
            "must be 1, 2, 4 or 8: GPUs of one node (got " + std::to_string(e.tensor_parallel) + ")");
  }
  if (e.max_input_length && e.max_total_tokens && *e.max_input_length >= *e.max_total_tokens) {
    r.error("max_input_length", "must be below max_total_tokens (" + std::to_string(*e.max_total_tokens) + ") (got " +
                                    std::to_string(*e.max_input_length) + ")");
  }
  r.finish();
  return e;
}

/// The generic workload keys an LLM tenant's model and engine decide instead, and what to set.
const std::vector<std::pair<const char*, const char*>>& derived_for_llm() {
  static const std::vector<std::pair<const char*, const char*>> keys = {
      {"solo_latency_s", "its latency follows from its model's steps on the device"},
      {"reference_gpu", "its engine runs on the device it is placed on"},
      {"gpu_duty_frac", "its demands follow from its model's steps"},
      {"sm_occupancy_frac", "its demands follow from its model's steps"},
      {"mem_bw_frac", "its demands follow from its model's steps"},
      {"kernel_ms", "its kernels follow from its model's steps"},
      {"memory_gib",
       "its memory follows from its engine: set engine.gpu_memory_utilization (vllm, sglang) or "
       "engine.cuda_memory_fraction (tgi)"},
      {"max_concurrency", "set engine.max_num_seqs (vllm, sglang) or engine.max_concurrent_requests (tgi)"},
  };
  return keys;
}

/// An LLM workload: the model, the engine, and no hand-typed figures.
void read_llm_workload(JsonReader& r, Workload& w, WorkloadFacts& facts) {
  for (const auto& [key, instead] : derived_for_llm()) {
    if (r.has(key)) r.error(key, std::string("not for an LLM tenant: ") + instead);
  }
  if (const json* llm = r.required_object("llm")) w.llm = read_llm(r, *llm, facts);
  const json* engine = r.optional_object("engine");
  w.engine = engine ? read_engine(r, *engine) : EngineSpec{};
  w.max_concurrency = 1;
}

/// True when `value` is an LLM workload in the form before the model catalog (llm.params_b).
bool legacy_llm_form(const json& value) {
  const auto llm = value.find("llm");
  return llm != value.end() && llm->is_object() && llm->contains("params_b") && !llm->contains("model");
}

/// The LLM spec of that form: its parameter count kept, no model.
LlmSpec read_legacy_llm(JsonReader& parent, const json& value, WorkloadFacts& facts) {
  JsonReader l(value, parent.pointer("llm"), parent.diagnostics(), parent.file());
  LlmSpec spec;
  spec.legacy_params_b = l.required_number("params_b", NumberRange::positive());
  read_weights_and_lengths(l, spec, facts);
  l.finish();
  return spec;
}

Workload read_workload(JsonReader& parent, const json& value, WorkloadFacts& facts, bool legacy_llm) {
  Diagnostics& out = parent.diagnostics();
  JsonReader r(value, parent.pointer("workload"), out, parent.file());
  Workload w;
  const std::size_t before = out.size();
  w.kind = r.optional_enum("kind", WorkloadKind::generic, workload_kind_table());
  facts.kind_known = out.size() == before && r.valid();
  reject_foreign_keys(r, value, workload_keys(), w.kind, facts.kind_known, workload_kind_table(), "workload kind");
  const bool legacy = legacy_llm && facts.kind_known && w.kind == WorkloadKind::llm && legacy_llm_form(value);
  if (facts.kind_known && w.kind == WorkloadKind::llm && !legacy) {
    read_llm_workload(r, w, facts);
  } else {
    w.solo_latency_s = facts.kind_known && !legacy ? r.required_number("solo_latency_s", NumberRange::positive())
                                                   : r.maybe_number("solo_latency_s", NumberRange::positive());
    w.reference_gpu = nonempty_string(r, "reference_gpu", false);
    w.gpu_duty_frac = r.optional_number("gpu_duty_frac", 1.0, NumberRange::positive_fraction());
    w.sm_occupancy_frac = r.optional_number("sm_occupancy_frac", 1.0, NumberRange::positive_fraction());
    w.mem_bw_frac = r.optional_number("mem_bw_frac", 0.0, NumberRange::fraction());
    w.kernel_ms = r.maybe_number("kernel_ms", NumberRange::positive());
    w.memory_gib = r.required_number("memory_gib", NumberRange::positive());
    w.max_concurrency = read_count(r, "max_concurrency", 1);
    if (uses(workload_keys(), "service_dist", w.kind)) {
      w.service_dist = r.optional_enum("service_dist", ServiceDistribution::fixed, service_distribution_table());
    }
    if (legacy) {
      if (const json* llm = r.required_object("llm")) w.llm = read_legacy_llm(r, *llm, facts);
    }
  }
  w.source = r.optional_string("source", "");  // free text: `profile import` writes it, "" = given by hand
  r.finish();
  return w;
}

/// Generated loads (poisson, closed_loop, ...) take request lengths from the llm spec, so both
/// must be given and > 0; only trace loads carry their own. Reported at `pointer` (the llm spec).
void check_llm_tokens(JsonReader& r, const Tenant& t, const std::string& pointer, const WorkloadFacts& facts) {
  if (!t.workload.llm || t.load.kind == LoadKind::trace) return;
  const std::string load_name = name_of(load_kind_table(), t.load.kind);
  struct TokenKey {
    const char* key;
    double value;
    bool given;
  };
  const TokenKey tokens[2] = {{"prompt_tokens", t.workload.llm->prompt_tokens, facts.has_prompt_tokens},
                              {"output_tokens", t.workload.llm->output_tokens, facts.has_output_tokens}};
  for (const auto& token : tokens) {
    if (!token.given) {
      r.diagnostics().push_back({r.file(), 0, 0, pointer,
                                 std::string("missing required key \"") + token.key + "\" (a " + load_name +
                                     " load generates requests of this length; only trace loads carry their own)"});
    } else if (token.value == 0.0) {
      r.diagnostics().push_back(
          {r.file(), 0, 0, pointer + "/" + token.key, "must be > 0 for a " + load_name + " load (got 0)"});
    }
  }
}

/// The tenant's load, then the checks that need both the workload and the load.
void read_tenant_load(JsonReader& r, Tenant& t, const WorkloadFacts& facts) {
  const json* value = r.required_object("load");
  if (!value) return;
  bool load_known = false;
  t.load = read_load(*value, r.pointer("load"), r.diagnostics(), r.file(), load_known);
  if (load_known) check_llm_tokens(r, t, r.pointer("workload") + "/llm", facts);
  if (const auto problem = gpu_frac_demand_problem(t); load_known && facts.kind_known && !problem.empty()) {
    r.diagnostics().push_back({r.file(), 0, 0, r.pointer("load") + "/gpu_frac_demand", problem});
  }
}

SlaTargets read_sla(JsonReader& parent, const json& value, WorkloadKind kind, bool kind_known) {
  JsonReader r(value, parent.pointer("sla"), parent.diagnostics(), parent.file());
  SlaTargets s;
  reject_foreign_keys(r, value, sla_keys(), kind, kind_known, workload_kind_table(), "workload kind");
  s.latency_s = r.maybe_number("latency_s", NumberRange::positive());
  if (kind == WorkloadKind::llm) {
    s.ttft_s = r.maybe_number("ttft_s", NumberRange::positive());
    s.tpot_s = r.maybe_number("tpot_s", NumberRange::positive());
  }
  s.environment = r.optional_enum("environment", Environment::internal, environment_table());
  s.max_violation_frac = r.maybe_number("max_violation_frac", NumberRange::fraction());
  r.finish();
  return s;
}

OverloadSpec read_overload(JsonReader& parent, const json& value) {
  JsonReader r(value, parent.pointer("overload"), parent.diagnostics(), parent.file());
  OverloadSpec o;
  if (r.has("queue_limit")) o.queue_limit = read_count(r, "queue_limit", 0, 0);
  o.timeout_s = r.maybe_number("timeout_s", NumberRange::non_negative());
  r.finish();
  return o;
}

}  // namespace

Tenant read_tenant(const json& value, const std::string& pointer, Diagnostics& out, const std::string& file,
                   bool legacy_llm) {
  JsonReader r(value, pointer, out, file);
  Tenant t;
  t.name = read_name(r, "name", true);
  WorkloadFacts facts;
  if (const json* w = r.required_object("workload")) t.workload = read_workload(r, *w, facts, legacy_llm);
  read_tenant_load(r, t, facts);
  if (const json* s = r.optional_object("sla")) t.sla = read_sla(r, *s, t.workload.kind, facts.kind_known);
  t.isolation = r.optional_enum("isolation", models::IsolationLevel::none, models::isolation_level_table());
  t.num_contexts = read_count(r, "num_contexts", 1);
  t.router = r.optional_enum("router", RouterPolicy::round_robin, router_policy_table());
  t.priority = r.optional_enum("priority", Priority::normal, priority_table());
  if (r.has("revenue_bearing")) t.revenue_bearing = r.optional_bool("revenue_bearing", true);
  if (const json* o = r.optional_object("overload")) t.overload = read_overload(r, *o);
  r.finish();
  return t;
}

}  // namespace slicewise::scenario::detail
