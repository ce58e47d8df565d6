// The dcgm-exporter reader: Prometheus text exposition lines
// (`DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-...",modelName="...",Hostname="...",container="...",
// namespace="...",pod="..."} 0.453000 [timestamp_ms]`), the metrics of one GPU at one instant
// joined into one sample. Metrics profile import does not use are checked for syntax and skipped:
// a real scrape carries dozens.
#include <algorithm>
#include <array>
#include <charconv>

#include "core/spell.hpp"
#include "traces/telemetry_detail.hpp"

namespace slicewise::traces::detail {

namespace {

bool is_label_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_label_char(char c) { return is_label_start(c) || (c >= '0' && c <= '9'); }
bool is_metric_start(char c) { return is_label_start(c) || c == ':'; }
bool is_metric_char(char c) { return is_label_char(c) || c == ':'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

void skip_blanks(std::string_view& rest) {
  while (!rest.empty() && is_blank(rest.front())) rest.remove_prefix(1);
}

/// What a message shows of the text where parsing stopped.
std::string got(std::string_view rest) { return rest.empty() ? "the end of the line" : quoted_excerpt(rest, 40); }

std::string quoted_name(std::string_view name) { return quoted_excerpt(name, 60); }

/// The leading run of characters `rest` that `allowed` accepts, removed from `rest`.
template <class Allowed>
std::string_view take_while(std::string_view& rest, Allowed allowed) {
  std::size_t n = 0;
  while (n < rest.size() && allowed(rest[n])) ++n;
  const auto taken = rest.substr(0, n);
  rest.remove_prefix(n);
  return taken;
}

/// The blank-separated token at the front of `rest`, removed from it.
std::string_view take_token(std::string_view& rest) {
  return take_while(rest, [](char c) { return !is_blank(c); });
}

/// The quoted label value at the front of `rest`, unescaped (\\, \" and \n are the only escapes).
std::string take_label_value(std::string_view& rest, std::string_view label, const FieldContext& at) {
  if (rest.empty() || rest.front() != '"') {
    bad_line(at, "label " + quoted_name(label) + ": expected a quoted value, got " + got(rest));
  }
  std::string value;
  for (std::size_t i = 1; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '"') {
      rest.remove_prefix(i + 1);
      return value;
    }
    if (c != '\\') {
      value += c;
      continue;
    }
    if (++i == rest.size()) break;
    switch (rest[i]) {
      case '\\': value += '\\'; break;
      case '"': value += '"'; break;
      case 'n': value += '\n'; break;
      default:
        bad_line(at, "label " + quoted_name(label) + ": unknown escape " + quoted_excerpt(rest.substr(i - 1, 2)) +
                         " in its value (allowed: \\\\, \\\" and \\n)");
    }
  }
  bad_line(at, "label " + quoted_name(label) + ": its value has no closing quote");
}

/// `{name="value",...}` at the front of `rest` (a trailing comma allowed), into `out.labels`.
void take_labels(std::string_view& rest, PrometheusLine& out, const FieldContext& at) {
  rest.remove_prefix(1);  // '{'
  while (true) {
    skip_blanks(rest);
    if (!rest.empty() && rest.front() == '}') break;
    if (rest.empty() || !is_label_start(rest.front())) bad_line(at, "expected a label name or }, got " + got(rest));
    const auto name = take_while(rest, is_label_char);
    skip_blanks(rest);
    if (rest.empty() || rest.front() != '=')
      bad_line(at, "label " + quoted_name(name) + ": expected =, got " + got(rest));
    rest.remove_prefix(1);
    skip_blanks(rest);
    out.labels.emplace_back(name, take_label_value(rest, name, at));
    skip_blanks(rest);
    if (!rest.empty() && rest.front() == ',') {
      rest.remove_prefix(1);
      continue;
    }
    if (rest.empty() || rest.front() != '}') {
      bad_line(at, "expected , or } after label " + quoted_name(name) + ", got " + got(rest));
    }
    break;
  }
  rest.remove_prefix(1);  // '}'
}

/// The value and the optional timestamp after the metric name and labels.
void take_value_and_timestamp(std::string_view& rest, PrometheusLine& out, const FieldContext& at) {
  skip_blanks(rest);
  out.value = take_token(rest);
  if (out.value.empty()) bad_line(at, "expected a value after " + quoted_name(out.metric) + " and its labels");
  skip_blanks(rest);
  if (rest.empty()) return;
  const auto stamp = take_token(rest);
  std::int64_t ms = 0;
  const auto [end, ec] = std::from_chars(stamp.data(), stamp.data() + stamp.size(), ms);
  if (ec != std::errc() || end != stamp.data() + stamp.size()) {
    throw TraceError(*at.file, at.line, "timestamp",
                     "expected whole milliseconds since 1970, got " + quoted_excerpt(stamp, 40));
  }
  out.timestamp_ms = ms;
  skip_blanks(rest);
  if (!rest.empty()) bad_line(at, "unexpected text after the timestamp: " + got(rest));
}

}  // namespace

std::string_view PrometheusLine::label(std::string_view name) const {
  for (const auto& [key, text] : labels) {
    if (key == name) return text;
  }
  return {};
}

bool parse_prometheus_line(std::string_view line, PrometheusLine& out, const FieldContext& at) {
  std::string_view rest = line;
  skip_blanks(rest);
  if (rest.empty() || rest.front() == '#') return false;
  out.labels.clear();
  out.timestamp_ms.reset();
  const auto name = take_while(rest, is_metric_char);
  if (name.empty() || !is_metric_start(name.front()) ||
      (!rest.empty() && !is_blank(rest.front()) && rest.front() != '{')) {
    bad_line(at, "not a Prometheus sample line: expected a metric name (letters, digits, _ and :) and a value, got " +
                     quoted_excerpt(line, 60));
  }
  out.metric = name;
  skip_blanks(rest);
  if (!rest.empty() && rest.front() == '{') take_labels(rest, out, at);
  take_value_and_timestamp(rest, out, at);
  return true;
}

namespace {

/// The DCGM fields profile import uses, in TelemetrySample order.
constexpr std::array<std::string_view, 5> kMetrics = {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
                                                      "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_DRAM_ACTIVE",
                                                      "DCGM_FI_DEV_FB_USED"};
constexpr std::size_t kFbUsed = 4;

int metric_index(std::string_view metric) {
  for (std::size_t i = 0; i < kMetrics.size(); ++i) {
    if (kMetrics[i] == metric) return static_cast<int>(i);
  }
  return -1;
}

std::optional<double>& sample_field(TelemetrySample& s, std::size_t i) {
  std::array<std::optional<double>*, 5> fields = {&s.gr_engine_active, &s.sm_active, &s.sm_occupancy, &s.dram_active,
                                                  &s.memory_gib};
  return *fields[i];
}

/// "node-1/gpu0", "gpu0", "node-1/gpu0/gi3" (a MIG GPU instance): a GPU as dcgm-exporter labels it.
std::string gpu_name(const PrometheusLine& line) {
  std::string name(line.label("Hostname"));
  if (!name.empty()) name += '/';
  const auto index = line.label("gpu");
  name += index.empty() ? "gpu" + std::string(line.label("UUID")) : "gpu" + std::string(index);
  if (const auto instance = line.label("GPU_I_ID"); !instance.empty()) name += "/gi" + std::string(instance);
  return name;
}

/// The workload a line belongs to: namespace/pod/container (as far as `group_by` goes), or its GPU
/// when grouping by GPU or when no pod holds the GPU.
std::string workload_name(const PrometheusLine& line, TelemetryGrouping group_by) {
  const auto pod = line.label("pod");
  const auto ns = line.label("namespace");
  if (group_by == TelemetryGrouping::gpu || pod.empty()) return gpu_name(line);
  if (group_by == TelemetryGrouping::kube_namespace) return ns.empty() ? gpu_name(line) : std::string(ns);
  std::string name = ns.empty() ? std::string(pod) : std::string(ns) + "/" + std::string(pod);
  const auto container = line.label("container");
  if (group_by == TelemetryGrouping::container && !container.empty()) name += "/" + std::string(container);
  return name;
}

/// Joins the lines of a scrape file into samples. A sample is one GPU (or MIG instance) of one
/// workload at one instant: its timestamp when lines carry one, else its scrape, which ends where
/// a GPU's metric repeats (concatenated `curl .../metrics` output).
class PrometheusReader {
 public:
  PrometheusReader(LineReader& lines, TelemetryCollector& out) : lines_(lines), out_(out) {}

