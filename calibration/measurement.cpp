// Strict loader of measurement files (docs/measurement-format.md).
#include "calibration/measurement.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "traces/csv.hpp"
#include "traces/fields.hpp"
#include "traces/line_reader.hpp"

namespace slicewise::calibration {

using models::StrategyKind;
using namespace detail;  // the columns' checks (measurement_row.hpp)

namespace {

class Loader {
 public:
  Loader(const std::string& path, const models::GpuCatalog& gpus, const models::MigCatalog& mig)
      : reader_(path), gpus_(gpus), mig_(mig) {}

  std::vector<Measurement> load() {
    std::string_view line;
    while (reader_.next(line)) {
      note_comment(line);
      if (skip(line)) continue;
      split(line);
      std::vector<std::string> names;
      for (auto f : fields_) names.emplace_back(traces::trim(f));
      header_ = traces::CsvHeader(std::move(names));
      break;
    }
    if (header_.size() == 0) fail(reader_.path(), 0, "", "no header row: the file is empty");
    const bool miso = header_.find("step_time_median_s") >= 0;
    const bool colocation = header_.find("relative_speed") >= 0;
    if (colocation) {
      locate_colocation_columns();
    } else {
      locate_columns(miso);
    }
    std::vector<Measurement> out;
    while (reader_.next(line)) {
      if (skip(line)) continue;
      split(line);
      if (fields_.size() != header_.size()) {
        fail(reader_.path(), reader_.line_number(), "",
             "expected " + std::to_string(header_.size()) + " fields (" + header_.joined() + "), got " +
                 std::to_string(fields_.size()));
      }
      if (colocation) {
        out.push_back(read_colocation_row());  // a row per process: two alike may measure the same
        continue;
      }
      if (miso) {
        read_miso_row(out);
      } else {
        out.push_back(read_row());
      }
      check_not_repeated();
    }
    if (out.empty()) fail(reader_.path(), 0, "", "no measurements after the header");
    return out;
  }

  const std::vector<std::string>& notes() const { return notes_; }

 private:
  /// A `# gpu: NAME[, ...]` or `# date: YYYY-MM-DD ...` comment before the header (the probes
  /// write them; a co-location file needs them).
  void note_comment(std::string_view line) {
    const std::string_view text = traces::trim(line);
    for (auto [prefix, into] :
         {std::pair{std::string_view("# gpu:"), &meta_gpu_}, std::pair{std::string_view("# date:"), &meta_date_}}) {
      if (!text.starts_with(prefix)) continue;
      std::string_view value = traces::trim(text.substr(prefix.size()));
      value = value.substr(0, value.find(','));
      *into = std::string(traces::trim(value));
    }
  }

  static bool skip(std::string_view line) {
    const std::string_view text = traces::trim(line);
    return text.empty() || text.front() == '#';
  }

  /// A row equal to an earlier one in every field is the same measurement listed twice: counted
  /// twice, it would make a fit look more certain than the data is.
  void check_not_repeated() {
    std::vector<std::string> key;
    for (auto f : fields_) key.emplace_back(traces::trim(f));
    const auto [it, inserted] = seen_.try_emplace(std::move(key), reader_.line_number());
    if (!inserted) {
      fail(reader_.path(), reader_.line_number(), "",
           "repeats line " + std::to_string(it->second) +
               " (every field the same); list a measurement once, or tell repeated runs apart by their run column");
    }
  }

  void split(std::string_view line) {
    if (!traces::split_csv(line, fields_, scratch_)) {
      fail(reader_.path(), reader_.line_number(), "", "a quoted field is not closed");
    }
    // Text goes on into the profile's JSON and the reports, which hold UTF-8 only (a Latin-1
    // "source" cell made `calibrate` fail with nlohmann's type_error 316, no file or line).
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const auto bad = invalid_utf8_at(fields_[i]);
      if (!bad && !has_noncharacter(fields_[i])) continue;
      fail(reader_.path(), reader_.line_number(), "",
           "field " + std::to_string(i + 1) + " " + quoted_excerpt(fields_[i]) +
               (bad ? " is not valid UTF-8 (byte " + std::to_string(*bad + 1) + "); save the file as UTF-8"
                    : " holds a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0..U+FDEF), which the XML outputs cannot"));
    }
  }

