// The `dcgmi dmon` and PAI sensor readers, and read_telemetry (the dcgm-exporter reader is in
// prometheus_text.cpp, the sample collector in telemetry_detail.cpp).
#include "traces/telemetry_readers.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "core/spell.hpp"
#include "traces/csv.hpp"
#include "traces/csv_trace_reader.hpp"
#include "traces/telemetry_detail.hpp"

namespace slicewise::traces {

namespace detail {

namespace {

// ---- dcgmi dmon --------------------------------------------------------------------------------

/// The dmon short names (DCGM's dcgm_fields.cpp) of the fields profile import uses, in
/// TelemetrySample order.
constexpr std::array<std::string_view, 5> kDmonNames = {"GRACT", "SMACT", "SMOCC", "DRAMA", "FBUSD"};

std::optional<double>& dmon_field(TelemetrySample& s, std::size_t i) {
  std::array<std::optional<double>*, 5> fields = {&s.gr_engine_active, &s.sm_active, &s.sm_occupancy, &s.dram_active,
                                                  &s.memory_gib};
  return *fields[i];
}

std::vector<std::string_view> split_blanks(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') ++pos;
    if (pos > start) tokens.push_back(line.substr(start, pos - start));
  }
  return tokens;
}

/// dmon prints `#Entity   GRACT   SMACT ...` at the start and again every 14 samples, then a line
/// of units that starts with `ID`; each sample is one row per entity: `GPU 0   0.453 ...`, `N/A`
/// where DCGM has no value. A stop by Ctrl-C ends with "dmon was stopped do to receiving a signal".
class DmonReader {
 public:
  DmonReader(LineReader& lines, TelemetryCollector& out) : lines_(lines), out_(out) {}

  void read() {
    std::string_view line;
    while (lines_.next(line)) {
      const auto tokens = split_blanks(line);
      if (tokens.empty() || tokens[0] == "ID" || trim(line).starts_with("dmon was stopped")) continue;
      if (is_header(tokens)) {
        take_header(tokens);
      } else if (tokens[0].front() != '#') {
        try {
          take_row(tokens);
        } catch (const TraceError& e) {
          out_.bad_row(e);
        }
      }
    }
    if (header_.empty()) {
      throw TraceError(out_.path(), 0, "",
                       "no #Entity header: not `dcgmi dmon` output, which starts with a line like \"#Entity   "
                       "GRACT   SMACT   SMOCC   DRAMA   FBUSD\"");
    }
  }

 private:
  static bool is_header(const std::vector<std::string_view>& tokens) {
    return tokens[0] == "#Entity" || (tokens[0] == "#" && tokens.size() > 1 && tokens[1] == "Entity");
  }

  void take_header(const std::vector<std::string_view>& tokens) {
    header_.assign(tokens.begin() + (tokens[0] == "#" ? 2 : 1), tokens.end());
    columns_.fill(-1);
    for (std::size_t i = 0; i < header_.size(); ++i) {
      for (std::size_t f = 0; f < kDmonNames.size(); ++f) {
        if (header_[i] == kDmonNames[f] && columns_[f] < 0) columns_[f] = static_cast<int>(i);
      }
    }
    if (columns_[0] < 0) {
      throw TraceError(out_.path(), lines_.line_number(), "",
                       "no GRACT column (the header has: " + excerpt(join(header_, ", ")) +
                           "); profile import needs DCGM_FI_PROF_GR_ENGINE_ACTIVE: dcgmi dmon -e "
                           "1001,1002,1003,1005,252");
    }
  }

  void take_row(const std::vector<std::string_view>& tokens) {
    const FieldContext at{&out_.path(), lines_.line_number()};
    if (header_.empty()) {
      bad_line(at, "a row before the #Entity header: expected `dcgmi dmon` output, which starts with its header");
    }
    if (tokens.size() != header_.size() + 2) {
      bad_line(at, "expected an entity (\"GPU 0\") and " + std::to_string(header_.size()) + " values (" +
                       excerpt(join(header_, ", ")) + "), got " + std::to_string(tokens.size()) + " fields");
    }
    const std::int64_t id = parse_count(tokens[1], "entity", at);
    TelemetrySample sample;
    for (std::size_t f = 0; f < kDmonNames.size(); ++f) {
      if (columns_[f] < 0) continue;
      const std::string_view text = tokens[2 + static_cast<std::size_t>(columns_[f])];
      if (text == "N/A") continue;
      dmon_field(sample, f) =
          f == 4 ? parse_fb_used_gib(text, kDmonNames[f], at) : parse_ratio(text, kDmonNames[f], at);
    }
    // "GPU 0" -> gpu0, "GPU-I 1" (a MIG GPU instance) -> gpu-i1.
    std::string name(tokens[0]);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    auto& workload = out_.workload(printable_name(name + std::to_string(id)));
    if (tokens[0] == "GPU-I" || tokens[0] == "GPU-CI") workload.mig_profiles.insert("");
    workload.samples.push_back(sample);
  }

