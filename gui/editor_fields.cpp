// The fields of the editor's forms (see editor_fields.hpp).
#include "gui/editor_fields.hpp"

#include <QObject>

#include "gui/param_fields.hpp"
#include "models/fault_rates.hpp"
#include "models/model_catalog.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::gui {

namespace {

using scenario::load_keys;
using scenario::load_kind_table;

/// A load field, shown for the load kinds that use it.
FieldSpec load_field(const QString& label, const char* key, FieldType type) {
  return FieldSpec(label, std::string("/load/") + key, type)
      .when("/load/kind", kinds_using_key(load_keys(), key, load_kind_table()), "poisson");
}

/// A strategy field, shown for the strategy kinds that use it.
FieldSpec strategy_field(const QString& label, const char* key, FieldType type) {
  return FieldSpec(label, std::string("/") + key, type)
      .when("/kind", kinds_using_key(scenario::strategy_keys(), key, models::strategy_kind_table()), "dedicated");
}

}  // namespace

std::vector<FieldSpec> scenario_fields() {
  QStringList tables;
  for (const auto& table : pricing::shipped_price_tables()) tables << QString::fromStdString(table.name);
  return {
      FieldSpec(QObject::tr("Name"), "/name"),
      FieldSpec(QObject::tr("Description"), "/description"),
      FieldSpec(QObject::tr("Seed"), "/seed", FieldType::integer).with_placeholder("1"),
      FieldSpec(QObject::tr("Horizon (s)"), "/horizon_s", FieldType::number)
          .with_tooltip(QObject::tr("Simulated time; arrivals stop here")),
      FieldSpec(QObject::tr("Warm-up (s)"), "/warmup_s", FieldType::number)
          .with_placeholder("0")
          .with_tooltip(QObject::tr("Requests arriving before this are not measured")),
      FieldSpec(QObject::tr("Metrics interval (s)"), "/metrics_interval_s", FieldType::number),
      FieldSpec(QObject::tr("Price table"), "/pricing/table", FieldType::choice)
          .with_choices(tables)
          .with_placeholder("aws"),
      FieldSpec(QObject::tr("Region"), "/pricing/region")
          .with_placeholder(QObject::tr("the table's first region listing the instance")),
      FieldSpec(QObject::tr("Pricing option"), "/pricing/option", FieldType::choice)
          .with_choices(choice_names(pricing::purchase_option_table()))
          .with_placeholder("on_demand"),
      FieldSpec(QObject::tr("Monthly revenue (USD)"), "/pricing/monthly_revenue_usd", FieldType::number)
          .with_placeholder("0")
          .with_tooltip(QObject::tr("Revenue exposed to latency, for the business view; 0 = not evaluated")),
  };
}

namespace {

FieldSpec llm_only(FieldSpec field) { return field.when("/workload/kind", {"llm"}, "generic"); }
FieldSpec generic_only(FieldSpec field) { return field.when("/workload/kind", {"generic"}, "generic"); }

/// An engine setting, shown for the engines that read it.
FieldSpec engine_field(const QString& label, const char* key, FieldType type) {
  return llm_only(FieldSpec(label, std::string("/workload/engine/") + key, type)
                      .when("/workload/engine/name",
                            kinds_using_key(scenario::engine_keys(), key, scenario::serving_engine_table()), "vllm"));
}

/// What one request asks of a GPU: a generic workload's figures, or an LLM's model and engine.
std::vector<FieldSpec> workload_fields() {
  QStringList models;
  for (const auto& id : models::ModelCatalog::shipped().ids()) models << QString::fromStdString(id);
  return {
      generic_only(FieldSpec(QObject::tr("Reference GPU"), "/workload/reference_gpu", FieldType::choice)
                       .with_choices(gpu_choices())
                       .with_placeholder(QObject::tr("the fleet's GPU"))),
      generic_only(
          FieldSpec(QObject::tr("GPU duty"), "/workload/gpu_duty_frac", FieldType::number).with_placeholder("1")),
      generic_only(FieldSpec(QObject::tr("SM occupancy"), "/workload/sm_occupancy_frac", FieldType::number)
                       .with_placeholder("1")),
      generic_only(
          FieldSpec(QObject::tr("Memory bandwidth"), "/workload/mem_bw_frac", FieldType::number).with_placeholder("0")),
      generic_only(FieldSpec(QObject::tr("Service times"), "/workload/service_dist", FieldType::choice)
                       .with_choices(choice_names(scenario::service_distribution_table()))
                       .with_placeholder("fixed")),
      llm_only(FieldSpec(QObject::tr("Model"), "/workload/llm/model", FieldType::choice)
                   .with_choices(models)
                   .with_tooltip(QObject::tr("A model of the catalog: its shapes give each step's cost"))),
      llm_only(FieldSpec(QObject::tr("Weights dtype"), "/workload/llm/dtype", FieldType::choice)
                   .with_choices(choice_names(scenario::dtype_table()))
                   .with_placeholder("bf16")),
      llm_only(FieldSpec(QObject::tr("Prompt tokens"), "/workload/llm/prompt_tokens", FieldType::number)),
      llm_only(FieldSpec(QObject::tr("Output tokens"), "/workload/llm/output_tokens", FieldType::number)),
      llm_only(FieldSpec(QObject::tr("Engine"), "/workload/engine/name", FieldType::choice)
                   .with_choices(choice_names(scenario::serving_engine_table()))
                   .with_placeholder("vllm")),
      engine_field(QObject::tr("GPU memory utilization"), "gpu_memory_utilization", FieldType::number)
          .with_placeholder(QObject::tr("engine default")),
      engine_field(QObject::tr("Max sequences"), "max_num_seqs", FieldType::integer)
          .with_placeholder(QObject::tr("engine default")),
      engine_field(QObject::tr("Max batched tokens"), "max_num_batched_tokens", FieldType::integer)
          .with_placeholder(QObject::tr("engine default")),
      engine_field(QObject::tr("Max model length"), "max_model_len", FieldType::integer)
          .with_placeholder(QObject::tr("the model's")),
      engine_field(QObject::tr("CUDA memory fraction"), "cuda_memory_fraction", FieldType::number)
          .with_placeholder("1"),
      engine_field(QObject::tr("Max total tokens"), "max_total_tokens", FieldType::integer).with_placeholder("2048"),
  };
}

}  // namespace