  void read() {
    std::string_view text;
    PrometheusLine line;
    while (lines_.next(text)) {
      const FieldContext at{&out_.path(), lines_.line_number()};
      try {
        if (parse_prometheus_line(text, line, at)) take(line, at);
      } catch (const TraceError& e) {
        out_.bad_row(e);
      }
    }
    for (auto& [key, sample] : samples_) {
      const Series& series = series_[static_cast<std::size_t>(key.first)];
      auto& workload = out_.workload(series.workload);
      if (!series.gpu_model.empty()) workload.gpu_models.insert(series.gpu_model);
      if (series.mig) workload.mig_profiles.insert(series.mig_profile);
      workload.samples.push_back(sample);
    }
    // In doubles: two int64 timestamps far apart would overflow their difference.
    if (first_ms_) out_.set_time_span((static_cast<double>(*last_ms_) - static_cast<double>(*first_ms_)) / 1000.0);
  }

 private:
  struct Series {
    std::string workload;
    std::string gpu_model;
    bool mig = false;
    std::string mig_profile;
  };
  enum class Clock { unknown, timestamps, scrapes };

  void take(const PrometheusLine& line, const FieldContext& at) {
    const int metric = metric_index(line.metric);
    if (metric < 0) return;  // one of the dozens of fields a scrape has that profile import does not use
    const auto field = static_cast<std::size_t>(metric);
    const int series = series_of(line);
    const std::int64_t instant = instant_of(series, field, line, at);
    const double value =
        field == kFbUsed ? parse_fb_used_gib(line.value, line.metric, at) : parse_ratio(line.value, line.metric, at);
    auto& slot = sample_field(samples_[{series, instant}], field);
    if (slot) {
      bad_line(at, std::string(line.metric) + " given twice at timestamp " + std::to_string(instant) + " for " +
                       excerpt(gpu_name(line)) + " (workload " +
                       excerpt(series_[static_cast<std::size_t>(series)].workload) +
                       "); each metric may appear once per GPU and instant");
    }
    slot = value;
    if (line.timestamp_ms) {
      first_ms_ = std::min(first_ms_.value_or(instant), instant);
      last_ms_ = std::max(last_ms_.value_or(instant), instant);
    }
  }

