// Readers of cluster traces, where a row is a pod, task or job that holds GPUs for a while:
// Alibaba openb pods and nodes (v2023), PAI tasks and sensors (v2020), Microsoft Philly jobs.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <istream>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "traces/csv_trace_reader.hpp"
#include "traces/readers.hpp"

namespace slicewise::traces {

namespace {

/// Largest GPU memory of one PAI instance, GiB. The PAI README says "GB", but the values are whole
/// MiB over 1024 (its own example, 2.3994140625, is 2457/1024): they are GiB, read as such (as
/// `profile import --format pai-sensor` reads them, docs/telemetry.md).
constexpr double kMaxMemoryGib = 1e6;
constexpr auto kMaxSeconds = static_cast<std::int64_t>(kMaxTraceSeconds);

/// name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,
/// scheduled_time; the multigpu variants stop after gpu_milli (no times: every pod is present from
/// the start and stays). Times are whole seconds from the trace start. A pod runs from creation to
/// deletion; the one pod whose deletion is not after its creation gets duration 0.
class OpenbPodsReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    num_gpu_ = require(h, "num_gpu");
    gpu_milli_ = require(h, "gpu_milli");
    const int created = h.find("creation_time");
    timed_ = created >= 0;
    if (timed_) {
      creation_ = static_cast<std::size_t>(created);
      deletion_ = require(h, "deletion_time");
      // scheduled_time is empty for pending pods, so rows may end one field early.
      if (h.find("scheduled_time") == static_cast<int>(h.size()) - 1) min_fields_ = h.size() - 1;
    }
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.num_gpus = static_cast<int>(parse_count(f[num_gpu_], "num_gpu", at, kMaxGpus));
    const std::int64_t milli = parse_count(f[gpu_milli_], "gpu_milli", at);
    if (milli > 1000)
      throw TraceError(*at.file, at.line, "gpu_milli", "must be in 0..1000 (got " + std::to_string(milli) + ")");
    row.gpu_frac = row.num_gpus == 0 ? 0.0 : static_cast<double>(milli) / 1000.0;
    if (!timed_) {
      row.has_time = false;
      return;
    }
    row.at_s = static_cast<double>(parse_count(f[creation_], "creation_time", at, kMaxSeconds));
    const double deleted = static_cast<double>(parse_count(f[deletion_], "deletion_time", at, kMaxSeconds));
    row.duration_s = std::max(0.0, deleted - row.at_s);
  }
  bool timed_ = false;
  std::size_t num_gpu_ = 0, gpu_milli_ = 0, creation_ = 0, deletion_ = 0;
};

/// sn,cpu_milli,memory_mib,gpu,model: one machine per row; `model` is empty for CPU nodes. A node
/// with GPUs but no model is a bad row (its GPUs could not be told apart).
class OpenbNodesReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    gpu_ = require(h, "gpu");
    model_ = require(h, "model");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.has_time = false;
    row.num_gpus = static_cast<int>(parse_count(f[gpu_], "gpu", at, kMaxGpus));
    if (row.num_gpus > 0 && trim(f[model_]).empty()) {
      throw TraceError(*at.file, at.line, "model", "empty for a node with " + std::to_string(row.num_gpus) + " GPUs");
    }
  }
  std::size_t gpu_ = 0, model_ = 0;
};

/// PAI v2020 task table (no header row; names from pai_task_table.header). start_time 0 or empty
/// means unknown. plan_gpu is percent of one GPU: 50 = half a GPU, 800 = eight GPUs.
class PaiTaskReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    start_ = require(h, "start_time");
    end_ = require(h, "end_time");
    plan_gpu_ = require(h, "plan_gpu");
    status_ = require(h, "status");
    inst_num_ = require(h, "inst_num");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    // The table has no header row: columns in another order would read one field as another. A
    // count and a state are the two that tell (the times and plan_gpu are numbers either way).
    if (!is_missing(f[inst_num_])) parse_non_negative(f[inst_num_], "inst_num", at);
    const std::string_view status = trim(f[status_]);
    if (status.empty() || std::isdigit(static_cast<unsigned char>(status.front())) != 0 || status.front() == '-' ||
        status.front() == '.') {
      throw TraceError(*at.file, at.line, "status",
                       "expected a state such as Terminated, Failed or Running (got " + quoted_excerpt(status) +
                           "); the columns must be in the order job_name,task_name,inst_num,status,start_time,"
                           "end_time,plan_cpu,plan_mem,plan_gpu,gpu_type, or list them in a .header file of the same "
                           "name beside it");
    }
    row.failed = status == "Failed";
    if (!is_missing(f[plan_gpu_]))
      set_gpus(row, parse_non_negative(f[plan_gpu_], "plan_gpu", at, 100.0 * kMaxGpus) / 100.0);
    const double start = is_missing(f[start_]) ? 0.0 : parse_seconds(f[start_], "start_time", at);
    if (start <= 0.0) {
      row.has_time = false;
      return;
    }
    row.at_s = start;
    if (!is_missing(f[end_])) {
      const double end = parse_seconds(f[end_], "end_time", at);
      if (end >= start) row.duration_s = end - start;
    }
  }
  std::size_t start_ = 0, end_ = 0, plan_gpu_ = 0, status_ = 0, inst_num_ = 0;

 public:
  /// GPUs as a count of devices and the share of each: 0.5 -> 1 × 0.5; 8 -> 8 × 1; 2.5 -> 3 × 0.83.
  static void set_gpus(TraceRow& row, double gpus) {
    if (gpus <= 0.0) return;
    row.num_gpus = static_cast<int>(std::ceil(gpus - 1e-9));
    row.gpu_frac = gpus / row.num_gpus;
  }
};