  /// Finds the layout's columns; a column given twice or not of the layout is an error (a typo
  /// such as "runs" must not drop the co-run ids silently).
  void locate_columns(bool miso) {
    const std::vector<std::string> names =
        miso
            ? std::vector<std::string>{"gpu",        "mig_profile",        "workload",
                                       "batch_size", "step_time_median_s", "step_time_p90_s"}
            : std::vector<std::string>{"gpu",    "strategy", "mig_profile", "n_contexts", "workload", "workload_params",
                                       "metric", "value",    "unit",        "source",     "date"};
    std::vector<std::string> allowed = names;
    allowed.emplace_back(miso ? "num_steps" : "run");
    const long line = reader_.line_number();
    const auto& header = header_.names();
    for (std::size_t i = 0; i < header.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (header[i] == header[j]) {
          fail(reader_.path(), line, "",
               "column " + quoted_excerpt(header[i]) + " appears twice (columns " + std::to_string(j + 1) + " and " +
                   std::to_string(i + 1) + "); each column may appear once");
        }
      }
      if (std::find(allowed.begin(), allowed.end(), header[i]) == allowed.end()) {
        fail(reader_.path(), line, "",
             "unknown column " + quoted_excerpt(header[i]) + "; allowed: " + join(allowed, ", ") +
                 did_you_mean_suffix(header[i], allowed));
      }
    }
    for (const auto& name : names) columns_[name] = header_.require(name, reader_.path(), line);
    columns_["run"] = header_.find("run");
  }

