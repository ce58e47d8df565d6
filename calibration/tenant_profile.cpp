// The telemetry estimators (docs/telemetry.md "Estimators") and their JSON.
#include "calibration/tenant_profile.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "traces/telemetry_data.hpp"

namespace slicewise::calibration {

namespace {

using Weighted = std::vector<std::pair<double, double>>;

/// The smallest value of `sorted` whose cumulative weight reaches q * total.
double weighted_quantile(const Weighted& sorted, double total, double q) {
  const double target = q * total;
  double cumulative = 0.0;
  for (const auto& [value, weight] : sorted) {
    cumulative += weight;
    if (cumulative >= target) return value;
  }
  return sorted.back().first;
}

/// Each field's name in the file's own vocabulary, and how to get one the file lacks.
struct Vocabulary {
  const char* gr;
  const char* sm;    ///< nullptr: the format has no such field
  const char* dram;  ///< nullptr: the format has no such field
  const char* fb;
  const char* add_field;  ///< "; ..." telling how to collect a field the file lacks
};

Vocabulary vocabulary_of(traces::TelemetryFormat format) {
  switch (format) {
    case traces::TelemetryFormat::dcgm_prometheus:
      return {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE",
              "DCGM_FI_DEV_FB_USED",
              "; dcgm-exporter exports it when its line in the counters CSV is not commented out"};
    case traces::TelemetryFormat::dcgmi_dmon:
      return {"GRACT", "SMACT", "DRAMA", "FBUSD", "; dcgmi dmon -e 1001,1002,1003,1005,252 gives every field"};
    case traces::TelemetryFormat::pai_sensor: return {"gpu_wrk_util", nullptr, nullptr, "max_gpu_wrk_mem", ""};
  }
  return {"", nullptr, nullptr, "", ""};
}

/// A workload's samples sorted into the estimators' inputs.
struct Columns {
  Weighted duty;       ///< GR_ENGINE_ACTIVE of busy samples, weight 1
  Weighted sm;         ///< SM_ACTIVE / GR_ENGINE_ACTIVE, weight GR_ENGINE_ACTIVE
  Weighted bandwidth;  ///< DRAM_ACTIVE / GR_ENGINE_ACTIVE, weight GR_ENGINE_ACTIVE
  Weighted memory;     ///< GiB of every sample, weight 1
  Weighted warp;       ///< SM_OCCUPANCY / SM_ACTIVE, weight SM_ACTIVE
  std::int64_t num_with_gr = 0;
};

/// Adds one busy sample's ratios (gr > 0) to `c`.
void add_busy(const traces::TelemetrySample& s, double gr, Columns& c) {
  c.duty.emplace_back(gr, 1.0);
  // Activity over the whole sampling period divided by the time the engine was busy: what the
  // workload uses while it runs. Above 1 only by measurement noise.
  if (s.sm_active) c.sm.emplace_back(std::min(1.0, *s.sm_active / gr), gr);
  if (s.dram_active) c.bandwidth.emplace_back(std::min(1.0, *s.dram_active / gr), gr);
  if (s.sm_active && s.sm_occupancy && *s.sm_active > 0.0) {
    c.warp.emplace_back(std::min(1.0, *s.sm_occupancy / *s.sm_active), *s.sm_active);
  }
}

Columns columns_of(const traces::WorkloadSamples& w, double busy_above) {
  Columns c;
  for (const auto& s : w.samples) {
    if (s.memory_gib) c.memory.emplace_back(*s.memory_gib, 1.0);
    if (!s.gr_engine_active) continue;
    ++c.num_with_gr;
    if (*s.gr_engine_active > busy_above) add_busy(s, *s.gr_engine_active, c);
  }
  return c;
}

double round_frac(double x) { return std::round(x * 1e4) / 1e4; }
/// A fraction the scenario wants > 0: rounded, and at least 0.0001.
double positive_frac(double x) { return std::max(1e-4, round_frac(x)); }
/// Memory rounded up to the next MiB-ish step (0.001 GiB), so that it is never understated.
double memory_up(double gib) { return std::ceil(gib * 1000.0 - 1e-6) / 1000.0; }

void estimate_sm_and_bandwidth(const Columns& c, const Vocabulary& v, TenantEstimate& t) {
  t.sm = weighted_spread(c.sm);
  t.bandwidth = weighted_spread(c.bandwidth);
  t.warp_occupancy = weighted_spread(c.warp);
  if (t.sm) {
    t.sm_occupancy_frac = positive_frac(t.sm->mean);
  } else {
    t.notes.push_back(v.sm == nullptr
                          ? "sm_occupancy_frac left out (the scenario's default is 1): the format records no "
                            "SM activity"
                          : std::string("sm_occupancy_frac left out (the scenario's default is 1): no ") + v.sm +
                                " value in a busy sample" + v.add_field);
  }
  if (t.bandwidth) {
    t.mem_bw_frac = round_frac(t.bandwidth->mean);
  } else {
    t.notes.push_back(v.dram == nullptr ? "mem_bw_frac left out (the scenario's default is 0): the format records no "
                                          "memory bandwidth activity"
                                        : std::string("mem_bw_frac left out (the scenario's default is 0): no ") +
                                              v.dram + " value in a busy sample" + v.add_field);
  }
}

void estimate_memory(const Columns& c, const Vocabulary& v, TenantEstimate& t) {
  t.memory = weighted_spread(c.memory);
  if (!t.memory) {
    t.notes.push_back(std::string("memory_gib left out (a scenario requires it: set it by hand): no ") + v.fb +
                      " value" + v.add_field);
  } else if (t.memory->max <= 0.0) {
    t.notes.push_back(std::string("memory_gib left out (a scenario requires it: set it by hand): ") + v.fb +
                      " is 0 in every sample");
  } else {
    t.memory_gib = memory_up(t.memory->max);
  }
}

/// "A, B" of a set's items, each as a message may quote it.
std::string listed(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  quoted.reserve(items.size());
  for (const auto& item : items) quoted.push_back(quoted_excerpt(item));
  return join(quoted, ", ");
}

void set_reference_gpu(const EstimateOptions& options, const models::GpuCatalog& gpus, TenantEstimate& t) {
  if (!t.mig_profiles.empty()) {
    const std::string profile = t.mig_profiles.front().empty() ? "" : " (" + listed(t.mig_profiles) + ")";
    t.notes.push_back("measured on a MIG instance" + profile +
                      ": its fractions are of the instance, not of the whole GPU" +
                      (options.reference_gpu.empty() ? "; reference_gpu left out" : ""));
  }
  if (!options.reference_gpu.empty()) {
    t.reference_gpu = options.reference_gpu;
    return;
  }
  if (!t.mig_profiles.empty()) return;
  if (t.gpu_models.empty()) {
    t.notes.emplace_back("the file names no GPU model: reference_gpu left out (--reference-gpu sets one)");
  } else if (t.gpu_models.size() > 1) {
    t.notes.push_back("samples from several GPU models (" + listed(t.gpu_models) + "): reference_gpu left out");
  } else {
    t.reference_gpu = catalog_gpu_of(t.gpu_models.front(), gpus);
    if (t.reference_gpu.empty()) {
      t.notes.push_back("GPU model " + quoted_excerpt(t.gpu_models.front()) +
                        " is not in the GPU catalog: reference_gpu left out (`slicewise gpus` lists the ids; "
                        "--reference-gpu sets one)");
    }
  }
}

/// "1 sample", "4 samples".
std::string samples_text(std::int64_t n) { return std::to_string(n) + (n == 1 ? " sample" : " samples"); }

/// Why a workload gives no tenant; "" when it gives one.
std::string skip_reason(const Columns& c, std::size_t num_samples, const Vocabulary& v, double busy_above) {
  if (c.num_with_gr == 0) {
    return std::string("no ") + v.gr + " value in its " + samples_text(static_cast<std::int64_t>(num_samples));
  }
  if (c.duty.empty()) {
    return std::string("never busy: ") + v.gr + " <= " + format_number(busy_above) +
           " in every sample that gives it (" + samples_text(c.num_with_gr) + ")";
  }
  return "";
}

}  // namespace

std::optional<Spread> weighted_spread(Weighted values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  double total = 0.0;
  double sum = 0.0;
  for (const auto& [value, weight] : values) {
    total += weight;
    sum += weight * value;
  }
  Spread s;
  s.num_samples = static_cast<std::int64_t>(values.size());
  s.mean = sum / total;
  double squares = 0.0;
  for (const auto& [value, weight] : values) squares += weight * (value - s.mean) * (value - s.mean);
  s.std_dev = std::sqrt(squares / total);
  s.min = values.front().first;
  s.max = values.back().first;
  s.p5 = weighted_quantile(values, total, 0.05);
  s.p50 = weighted_quantile(values, total, 0.5);
  s.p95 = weighted_quantile(values, total, 0.95);
  return s;
}

std::string catalog_gpu_of(std::string_view model_name, const models::GpuCatalog& gpus) {
  std::string_view name = model_name;
  while (true) {
    if (const auto* spec = gpus.find(name)) return spec->id;
    for (const auto& spec : gpus.gpus()) {
      if (spec.name == name) return spec.id;
    }
    if (name.starts_with("NVIDIA ")) {
      name.remove_prefix(7);
    } else if (name.starts_with("Tesla ")) {
      name.remove_prefix(6);
    } else {
      return "";
    }
  }
}

TenantProfiles estimate_tenants(const traces::TelemetryData& data, const EstimateOptions& options,
                                const models::GpuCatalog& gpus) {
  TenantProfiles out;
  out.busy_above = options.busy_above;
  const Vocabulary v = vocabulary_of(data.format);
  for (const auto& w : data.workloads) {
    const Columns c = columns_of(w, options.busy_above);
    if (auto reason = skip_reason(c, w.samples.size(), v, options.busy_above); !reason.empty()) {
      out.skipped.push_back({w.name, static_cast<std::int64_t>(w.samples.size()), std::move(reason)});
      continue;
    }
    TenantEstimate t;
    t.name = w.name;
    t.num_samples = static_cast<std::int64_t>(w.samples.size());
    t.num_busy = static_cast<std::int64_t>(c.duty.size());
    t.gpu_models.assign(w.gpu_models.begin(), w.gpu_models.end());
    t.mig_profiles.assign(w.mig_profiles.begin(), w.mig_profiles.end());
    t.duty = weighted_spread(c.duty);
    t.gpu_duty_frac = positive_frac(t.duty->mean);
    estimate_sm_and_bandwidth(c, v, t);
    estimate_memory(c, v, t);
    set_reference_gpu(options, gpus, t);
    out.tenants.push_back(std::move(t));
  }
  return out;
}

namespace {

using Json = nlohmann::ordered_json;

/// `value` with 3 decimals ("0.700"), whatever the locale (a GUI's may write "0,700"); never "-0.000".
std::string fixed3(double value) {
  const double rounded = std::round(value * 1000.0) / 1000.0;
  char text[64];
  const auto result =
      std::to_chars(text, text + sizeof text, rounded == 0.0 ? 0.0 : rounded, std::chars_format::fixed, 3);
  return std::string(text, result.ptr);
}

/// "gpu_duty_frac 0.700 ± 0.100": a figure as written, ± its spread's standard deviation.
void add_figure(std::vector<std::string>& parts, const char* name, const std::optional<double>& value,
                const std::optional<Spread>& spread) {
  if (value && spread) parts.push_back(std::string(name) + " " + fixed3(*value) + " ± " + fixed3(spread->std_dev));
}

/// A spread as JSON, values rounded to `decimals`.
Json spread_json(const Spread& s, int decimals) {
  const double scale = std::pow(10.0, decimals);
  auto r = [scale](double x) { return std::round(x * scale) / scale; };
  Json out;
  out["samples"] = s.num_samples;
  out["mean"] = r(s.mean);
  out["std"] = r(s.std_dev);
  out["min"] = r(s.min);
  out["p5"] = r(s.p5);
  out["p50"] = r(s.p50);
  out["p95"] = r(s.p95);
  out["max"] = r(s.max);
  return out;
}

Json workload_json(const traces::TelemetryData& data, const TenantEstimate& t) {
  Json w = Json::object();
  if (!t.reference_gpu.empty()) w["reference_gpu"] = t.reference_gpu;
  if (t.gpu_duty_frac) w["gpu_duty_frac"] = *t.gpu_duty_frac;
  if (t.sm_occupancy_frac) w["sm_occupancy_frac"] = *t.sm_occupancy_frac;
  if (t.mem_bw_frac) w["mem_bw_frac"] = *t.mem_bw_frac;
  if (t.memory_gib) w["memory_gib"] = *t.memory_gib;
  w["source"] = workload_source(data, t);
  return w;
}

Json tenant_json(const traces::TelemetryData& data, const TenantEstimate& t) {
  Json out;
  out["name"] = t.name;
  out["workload"] = workload_json(data, t);
  Json spread = Json::object();
  if (t.duty) spread["gpu_duty_frac"] = spread_json(*t.duty, 4);
  if (t.sm) spread["sm_occupancy_frac"] = spread_json(*t.sm, 4);
  if (t.bandwidth) spread["mem_bw_frac"] = spread_json(*t.bandwidth, 4);
  if (t.memory) spread["memory_gib"] = spread_json(*t.memory, 3);
  out["spread"] = spread;
  if (t.warp_occupancy) out["observed"]["dcgm_warp_occupancy_frac"] = spread_json(*t.warp_occupancy, 4);
  out["samples"] = t.num_samples;
  out["busy_samples"] = t.num_busy;
  out["gpu_models"] = t.gpu_models;
  if (!t.mig_profiles.empty()) out["mig_profiles"] = t.mig_profiles;
  out["notes"] = t.notes;
  return out;
}

Json source_json(const traces::TelemetryData& data, const TenantProfiles& profiles) {
  Json source;
  source["file"] = data.path;
  source["format"] = std::string(traces::to_string(data.format));
  source["group_by"] = std::string(traces::to_string(data.group_by));
  source["samples"] = data.num_samples;
  source["workloads"] = data.workloads.size();
  source["time_span_s"] = data.time_span_s ? Json(*data.time_span_s) : Json();
  source["busy_above"] = profiles.busy_above;
  source["bad_rows"] = data.num_bad_rows;
  if (!data.bad_rows.empty()) source["first_bad_rows"] = data.bad_rows;
  if (data.format == traces::TelemetryFormat::pai_sensor) source["incomplete_rows"] = data.num_incomplete;
  source["method"] = "docs/telemetry.md";
  return source;
}

}  // namespace

std::string workload_source(const traces::TelemetryData& data, const TenantEstimate& t) {
  std::vector<std::string> figures;
  add_figure(figures, "gpu_duty_frac", t.gpu_duty_frac, t.duty);
  add_figure(figures, "sm_occupancy_frac", t.sm_occupancy_frac, t.sm);
  add_figure(figures, "mem_bw_frac", t.mem_bw_frac, t.bandwidth);
  if (t.memory_gib) figures.push_back("memory_gib max " + fixed3(*t.memory_gib));
  std::string text = std::string(traces::to_string(data.format)) + ": " +
                     std::filesystem::path(data.path).filename().string() + ", " + std::to_string(t.num_busy) +
                     " busy sample" + (t.num_busy == 1 ? "" : "s") + " of " + std::to_string(t.num_samples);
  if (!figures.empty()) text += "; " + join(figures, ", ");
  return text;
}

nlohmann::ordered_json to_json(const traces::TelemetryData& data, const TenantProfiles& profiles) {
  Json out;
  out["source"] = source_json(data, profiles);
  Json tenants = Json::array();
  for (const auto& t : profiles.tenants) tenants.push_back(tenant_json(data, t));
  out["tenants"] = tenants;
  Json skipped = Json::array();
  for (const auto& s : profiles.skipped) {
    Json entry;
    entry["name"] = s.name;
    entry["samples"] = s.num_samples;
    entry["reason"] = s.reason;
    skipped.push_back(entry);
  }
  out["skipped"] = skipped;
  return out;
}

}  // namespace slicewise::calibration
