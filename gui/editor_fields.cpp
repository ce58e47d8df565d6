// The fields of the editor's forms (see editor_fields.hpp).
#include "gui/editor_fields.hpp"

#include <QObject>

#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"

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

std::vector<FieldSpec> tenant_fields() {
  const auto llm_only = [](FieldSpec field) { return field.when("/workload/kind", {"llm"}, "generic"); };
  return {
      FieldSpec(QObject::tr("Reference GPU"), "/workload/reference_gpu", FieldType::choice)
          .with_choices(gpu_choices())
          .with_placeholder(QObject::tr("the fleet's GPU")),
      FieldSpec(QObject::tr("GPU duty"), "/workload/gpu_duty_frac", FieldType::number).with_placeholder("1"),
      FieldSpec(QObject::tr("SM occupancy"), "/workload/sm_occupancy_frac", FieldType::number).with_placeholder("1"),
      FieldSpec(QObject::tr("Memory bandwidth"), "/workload/mem_bw_frac", FieldType::number).with_placeholder("0"),
      FieldSpec(QObject::tr("Service times"), "/workload/service_dist", FieldType::choice)
          .with_choices(choice_names(scenario::service_distribution_table()))
          .with_placeholder("fixed")
          .when("/workload/kind", {"generic"}, "generic"),
      llm_only(FieldSpec(QObject::tr("LLM parameters (B)"), "/workload/llm/params_b", FieldType::number)),
      llm_only(FieldSpec(QObject::tr("LLM dtype"), "/workload/llm/dtype", FieldType::choice)
                   .with_choices(choice_names(scenario::dtype_table()))
                   .with_placeholder("bf16")),
      llm_only(FieldSpec(QObject::tr("Prompt tokens"), "/workload/llm/prompt_tokens", FieldType::number)),
      llm_only(FieldSpec(QObject::tr("Output tokens"), "/workload/llm/output_tokens", FieldType::number)),
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
}

std::vector<FieldSpec> strategy_fields() {
  return {
      strategy_field(QObject::tr("Placement"), "placement", FieldType::choice)
          .with_choices(choice_names(scenario::placement_policy_table()))
          .with_placeholder("pack"),
      strategy_field(QObject::tr("Replicas per GPU"), "replicas", FieldType::integer)
          .with_placeholder(QObject::tr("no limit")),
      strategy_field(QObject::tr("Quantum (ms)"), "quantum_ms", FieldType::number)
          .with_placeholder(QObject::tr("calibrated")),
      strategy_field(QObject::tr("Switch cost (ms)"), "switch_cost_ms", FieldType::number)
          .with_placeholder(QObject::tr("calibrated")),
      strategy_field(QObject::tr("Exact quanta"), "exact", FieldType::boolean).with_placeholder("false"),
      strategy_field(QObject::tr("Active threads (%)"), "active_thread_pct", FieldType::number),
      strategy_field(QObject::tr("Pinned memory limit (GiB)"), "pinned_memory_limit_gib", FieldType::number),
      strategy_field(QObject::tr("Low-priority threads (%)"), "low_priority_thread_pct", FieldType::number),
      strategy_field(QObject::tr("GPU cores (%)"), "gpucores_pct", FieldType::number),
      strategy_field(QObject::tr("GPU memory (GiB)"), "gpumem_gib", FieldType::number),
      strategy_field(QObject::tr("vGPU scheduler"), "vgpu_scheduler", FieldType::choice)
          .with_choices(choice_names(scenario::vgpu_scheduler_table()))
          .with_placeholder("best_effort"),
      strategy_field(QObject::tr("vGPU time slice (ms)"), "timeslice_ms", FieldType::number),
      strategy_field(QObject::tr("Sidecars"), "sidecars", FieldType::json)
          .with_tooltip(QObject::tr(
              "JSON: [{\"instance_type\": \"t3.large\", \"count\": 2}]: CPU instances the strategy pays for")),
  };
}

}  // namespace slicewise::gui