  /// The id of the line's series (its GPU and pod labels), registered on first sight.
  int series_of(const PrometheusLine& line) {
    std::string key;
    for (const char* label : {"Hostname", "instance", "UUID", "gpu", "GPU_I_ID", "namespace", "pod", "container"}) {
      key += line.label(label);
      key += '\x1f';
    }
    const auto [it, inserted] = series_ids_.try_emplace(std::move(key), static_cast<int>(series_.size()));
    if (inserted) {
      Series s;
      s.workload = printable_name(workload_name(line, out_.group_by()));
      s.gpu_model = line.label("modelName");
      s.mig = !line.label("GPU_I_ID").empty() || !line.label("GPU_I_PROFILE").empty();
      s.mig_profile = line.label("GPU_I_PROFILE");
      series_.push_back(std::move(s));
    }
    return it->second;
  }

  /// The line's instant: its timestamp, or the scrape it belongs to. A file mixing lines with and
  /// without timestamps cannot be joined.
  std::int64_t instant_of(int series, std::size_t field, const PrometheusLine& line, const FieldContext& at) {
    const Clock clock = line.timestamp_ms ? Clock::timestamps : Clock::scrapes;
    if (clock_ == Clock::unknown) {
      clock_ = clock;
      clock_line_ = at.line;
    } else if (clock_ != clock) {
      bad_line(at, std::string(line.timestamp_ms ? "a timestamp, but line " : "no timestamp, but line ") +
                       std::to_string(clock_line_) + (line.timestamp_ms ? " had none" : " had one") +
                       ": a file's samples carry timestamps all or none");
    }
    if (line.timestamp_ms) return *line.timestamp_ms;
    const auto current = samples_.find({series, scrape_});
    if (current != samples_.end() && sample_field(current->second, field)) ++scrape_;
    return scrape_;
  }

  LineReader& lines_;
  TelemetryCollector& out_;
  std::map<std::string, int> series_ids_;
  std::vector<Series> series_;
  std::map<std::pair<int, std::int64_t>, TelemetrySample> samples_;
  Clock clock_ = Clock::unknown;
  long clock_line_ = 0;
  std::int64_t scrape_ = 0;
  std::optional<std::int64_t> first_ms_;
  std::optional<std::int64_t> last_ms_;
};

}  // namespace

void read_dcgm_prometheus(LineReader& lines, TelemetryCollector& out) { PrometheusReader(lines, out).read(); }

}  // namespace slicewise::traces::detail