std::vector<FieldSpec> tenant_fields() {
  std::vector<FieldSpec> fields = workload_fields();
  const std::vector<FieldSpec> rest = {
      FieldSpec(QObject::tr("Load"), "/load/kind", FieldType::choice)
          .with_choices(choice_names(load_kind_table()))
          .with_placeholder("poisson"),
      load_field(QObject::tr("Rate (/s)"), "rate_per_s", FieldType::number),
      load_field(QObject::tr("Users"), "num_users", FieldType::integer),
      load_field(QObject::tr("Think time (s)"), "think_time_s", FieldType::number),
      load_field(QObject::tr("Trace file"), "trace_file", FieldType::text),
      load_field(QObject::tr("Trace format"), "trace_format", FieldType::choice)
          .with_choices(choice_names(scenario::trace_format_table()))
          .with_placeholder(QObject::tr("detect")),
      load_field(QObject::tr("Split column"), "split_column", FieldType::text),
      load_field(QObject::tr("Split values"), "split_values", FieldType::words)
          .with_tooltip(QObject::tr("The values of the split column this tenant takes, comma-separated")),
      load_field(QObject::tr("Window start (s)"), "window_start_s", FieldType::number).with_placeholder("0"),
      load_field(QObject::tr("Window end (s)"), "window_end_s", FieldType::number),
      load_field(QObject::tr("Time compression"), "time_compression", FieldType::number).with_placeholder("1"),
      load_field(QObject::tr("Sample fraction"), "sample_frac", FieldType::number).with_placeholder("1"),
      load_field(QObject::tr("Spread equal times"), "spread_ties", FieldType::boolean).with_placeholder("false"),
      load_field(QObject::tr("Demand from GPU share"), "gpu_frac_demand", FieldType::boolean).with_placeholder("false"),
      load_field(QObject::tr("On a bad row"), "on_bad_row", FieldType::choice)
          .with_choices(choice_names(scenario::bad_row_policy_table()))
          .with_placeholder("fail"),
      load_field(QObject::tr("Hourly profile"), "hourly_profile", FieldType::list),
      load_field(QObject::tr("Start hour"), "start_hour", FieldType::number).with_placeholder("0"),
      load_field(QObject::tr("MMPP states"), "states", FieldType::json)
          .with_tooltip(QObject::tr("JSON: [{\"rate_per_s\": 1, \"mean_duration_s\": 60}, ...], at least two")),
      FieldSpec(QObject::tr("Load multiplier"), "/load/multiplier", FieldType::number).with_placeholder("1"),
      llm_only(FieldSpec(QObject::tr("SLA TTFT (s)"), "/sla/ttft_s", FieldType::number)),
      llm_only(FieldSpec(QObject::tr("SLA TPOT (s)"), "/sla/tpot_s", FieldType::number)),
      FieldSpec(QObject::tr("Environment"), "/sla/environment", FieldType::choice)
          .with_choices(choice_names(scenario::environment_table()))
          .with_placeholder("internal"),
      FieldSpec(QObject::tr("Allowed violations"), "/sla/max_violation_frac", FieldType::number)
          .with_placeholder(QObject::tr("from the environment")),
      FieldSpec(QObject::tr("Contexts"), "/num_contexts", FieldType::integer).with_placeholder("1"),
      FieldSpec(QObject::tr("Router"), "/router", FieldType::choice)
          .with_choices(choice_names(scenario::router_policy_table()))
          .with_placeholder("round_robin"),
      FieldSpec(QObject::tr("Priority"), "/priority", FieldType::choice)
          .with_choices(choice_names(scenario::priority_table()))
          .with_placeholder("normal")
          .with_tooltip(QObject::tr("high preempts at the next quantum under time slicing; low runs under MPS's "
                                    "low-priority thread cap")),
  };
  fields.insert(fields.end(), rest.begin(), rest.end());
  return fields;
}