  /// The co-location layout (calibration/probes/colo.sh): a row per process of a run.
  void locate_colocation_columns() {
    const std::vector<std::string> names = {"set",          "mechanism",   "n_processes",      "kind",
                                            "thread_pct",   "iters_per_s", "solo_iters_per_s", "relative_speed",
                                            "compute_frac", "mem_bw_frac"};
    const std::vector<std::string> optional = {"compute_frac", "mem_bw_frac"};
    const long line = reader_.line_number();
    for (const auto& name : header_.names()) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        fail(reader_.path(), line, "",
             "unknown column " + quoted_excerpt(name) + " of a co-location file; allowed: " + join(names, ", ") +
                 did_you_mean_suffix(name, names));
      }
    }
    for (const auto& name : names) {
      const bool required = std::find(optional.begin(), optional.end(), name) == optional.end();
      columns_[name] = required ? header_.require(name, reader_.path(), line) : header_.find(name);
    }
    if (meta_gpu_.empty()) {
      fail(reader_.path(), line, "",
           "a co-location file names its GPU in a `# gpu: NAME` comment line before its header");
    }
    if (meta_date_.size() < 10 || !is_iso_date(meta_date_.substr(0, 10))) {
      fail(reader_.path(), line, "",
           "a co-location file gives its date in a `# date: YYYY-MM-DD` comment line before its header");
    }
  }

  /// The contexts sharing the device, from column `name`: an integer in [1, 1024].
  int context_count(const std::string& name) const {
    const traces::FieldContext at{&reader_.path(), reader_.line_number()};
    const std::string_view text = field(name);
    const double contexts = traces::parse_number(text, name, at);
    if (contexts < 1 || contexts > 1024 || contexts != std::floor(contexts)) {
      fail(reader_.path(), reader_.line_number(), name, "must be an integer in [1, 1024], got " + std::string(text));
    }
    return static_cast<int>(contexts);
  }

  /// A positive number of column `name`.
  double positive(const std::string& name) const {
    const traces::FieldContext at{&reader_.path(), reader_.line_number()};
    const double value = traces::parse_number(field(name), name, at);
    if (!(value > 0.0))
      fail(reader_.path(), reader_.line_number(), name, "must be > 0, got " + std::string(field(name)));
    return value;
  }

  /// One process of a co-location run: its loop's throughput, its burst the loop's solo period (it
  /// synchronises after each GEMM), its MPS thread cap.
  Measurement read_colocation_row() const {
    const std::string& file = reader_.path();
    const long line = reader_.line_number();
    Measurement m;
    m.file = file;
    m.line = line;
    std::string gpu = meta_gpu_;
    if (gpu.starts_with("NVIDIA ")) gpu.erase(0, 7);
    m.gpu = gpu_id(gpu);
    m.strategy = choose(field("mechanism"), models::strategy_kind_table(), file, line, "mechanism");
    // The probes' colocation loops run alone, time-sliced or under MPS: the file's mechanisms.
    static const std::vector<std::string> kMechanisms = {"dedicated", "time_slicing", "mps"};
    if (std::find(kMechanisms.begin(), kMechanisms.end(), models::to_string(m.strategy)) == kMechanisms.end()) {
      fail(file, line, "mechanism", "must be dedicated, time_slicing or mps, got " + std::string(field("mechanism")));
    }
    m.n_contexts = context_count("n_processes");
    m.workload = required_text("kind");
    if (!is_name(m.workload)) fail(file, line, "kind", quoted_excerpt(m.workload) + " is not a name");
    const double threads = positive("thread_pct");
    if (threads > 100.0) fail(file, line, "thread_pct", "must be in (0, 100], got " + std::string(field("thread_pct")));
    const double iters = positive("iters_per_s");
    const double solo = positive("solo_iters_per_s");
    const double relative = positive("relative_speed");
    if (std::abs(relative - iters / solo) > 0.0051) {
      fail(file, line, "relative_speed",
           std::string(field("relative_speed")) + " is not iters_per_s / solo_iters_per_s (" +
               format_number(iters / solo) + ")");
    }
    m.params["kernel_ms"] = 1000.0 / solo;
    for (const char* demand : {"compute_frac", "mem_bw_frac"}) {  // optional: the loop's demands alone
      const std::string_view text = field(demand);
      if (text.empty()) continue;
      const double value = traces::parse_number(text, demand, traces::FieldContext{&file, line});
      const ParamRule& rule = *rule_of(demand);
      if (!allows(rule, value)) fail(file, line, demand, "must be " + rule.allowed + ", got " + std::string(text));
      m.params[demand] = value;
    }
    if (!m.facts().cap_param.empty() && threads < 100.0) m.params[m.facts().cap_param] = threads;
    m.metric = Metric::throughput;
    m.value = iters;
    m.source = "co-location runs (" + std::filesystem::path(file).filename().string() + ")";
    m.date = meta_date_.substr(0, 10);
    const std::string set = required_text("set");
    if (!is_name(set)) fail(file, line, "set", quoted_excerpt(set) + " is not a name");
    if (m.n_contexts > 1) m.run = set;
    check_consistency(m, mig_);
    return m;
  }

  std::string_view field(const std::string& name) const {
    const int at = columns_.at(name);
    return at < 0 ? std::string_view{} : traces::trim(fields_[static_cast<std::size_t>(at)]);
  }

  std::string gpu_id(std::string_view text) const {
    const models::GpuSpec* gpu = gpus_.find(text);
    if (gpu == nullptr) {
      fail(reader_.path(), reader_.line_number(), "gpu",
           "unknown GPU " + quoted_excerpt(std::string(text)) + "; see `slicewise gpus`" +
               gpus_.did_you_mean_suffix(text));
    }
    return gpu->id;
  }

  std::string required_text(const std::string& column) const {
    const std::string_view text = field(column);
    if (text.empty()) fail(reader_.path(), reader_.line_number(), column, "must not be empty");
    return std::string(text);
  }

  /// A measurement of the current line with its position and GPU filled in.
  Measurement start_row() const {
    Measurement m;
    m.file = reader_.path();
    m.line = reader_.line_number();
    m.gpu = gpu_id(field("gpu"));
    return m;
  }

  Measurement read_row() const {
    const std::string& file = reader_.path();
    const long line = reader_.line_number();
    const traces::FieldContext at{&file, line};
    Measurement m = start_row();
    m.strategy = choose(field("strategy"), models::strategy_kind_table(), file, line, "strategy");
    m.mig_profile = std::string(field("mig_profile"));
    m.n_contexts = context_count("n_contexts");
    m.workload = required_text("workload");
    if (!is_name(m.workload)) {
      fail(file, line, "workload", quoted_excerpt(m.workload) + " is not a name (letters, digits, _ - . only)");
    }
    m.params = parse_params(field("workload_params"), file, line);
    m.metric = choose(field("metric"), metric_table(), file, line, "metric");
    const double value = traces::parse_number(field("value"), "value", at);
    if (!(value > 0.0)) fail(file, line, "value", "must be > 0, got " + std::string(field("value")));
    const auto units = units_of(m.metric);
    const double factor = choose(field("unit"), units, file, line, "unit");
    m.value = value * factor;
    if (!std::isfinite(m.value) || !(m.value > 0.0)) {
      fail(file, line, "value",
           std::string(field("value")) + " " + std::string(field("unit")) + " is out of range once converted to " +
               units.front().first + " (finite and > 0)");
    }
    m.source = required_text("source");
    m.date = required_text("date");
    if (!is_iso_date(m.date)) fail(file, line, "date", "expected a date YYYY-MM-DD, got " + quoted_excerpt(m.date));
    m.run = std::string(field("run"));
    if (!m.run.empty() && !is_name(m.run)) {
      fail(file, line, "run", quoted_excerpt(m.run) + " is not a name (letters, digits, _ - . only)");
    }
    check_consistency(m, mig_);
    return m;
  }

  void read_miso_row(std::vector<Measurement>& out) const {
    const std::string& file = reader_.path();
    const long line = reader_.line_number();
    const traces::FieldContext at{&file, line};
    Measurement m = start_row();
    m.strategy = StrategyKind::mig;
    m.mig_profile = required_text("mig_profile");
    m.workload = required_text("workload");
    const std::int64_t batch = traces::parse_count(field("batch_size"), "batch_size", at);
    if (batch < 1) fail(file, line, "batch_size", "must be an integer >= 1, got " + std::string(field("batch_size")));
    m.params["batch_size"] = static_cast<double>(batch);
    m.source = "MISO artifact (SoCC '22), boringlee24/socc22-miso@39b1ee6";
    m.date = "2022-11-07";
    check_consistency(m, mig_);
    for (const auto& [column, metric] :
         {std::pair{"step_time_median_s", Metric::time_median}, std::pair{"step_time_p90_s", Metric::time_p90}}) {
      m.metric = metric;
      m.value = traces::parse_number(field(column), column, at);
      if (!(m.value > 0.0)) fail(file, line, column, "must be > 0, got " + std::string(field(column)));
      out.push_back(m);
    }
  }

  traces::LineReader reader_;
  const models::GpuCatalog& gpus_;
  const models::MigCatalog& mig_;
  traces::CsvHeader header_;
  std::map<std::string, int> columns_;
  std::vector<std::string_view> fields_;
  std::string scratch_;
  std::map<std::vector<std::string>, long> seen_;  // fields of each row read -> its line
  std::string meta_gpu_, meta_date_;               // `# gpu:` and `# date:` comments before the header
  std::vector<std::string> notes_;
};

}  // namespace

std::vector<Measurement> load_measurements(const std::string& path, const models::GpuCatalog& gpus,
                                           const models::MigCatalog& mig, std::vector<std::string>* notes) {
  Loader loader(path, gpus, mig);
  auto rows = loader.load();
  if (notes) notes->insert(notes->end(), loader.notes().begin(), loader.notes().end());
  return rows;
}

}  // namespace slicewise::calibration