  LineReader& lines_;
  TelemetryCollector& out_;
  std::vector<std::string> header_;
  std::array<int, kDmonNames.size()> columns_{};
};

// ---- PAI sensor table --------------------------------------------------------------------------

/// Largest GPU memory of one PAI instance, GB (as the trace reader's bound).
constexpr double kMaxPaiMemoryGb = 1e6;

/// pai_sensor_table.csv: no header row (names from pai_sensor_table.header beside it, else the
/// documented ones), one row per instance with lifetime averages. gpu_wrk_util is percent of one
/// GPU, summed over the instance's GPUs (150 = 1.5 GPUs); max_gpu_wrk_mem is the instance's peak
/// GPU memory, GB.
class PaiSensorReader {
 public:
  PaiSensorReader(LineReader& lines, TelemetryCollector& out)
      : lines_(lines),
        out_(out),
        header_(header_file_or(out.path(), {"job_name", "task_name", "worker_name", "inst_id", "machine", "gpu_name",
                                            "cpu_usage", "gpu_wrk_util", "avg_mem", "max_mem", "avg_gpu_wrk_mem",
                                            "max_gpu_wrk_mem", "read", "write", "read_count", "write_count"})),
        util_(header_.require("gpu_wrk_util", out.path(), 0)),
        memory_(header_.require("max_gpu_wrk_mem", out.path(), 0)),
        key_(header_.require(out.group_by() == TelemetryGrouping::job ? "job_name" : "task_name", out.path(), 0)) {}

  void read() {
    std::string_view line;
    while (lines_.next(line)) {
      if (trim(line).empty()) continue;
      try {
        take_row(line);
      } catch (const TraceError& e) {
        out_.bad_row(e);
      }
    }
  }

 private:
  void take_row(std::string_view line) {
    const FieldContext at{&out_.path(), lines_.line_number()};
    if (!split_csv(line, fields_, scratch_)) bad_line(at, "unclosed quote (a quoted field must end on its own line)");
    if (fields_.size() != header_.size()) {
      bad_line(at, "expected " + std::to_string(header_.size()) + " fields (" + excerpt(header_.joined(), 400) +
                       "), got " + std::to_string(fields_.size()));
    }
    const auto util = fields_[static_cast<std::size_t>(util_)];
    const auto memory = fields_[static_cast<std::size_t>(memory_)];
    if (at.line == 1 && trim(util) == "gpu_wrk_util") return;  // a header row someone added
    if (is_missing(util) || is_missing(memory)) {
      out_.count_incomplete();
      return;
    }
    const double gpus = parse_non_negative(util, "gpu_wrk_util", at, 100.0 * kMaxGpus) / 100.0;
    const double gib = parse_non_negative(memory, "max_gpu_wrk_mem", at, kMaxPaiMemoryGb);
    // The fewest GPUs that give this use (2.5 -> 3 at 0.83 each), as `trace inspect` counts them.
    const double devices = std::max(1.0, std::ceil(gpus - 1e-9));
    TelemetrySample sample;
    sample.gr_engine_active = gpus / devices;
    sample.memory_gib = gib / devices;
    const auto key = trim(fields_[static_cast<std::size_t>(key_)]);
    const std::string column = out_.group_by() == TelemetryGrouping::job ? "job_name" : "task_name";
    out_.workload(key.empty() ? "(no " + column + ")" : printable_name(key)).samples.push_back(sample);
  }

  LineReader& lines_;
  TelemetryCollector& out_;
  CsvHeader header_;
  int util_;
  int memory_;
  int key_;
  std::vector<std::string_view> fields_;
  std::string scratch_;
};

}  // namespace

void read_dcgmi_dmon(LineReader& lines, TelemetryCollector& out) { DmonReader(lines, out).read(); }

void read_pai_sensor(LineReader& lines, TelemetryCollector& out) { PaiSensorReader(lines, out).read(); }

}  // namespace detail

TelemetryData read_telemetry(const std::string& path, TelemetryFormat format, const TelemetryOptions& options) {
  detail::TelemetryCollector out(path, format, options);
  LineReader lines(path);
  switch (format) {
    case TelemetryFormat::dcgm_prometheus:
      detail::read_dcgm_prometheus(lines, out);
      return out.finish(
          "no sample of a DCGM field profile import uses (DCGM_FI_PROF_GR_ENGINE_ACTIVE, "
          "DCGM_FI_PROF_SM_ACTIVE, DCGM_FI_PROF_SM_OCCUPANCY, DCGM_FI_PROF_DRAM_ACTIVE, "
          "DCGM_FI_DEV_FB_USED): not a dcgm-exporter scrape, or one without them");
    case TelemetryFormat::dcgmi_dmon:
      detail::read_dcgmi_dmon(lines, out);
      return out.finish("no sample row under the #Entity header");
    case TelemetryFormat::pai_sensor:
      detail::read_pai_sensor(lines, out);
      return out.finish("no row with both gpu_wrk_util and max_gpu_wrk_mem");
  }
  SW_CHECK(false, "unhandled telemetry format");
}

}  // namespace slicewise::traces