std::vector<FieldSpec> strategy_fields() {
  std::vector<FieldSpec> fields = {strategy_field(QObject::tr("Placement"), "placement", FieldType::choice)
                                       .with_choices(choice_names(scenario::placement_policy_table()))
                                       .with_placeholder("pack")};
  // The keys of the kinds, as strategy_params.cpp declares them; the MIG layouts have their own editor.
  for (const auto& param : scenario::strategy_params()) {
    const auto kinds = scenario::kinds_reading_strategy_key(param.key);
    if (auto field = param_field(param, kinds)) fields.push_back(field->when("/kind", kind_names(kinds), "dedicated"));
  }
  fields.push_back(strategy_field(QObject::tr("Sidecars"), "sidecars", FieldType::json)
                       .with_tooltip(QObject::tr("JSON: [{\"instance_type\": \"t3.large\", \"count\": 2}]: CPU "
                                                 "instances the strategy pays for")));
  return fields;
}

std::vector<FieldSpec> fault_fields() {
  const QString per_gpu_hour = QObject::tr(
      "per GPU-hour in use; 0 = none (no public per-GPU figure: your own, "
      "from Xid logs)");
  return {
      FieldSpec(QObject::tr("GPU failures (/GPU-h)"), "/gpu_failure_per_gpu_hour", FieldType::number)
          .with_placeholder(QString::number(models::kGpuFailurePerGpuHour, 'g', 3) + QObject::tr(" (Llama 3)"))
          .with_tooltip(QObject::tr("GPU failures per GPU-hour in use: everything on the GPU stops until it is "
                                    "repaired. Default: ") +
                        QString::fromUtf8(models::kGpuFailureSource)),
      FieldSpec(QObject::tr("Driver resets (/GPU-h)"), "/driver_reset_per_gpu_hour", FieldType::number)
          .with_placeholder("0")
          .with_tooltip(QObject::tr("GPU resets (uncontained errors), ") + per_gpu_hour),
      FieldSpec(QObject::tr("Tenant crashes (/context-h)"), "/tenant_crash_per_context_hour", FieldType::number)
          .with_placeholder("0")
          .with_tooltip(QObject::tr("One context's fatal error (illegal address, out of memory), per context-hour")),
      FieldSpec(QObject::tr("MPS server faults (/GPU-h)"), "/mps_server_fault_per_gpu_hour", FieldType::number)
          .with_placeholder("0")
          .with_tooltip(QObject::tr("The MPS server dies with every client on the GPU (MPS strategies only), ") +
                        per_gpu_hour),
      FieldSpec(QObject::tr("GPU repair (s)"), "/gpu_repair_s", FieldType::number)
          .with_placeholder("3600")
          .with_tooltip(QObject::tr("A failed GPU is back (repaired, or its work moved) after this")),
      FieldSpec(QObject::tr("Driver reset (s)"), "/driver_reset_s", FieldType::number)
          .with_placeholder("60")
          .with_tooltip(QObject::tr("A reset GPU is back after this; its contexts then restart")),
      FieldSpec(QObject::tr("Context restart (s)"), "/context_restart_s", FieldType::number)
          .with_placeholder("30")
          .with_tooltip(QObject::tr("A context that died serves again after this (process and model load)")),
      FieldSpec(QObject::tr("Co-tenant kill fraction"), "/co_tenant_kill_frac", FieldType::number)
          .with_placeholder("1")
          .with_tooltip(QObject::tr("Time-sliced sharing: the chance that a co-tenant's context dies with the one "
                                    "that crashed; 1 = no fault isolation")),
      FieldSpec(QObject::tr("Max retries"), "/max_retries", FieldType::integer)
          .with_placeholder("1")
          .with_tooltip(QObject::tr("A request lost to a fault is re-sent up to this many times; 0 = it fails")),
      FieldSpec(QObject::tr("Random faults"), "/random", FieldType::boolean)
          .with_placeholder("true")
          .with_tooltip(QObject::tr("Draw faults from the rates during the run; false = the schedule only")),
      FieldSpec(QObject::tr("Schedule"), "/schedule", FieldType::json)
          .with_tooltip(QObject::tr("JSON: [{\"at_s\": 600, \"kind\": \"gpu_failure\", \"gpu\": 0}, {\"at_s\": 900, "
                                    "\"kind\": \"tenant_crash\", \"tenant\": \"a\", \"replica\": 0}]: faults at given "
                                    "times")),
  };
}

}  // namespace slicewise::gui