/// PAI v2020 sensor table (no header row): per-instance lifetime averages. gpu_wrk_util is percent
/// of one GPU; max_gpu_wrk_mem is GiB (see kMaxMemoryGib). No arrival times: these rows give workload parameters.
class PaiSensorReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    util_ = require(h, "gpu_wrk_util");
    mem_ = require(h, "max_gpu_wrk_mem");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.has_time = false;
    if (is_missing(f[util_]) || is_missing(f[mem_])) {
      row.complete = false;
      return;
    }
    PaiTaskReader::set_gpus(row, parse_non_negative(f[util_], "gpu_wrk_util", at, 100.0 * kMaxGpus) / 100.0);
    row.memory_gib = parse_non_negative(f[mem_], "max_gpu_wrk_mem", at, kMaxMemoryGib);
  }
  std::size_t util_ = 0, mem_ = 0;
};

/// Philly cluster_job_log: one JSON array of jobs {status, vc, jobid, submitted_time, user,
/// attempts[{start_time, end_time, detail[{ip, gpus[]}]}]}. Times are naive "YYYY-MM-DD HH:MM:SS";
/// "None" and "" both mean missing. The array is parsed with a callback that converts each job and
/// discards it, so memory holds rows, not the document. Errors name the job's JSON pointer.
class PhillyReader final : public TraceReader {
 public:
  PhillyReader(std::string path, const ReadOptions& options)
      : TraceReader(std::move(path), TraceFormat::philly, options) {
    const auto bytes = open_decoded(path_);  // .gz and .zst as well
    std::istream in(bytes.get());
    std::size_t index = 0;
    auto callback = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
      if (depth == 0 && event == nlohmann::json::parse_event_t::array_start) top_is_array_ = true;
      keys_.track(event, parsed);
      if (depth != 1 || event != nlohmann::json::parse_event_t::object_end) return true;
      try {
        if (!keys_.twice.empty()) throw TraceError(path_, 0, keys_.twice, "key given twice (each key may appear once)");
        rows_.push_back(convert(parsed, "/" + std::to_string(index)));
      } catch (const TraceError& e) {
        keys_.twice.clear();
        bad_row(e);
      }
      ++index;
      return false;  // drop the job from the document: memory stays small
    };
    try {
      const auto doc = nlohmann::json::parse(in, callback);
      if (!top_is_array_) throw TraceError(path_, 0, "", "expected one JSON array of jobs");
    } catch (const nlohmann::json::exception& e) {
      throw TraceError(path_, 0, "", "not valid JSON: " + json_problem(e));
    }
  }
  bool absolute_time() const override { return true; }

 private:
  bool read_row(TraceRow& row) override {
    if (next_ == rows_.size()) return false;
    row = std::move(rows_[next_++]);
    return true;
  }

  static bool missing(const nlohmann::json& v) {
    return v.is_null() || (v.is_string() && is_missing(v.get<std::string>()));
  }

  double time_of(const nlohmann::json& v, const std::string& pointer) {
    if (!v.is_string()) throw TraceError(path_, 0, pointer, "expected a time string, got " + v.dump());
    const auto ns = parse_datetime_ns(v.get<std::string>());
    if (!ns) throw TraceError(path_, 0, pointer, "expected YYYY-MM-DD HH:MM:SS, got " + describe_json(v));
    return since_epoch_s(*ns);
  }

  TraceRow convert(const nlohmann::json& job, const std::string& pointer) {
    TraceRow row;
    if (!job.is_object()) throw TraceError(path_, 0, pointer, "expected a job object");
    const auto submitted = job.find("submitted_time");
    if (submitted == job.end()) throw TraceError(path_, 0, pointer, "missing \"submitted_time\"");
    if (missing(*submitted)) {
      row.has_time = false;
    } else {
      row.at_s = time_of(*submitted, pointer + "/submitted_time");
    }
    if (const auto status = job.find("status"); status != job.end() && status->is_string()) {
      row.failed = status->get<std::string>() == "Failed";
    }
    if (!options_.key_column.empty()) {
      const auto k = job.find(options_.key_column);
      if (k == job.end()) throw TraceError(path_, 0, pointer, "no key \"" + options_.key_column + "\" to split by");
      row.key = k->is_string() ? k->get<std::string>() : k->dump();
    }
    const auto attempts = job.find("attempts");
    if (attempts == job.end() || !attempts->is_array())
      throw TraceError(path_, 0, pointer, "missing \"attempts\" array");
    read_attempts(*attempts, pointer, row);
    if (row.num_gpus > 0) row.gpu_frac = 1.0;
    return row;
  }

  /// A job's attempts: the duration from the first start to the last end, and the GPUs of the
  /// first attempt's detail.
  void read_attempts(const nlohmann::json& attempts, const std::string& pointer, TraceRow& row) {
    std::optional<double> first_start;
    std::optional<double> last_end;
    for (std::size_t a = 0; a < attempts.size(); ++a) {
      const auto& attempt = attempts[a];
      const std::string at = pointer + "/attempts/" + std::to_string(a);
      if (!attempt.is_object()) throw TraceError(path_, 0, at, "expected an attempt object");
      if (attempt.contains("start_time") && !missing(attempt["start_time"]) && !first_start) {
        first_start = time_of(attempt["start_time"], at + "/start_time");
      }
      if (attempt.contains("end_time") && !missing(attempt["end_time"])) {
        last_end = time_of(attempt["end_time"], at + "/end_time");
      }
      if (a == 0 && attempt.contains("detail") && attempt["detail"].is_array())
        row.num_gpus += gpus_of(attempt["detail"]);
    }
    if (first_start && last_end && *last_end >= *first_start) row.duration_s = *last_end - *first_start;
  }

  /// The GPUs an attempt's detail lists: the sum of its hosts' "gpus" arrays.
  static int gpus_of(const nlohmann::json& detail) {
    int num_gpus = 0;
    for (const auto& d : detail) {
      if (d.is_object() && d.contains("gpus") && d["gpus"].is_array()) num_gpus += static_cast<int>(d["gpus"].size());
    }
    return num_gpus;
  }

  /// The JSON pointer of the parser's position, to name a key that appears twice in one object
  /// (nlohmann keeps the last one silently).
  struct KeyTracker {
    struct Frame {
      bool is_array = false;
      long index = -1;                // current element of an array
      std::string key;                // current key of an object
      std::vector<std::string> keys;  // keys seen so far in an object
    };
    std::vector<Frame> stack;
    std::string twice;  // pointer of the first key seen twice in the current job; "" when none

    void element_starts() {
      if (!stack.empty() && stack.back().is_array) ++stack.back().index;
    }
    std::string pointer() const {
      std::string out;
      for (const auto& frame : stack) {
        if (frame.is_array && frame.index >= 0) out += "/" + std::to_string(frame.index);
        if (!frame.is_array && !frame.key.empty()) out += "/" + json_pointer_token(frame.key);
      }
      return out;
    }
    void track(nlohmann::json::parse_event_t event, const nlohmann::json& parsed) {
      using E = nlohmann::json::parse_event_t;
      switch (event) {
        case E::object_start:
        case E::array_start:
          element_starts();
          stack.push_back(Frame{event == E::array_start, -1, {}, {}});
          break;
        case E::object_end:
        case E::array_end:
          if (!stack.empty()) stack.pop_back();
          break;
        case E::key: {
          auto& frame = stack.back();
          frame.key = parsed.get<std::string>();
          const bool seen = std::find(frame.keys.begin(), frame.keys.end(), frame.key) != frame.keys.end();
          if (seen && twice.empty()) twice = pointer();
          frame.keys.push_back(frame.key);
          break;
        }
        case E::value: element_starts(); break;
      }
    }
  };

  bool top_is_array_ = false;
  KeyTracker keys_;
  std::vector<TraceRow> rows_;
  std::size_t next_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> open_openb_pods(const std::string& path, const ReadOptions& options) {
  return open_csv<OpenbPodsReader>(path, TraceFormat::openb_pods, options);
}

std::unique_ptr<TraceReader> open_openb_nodes(const std::string& path, const ReadOptions& options) {
  return open_csv<OpenbNodesReader>(path, TraceFormat::openb_nodes, options);
}

std::unique_ptr<TraceReader> open_pai_task(const std::string& path, const ReadOptions& options) {
  return open_csv<PaiTaskReader>(path, TraceFormat::pai_task, options,
                                 header_file_or(path, {"job_name", "task_name", "inst_num", "status", "start_time",
                                                       "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type"}));
}

std::unique_ptr<TraceReader> open_pai_sensor(const std::string& path, const ReadOptions& options) {
  return open_csv<PaiSensorReader>(
      path, TraceFormat::pai_sensor, options,
      header_file_or(path, {"job_name", "task_name", "worker_name", "inst_id", "machine", "gpu_name", "cpu_usage",
                            "gpu_wrk_util", "avg_mem", "max_mem", "avg_gpu_wrk_mem", "max_gpu_wrk_mem", "read", "write",
                            "read_count", "write_count"}));
}

std::unique_ptr<TraceReader> open_philly(const std::string& path, const ReadOptions& options) {
  return std::make_unique<PhillyReader>(path, options);
}

}  // namespace slicewise::traces
