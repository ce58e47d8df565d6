// `slicewise sweep SWEEP.json --out DIR` and `slicewise merge DIR... --out DIR` (docs/sweeps.md).
// Every point runs in its own child process (SimGrid allows one engine per process), N at a time;
// each writes DIR/points/<id>.json atomically when it is done, so a killed sweep resumes where it
// stopped. The parent keeps the progress bar and writes results.csv, results.json and junit.xml.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/child_pool.hpp"
#include "cli/commands.hpp"
#include "cli/simulate_run.hpp"
#include "cli/sweep_folder.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/roi_report.hpp"
#include "report/sweep_results.hpp"
#include "report/text_table.hpp"
#include "scenario/result_json.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kExitGate = 3;
constexpr std::int64_t kMaxManifestPoints = 100000;  // the most points a sweep file may give (scenario/sweep.cpp)

CLI::Validator progress_transform() {
  return CLI::CheckedTransformer(
      std::map<std::string, ProgressMode>{{"bar", ProgressMode::bar}, {"json", ProgressMode::json}, {"none", ProgressMode::none}},
      CLI::ignore_case);
}

/// An ostream that writes straight to a file descriptor (a child's progress pipe).
class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd) : fd_(fd) {}

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = static_cast<char>(c);
    return write_all(&ch, 1) ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return write_all(s, static_cast<std::size_t>(n)) ? n : 0;
  }

 private:
  bool write_all(const char* s, std::size_t n) {
    while (n > 0) {
      const auto written = ::write(fd_, s, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) return false;
      s += written;
      n -= static_cast<std::size_t>(written);
    }
    return true;
  }
  int fd_;
};

struct Shard {
  int k = 1;
  int n = 1;
  std::string text() const { return std::to_string(k) + "/" + std::to_string(n); }
};

Shard parse_shard(const std::string& text) {
  Shard shard;
  if (text.empty()) return shard;
  // Digits only (at most 9, so that each fits an int): no sign, space or overflow slips through.
  auto read = [](const std::string& digits, int& value) {
    if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    value = std::stoi(digits);
    return true;
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos || !read(text.substr(0, slash), shard.k) || !read(text.substr(slash + 1), shard.n) ||
      shard.n < 1 || shard.k < 1 || shard.k > shard.n) {
    throw ConfigError("--shard", "", "expected K/N with 1 <= K <= N, e.g. 2/4 (got \"" + text + "\")");
  }
  return shard;
}

/// Creates the --out folder (and its points/), or says why it cannot.
void create_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw ConfigError("--out", "", "cannot create folder " + folder.string() + ": " + ec.message());
}

fs::path log_file(const fs::path& folder, const std::string& id) { return folder / "points" / (id + ".log"); }

/// The sweep folder's manifest: what was swept, so that --resume and merge can check it.
json manifest_of(const scenario::Sweep& sweep, const std::string& fingerprint, const Shard& shard) {
  std::vector<std::string> axes, strategies;
  for (const auto& axis : sweep.axes) axes.push_back(axis.name);
  for (const auto& strategy : sweep.base.at("strategies")) {
    strategies.push_back(strategy.value("name", strategy.value("kind", std::string())));
  }
  return {{"schema_version", 1}, {"kind", "slicewise-sweep"}, {"name", sweep.name}, {"fingerprint", fingerprint},
          {"axes", axes}, {"strategies", strategies}, {"num_points", scenario::num_points(sweep)},
          {"shard", shard.text()}, {"sweep", sweep.document}, {"base", sweep.base},
          // Where the base scenario was, so that a report can resolve its relative price-table path.
          {"base_file", fs::absolute(sweep.base_file).lexically_normal().string()}};
}

std::vector<report::Gate> parse_gates(const std::vector<std::string>& texts, const report::SweepTable& table) {
  std::vector<report::Gate> gates;
  for (const auto& text : texts) gates.push_back(report::parse_gate(text, table));
  return gates;
}

/// Writes results.csv, results.json and junit.xml; returns the exit code the gates give (0 or 3).
int write_outputs(const fs::path& folder, const report::SweepTable& table, const std::vector<report::Gate>& gates, Io io) {
  write_file_atomically(folder / "results.csv", report::sweep_results_csv(table));
  write_file_atomically(folder / "results.json", report::sweep_results_json(table));
  write_file_atomically(folder / "junit.xml", report::sweep_junit_xml(table, gates));
  const auto trips = report::evaluate_gates(table, gates);
  for (const auto& trip : trips) io.err << "gate tripped: " << report::gate_trip_text(table, gates, trip) << "\n";
  return trips.empty() ? 0 : kExitGate;
}

/// In the child: run one point, write its record and result, exit.
[[noreturn]] void run_point_child(const scenario::Sweep& sweep, const scenario::SweepPoint& point,
                                  const calibration::CalibrationProfile& profile, const std::string& fingerprint,
                                  const fs::path& folder, int progress_fd) {
  int code = 0;
  try {
    const auto scenario = scenario::point_scenario(sweep, point);
    FdStreambuf buffer(progress_fd);
    std::ostream progress(&buffer);
    std::ostringstream ignored;
    SimulateOptions options;
    options.progress = ProgressMode::json;
    std::vector<std::size_t> all(scenario.strategies.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    auto result = simulate_strategies(scenario, all, defaults_from(profile), options, Io{ignored, progress});
    if (!result) ::_exit(1);
    result->calibration = record_of(profile);
    const auto roi = report::priced_roi_report(*result, scenario);
    report::SweepPointRecord record;
    record.id = point.id;
    record.index = point.index;
    for (const auto& value : point.values) {
      record.values.push_back(value);
      record.labels.push_back(scenario::value_label(value));
    }
    record.strategies = roi.strategies;
    record.tenants = roi.tenants;
    json document = {{"schema_version", 1}, {"fingerprint", fingerprint}, {"point", report::point_json(record)},
                     {"result", json(*result)}};
    write_file_atomically(point_file(folder, point.id), document.dump(1) + "\n");
  } catch (const Interrupted& e) {  // its strategies' processes are gone; die of the signal as a killed point
    std::signal(e.signal_number(), SIG_DFL);
    ::raise(e.signal_number());
    code = 128 + e.signal_number();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    code = 1;
  }
  std::fflush(stderr);
  ::_exit(code);
}

/// Why a point's child failed: its log (its stderr), and the signal that killed it.
std::string failure_message(const fs::path& folder, const std::string& id, int status) {
  std::string message;
  try {
    message = read_text_file(log_file(folder, id));
  } catch (const Error&) {
  }
  while (!message.empty() && message.back() == '\n') message.pop_back();
  if (WIFSIGNALED(status)) message += (message.empty() ? "" : "\n") + std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (message.empty()) message = "exited with status " + std::to_string(WEXITSTATUS(status));
  return message;
}

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  }
  return text;
}

}  // namespace

fs::path point_file(const fs::path& folder, const std::string& id) { return folder / "points" / (id + ".json"); }

/// Reads a sweep folder's manifest; throws ConfigError when `folder` is not a sweep folder.
json read_manifest(const fs::path& folder) {
  const auto file = folder / "sweep.json";
  if (!fs::is_regular_file(file)) {
    throw ConfigError(folder.string(), "", "not a sweep folder (no sweep.json; `slicewise sweep --out` makes one)");
  }
  json manifest = read_json_file(file);
  auto is = [&](const char* key, const json& value) { return manifest.contains(key) && manifest[key] == value; };
  if (!manifest.is_object() || !is("kind", "slicewise-sweep") || !is("schema_version", 1)) {
    throw ConfigError(file.string(), "", "not a slicewise sweep manifest (expected kind \"slicewise-sweep\", schema_version 1)");
  }
  // Every key the commands use, so that a damaged manifest is named instead of failing inside them.
  Diagnostics problems;
  JsonReader r(manifest, "", problems, file.string());
  r.required_integer("schema_version");
  r.required_string("kind");
  r.required_string("name");
  r.required_string("fingerprint");
  for (const char* key : {"axes", "strategies"}) {
    if (const json* names = r.required_array(key)) {
      for (std::size_t i = 0; i < names->size(); ++i) {
        if (!(*names)[i].is_string()) {
          problems.push_back({file.string(), 0, 0, r.pointer(key) + "/" + std::to_string(i),
                              "expected string (got " + describe_json((*names)[i]) + ")"});
        }
      }
    }
  }
  if (const auto n = r.required_integer("num_points", NumberRange::at_least(1)); n > kMaxManifestPoints) {
    r.error("num_points", "must be <= " + std::to_string(kMaxManifestPoints) + " (got " + std::to_string(n) + ")");
  }
  r.required_string("shard");
  r.required_object("sweep");
  r.required_object("base");
  r.required_string("base_file");
  r.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return manifest;
}

/// The table of every point file in `folder` (only those of `fingerprint`).
void read_points(const fs::path& folder, const std::string& fingerprint, std::size_t num_points,
                 std::map<std::size_t, report::SweepPointRecord>& out) {
  const auto points = folder / "points";
  if (!fs::is_directory(points)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(points)) {
    const auto name = entry.path().filename().string();
    if (entry.is_regular_file() && entry.path().extension() == ".json" && name[0] == 'p') files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const json document = read_json_file(file);
    const json* found = document.is_object() && document.contains("fingerprint") ? &document["fingerprint"] : nullptr;
    if (!found || !found->is_string() || found->get<std::string>() != fingerprint) {
      throw ConfigError(file.string(), "/fingerprint",
                        "belongs to another sweep (fingerprint " +
                            (found ? (found->is_string() ? found->get<std::string>() : describe_json(*found)) : std::string("none")) +
                            ", expected " + fingerprint + ")");
    }
    if (!document.contains("point")) throw ConfigError(file.string(), "/", "missing required key \"point\"");
    const json point = document.at("point");  // a copy: nlohmann's pointers in messages start at it
    auto record = report::point_from_json(point, file.string(), "/point");
    if (record.index >= num_points) {
      throw ConfigError(file.string(), "/point/index",
                        "must be < " + std::to_string(num_points) + ", the sweep's number of points (got " +
                            std::to_string(record.index) + ")");
    }
    if (record.id != scenario::sweep_point_id(record.index)) {
      throw ConfigError(file.string(), "/point/id",
                        "must be \"" + scenario::sweep_point_id(record.index) + "\" for index " +
                            std::to_string(record.index) + " (got \"" + record.id + "\")");
    }
    if (file.stem().string() != record.id) {
      throw ConfigError(file.string(), "/point/id", "is \"" + record.id + "\", but the file is " + file.filename().string());
    }
    out[record.index] = std::move(record);
  }
}

report::SweepTable table_of(const json& manifest, const std::map<std::size_t, report::SweepPointRecord>& points) {
  report::SweepTable table;
  table.name = manifest.at("name").get<std::string>();
  table.fingerprint = manifest.at("fingerprint").get<std::string>();
  table.axes = manifest.at("axes").get<std::vector<std::string>>();
  table.strategies = manifest.at("strategies").get<std::vector<std::string>>();
  table.num_points = manifest.at("num_points").get<std::size_t>();
  for (const auto& [index, record] : points) table.points.push_back(record);
  return table;
}

CLI::App* setup_sweep(CLI::App& app, SweepOptions& options) {
  auto* sub = app.add_subcommand("sweep", "Run every point of a sweep (a base scenario plus axes), N at a time");
  sub->add_option("sweep", options.file, "Sweep JSON file (docs/sweeps.md)")->required();
  sub->add_option("--out", options.out, "Sweep folder: points/, results.csv, results.json, junit.xml")->required();
  sub->add_option("--jobs", options.jobs, "Points run at once, one process each")->check(CLI::Range(1, 256));
  sub->add_option("--shard", options.shard, "Run only shard K of N (points whose index % N == K - 1); join with merge");
  sub->add_flag("--resume", options.resume, "Continue a sweep folder: keep the points already done, run the rest");
  sub->add_option("--progress", options.progress, "Progress on stderr: bar, json or none; default: bar on a terminal")
      ->transform(progress_transform());
  sub->add_option("--fail-if", options.fail_if,
                  "Gate, e.g. 'sla_violation_rate > 0.01' or 'mig: p99_s[llm-8b] >= 2': exit 3 when a row matches; repeatable");
  return sub;
}

int run_sweep(const SweepOptions& given, Io io) {
  SweepOptions options = given;
  if (options.progress == ProgressMode::automatic) {
    options.progress = ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::none;
  }
  const Shard shard = parse_shard(options.shard);
  const auto sweep = scenario::load_sweep(options.file);
  const std::string fingerprint = scenario::sweep_fingerprint(sweep);
  const json manifest = manifest_of(sweep, fingerprint, shard);
  const fs::path folder = options.out;
  // Gates are checked before anything runs (metric names against the base scenario's tenants).
  {
    report::SweepTable probe = table_of(manifest, {});
    for (const auto& tenant : sweep.base.at("tenants")) {
      report::SweepPointRecord p;
      report::TenantRow row;
      row.tenant = tenant.value("name", "");
      p.tenants.push_back(row);
      probe.points.push_back(p);
    }
    parse_gates(options.fail_if, probe);
  }

  if (fs::exists(folder / "sweep.json")) {
    const json existing = read_manifest(folder);
    if (!options.resume) {
      throw ConfigError(folder.string(), "", "already holds a sweep; pass --resume to continue it, or choose another --out");
    }
    if (existing.value("fingerprint", "") != fingerprint) {
      throw ConfigError(folder.string(), "",
                        "holds a different sweep (fingerprint " + existing.value("fingerprint", std::string()) + ", this one " +
                            fingerprint + "): the sweep file, its base scenario or its calibration changed; use another --out");
    }
    if (existing.value("shard", "") != shard.text()) {
      throw ConfigError(folder.string(), "", "holds shard " + existing.value("shard", std::string()) + ", not " + shard.text());
    }
  } else if (fs::exists(folder) && !fs::is_empty(folder)) {
    throw ConfigError(folder.string(), "", "exists and is not a sweep folder; choose an empty or new --out");
  }
  create_folder(folder / "points");
  write_file_atomically(folder / "sweep.json", manifest.dump(1) + "\n");

  const auto profile = sweep.calibration.empty() ? calibration::CalibrationProfile::shipped()
                                                 : calibration::CalibrationProfile::load(sweep.calibration);
  std::map<std::size_t, report::SweepPointRecord> done;
  read_points(folder, fingerprint, scenario::num_points(sweep), done);
  std::vector<scenario::SweepPoint> todo;
  std::size_t in_shard = 0;
  for (std::size_t i = 0; i < scenario::num_points(sweep); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(shard.n)) != shard.k - 1) continue;
    ++in_shard;
    if (!done.count(i)) todo.push_back(scenario::sweep_point(sweep, i));
  }
  if (options.progress != ProgressMode::none && !done.empty()) {
    io.err << "resuming: " << done.size() << " of " << in_shard << " points already done\n";
  }

  const auto started = std::chrono::steady_clock::now();
  std::map<std::size_t, std::vector<double>> running;  // slot in `todo` -> per-strategy fractions
  std::map<std::size_t, std::string> failures;  // index -> message
  std::size_t finished = 0;
  std::string last_bar;
  auto show_progress = [&] {
    if (options.progress != ProgressMode::bar) return;
    double partial = 0.0;
    for (const auto& [slot, fractions] : running) {
      double sum = 0.0;
      for (double f : fractions) sum += f;
      partial += fractions.empty() ? 0.0 : sum / static_cast<double>(fractions.size());
    }
    const double total = todo.empty() ? 1.0 : (static_cast<double>(finished) + partial) / static_cast<double>(todo.size());
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const int filled = static_cast<int>(total * 30.0);
    std::string bar = "sweep [" + std::string(static_cast<std::size_t>(filled), '#') +
                      std::string(static_cast<std::size_t>(30 - filled), ' ') + "] " +
                      std::to_string(done.size() + finished) + "/" + std::to_string(in_shard) + " points, " +
                      std::to_string(running.size()) + " running";
    bar += total > 0.02 ? ", ETA " + clock_text(elapsed / total - elapsed) : ", ETA --:--";
    if (bar == last_bar) return;
    last_bar = bar;
    io.err << "\r" << bar << "\033[K" << std::flush;
  };
  auto emit_json = [&](json line) {
    if (options.progress == ProgressMode::json) io.err << line.dump() << "\n" << std::flush;
  };

  ChildPool::Jobs jobs;
  jobs.num_jobs = todo.size();
  jobs.max_running = options.jobs;
  jobs.own_process_group = true;  // so that an interrupted sweep stops the strategies' processes too
  jobs.work = [&](std::size_t slot, int fd) {
    const int log = ::open(log_file(folder, todo[slot].id).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log >= 0) ::dup2(log, STDERR_FILENO);
    run_point_child(sweep, todo[slot], profile, fingerprint, folder, fd);
  };
  jobs.on_start = [&](std::size_t slot) {
    running[slot];
    emit_json({{"event", "point_start"}, {"point", todo[slot].id}, {"values", scenario::point_label(sweep, todo[slot])}});
  };
  jobs.on_line = [&](std::size_t slot, const std::string& text) {
    const json line = json::parse(text, nullptr, false);
    if (!line.is_object() || line.value("event", "") != "progress") return;  // not "done" lines
    auto& fractions = running[slot];
    fractions.resize(line.value("of", std::size_t{1}), 0.0);
    const auto index = line.value("index", std::size_t{0});
    if (index < fractions.size()) fractions[index] = line.value("fraction", 0.0);
  };
  jobs.on_exit = [&](std::size_t slot, int status) {
    running.erase(slot);
    const auto& point = todo[slot];
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(point_file(folder, point.id));
    if (ok) {
      std::error_code ignored;
      fs::remove(log_file(folder, point.id), ignored);
    } else {
      failures[point.index] = failure_message(folder, point.id, status);
    }
    ++finished;
    emit_json({{"event", "point_done"}, {"point", point.id}, {"ok", ok}, {"done", done.size() + finished},
               {"of", in_shard}});
  };
  jobs.on_wait = show_progress;
  io.out.flush();
  io.err.flush();
  int interrupted = 0;
  {
    ChildPool pool;
    interrupted = pool.run(jobs);
  }
  if (options.progress == ProgressMode::bar) io.err << "\n";

  // The outputs cover every point of this folder that is done, old and new.
  done.clear();
  read_points(folder, fingerprint, scenario::num_points(sweep), done);
  for (const auto& [index, message] : failures) {
    report::SweepPointRecord record;
    const auto point = scenario::sweep_point(sweep, index);
    record.id = point.id;
    record.index = index;
    for (const auto& value : point.values) {
      record.values.push_back(value);
      record.labels.push_back(scenario::value_label(value));
    }
    record.error = message;
    done[index] = std::move(record);
  }
  const auto table = table_of(manifest, done);
  const auto gates = parse_gates(options.fail_if, table);
  const int gate_code = write_outputs(folder, table, gates, io);
  for (const auto& [index, message] : failures) {
    const auto point = scenario::sweep_point(sweep, index);
    io.err << "slicewise sweep: point " << point.id << " (" << scenario::point_label(sweep, point) << ") failed:\n"
           << message << "\n";
  }
  if (interrupted != 0) {
    io.err << "slicewise sweep: interrupted; " << done.size() - failures.size() << " of " << in_shard
           << " points are done and kept. Run again with --resume to finish.\n";
    return 128 + interrupted;
  }
  io.out << sweep.name << ": " << done.size() - failures.size() << " of " << in_shard << " points done"
         << (shard.n > 1 ? " (shard " + shard.text() + " of " + std::to_string(scenario::num_points(sweep)) + " points)" : "")
         << "; " << (folder / "results.csv").string() << ", " << (folder / "junit.xml").string() << "\n";
  if (!failures.empty()) return 1;
  return gate_code;
}

CLI::App* setup_merge(CLI::App& app, MergeOptions& options) {
  auto* sub = app.add_subcommand("merge", "Join the folders of a sharded sweep into one");
  sub->add_option("folders", options.folders, "Sweep folders (shards of one sweep)")->required();
  sub->add_option("--out", options.out, "Merged sweep folder")->required();
  sub->add_option("--fail-if", options.fail_if, "Gate, as for sweep; repeatable");
  return sub;
}

int run_merge(const MergeOptions& options, Io io) {
  const fs::path out = options.out;
  json manifest;
  std::map<std::size_t, report::SweepPointRecord> points;
  std::map<std::size_t, fs::path> sources;
  for (const auto& name : options.folders) {
    const fs::path folder = name;
    if (fs::exists(out) && fs::exists(folder) && fs::equivalent(folder, out)) {
      throw ConfigError(folder.string(), "", "is also the --out folder; merge into a new folder");
    }
    const json m = read_manifest(folder);
    if (manifest.is_null()) {
      manifest = m;
    } else if (m.value("fingerprint", "") != manifest.value("fingerprint", "")) {
      throw ConfigError(folder.string(), "",
                        "is a different sweep (fingerprint " + m.value("fingerprint", std::string()) + ") than " +
                            options.folders.front() + " (" + manifest.value("fingerprint", std::string()) + ")");
    }
    std::map<std::size_t, report::SweepPointRecord> these;
    read_points(folder, manifest.at("fingerprint").get<std::string>(), manifest.at("num_points").get<std::size_t>(), these);
    for (auto& [index, record] : these) {
      if (points.count(index)) {
        // The same point run twice (overlapping shards) must agree: results are deterministic.
        if (report::point_json(points[index]) != report::point_json(record)) {
          throw ConfigError(folder.string(), "", "point " + record.id + " differs from the one in " + sources[index].string());
        }
        continue;
      }
      sources[index] = folder;
      points[index] = std::move(record);
    }
  }
  if (fs::exists(out / "sweep.json")) {
    if (read_manifest(out).value("fingerprint", "") != manifest.value("fingerprint", "")) {
      throw ConfigError(out.string(), "", "already holds a different sweep; choose another --out");
    }
  } else if (fs::exists(out) && !fs::is_empty(out)) {
    throw ConfigError(out.string(), "", "exists and is not a sweep folder; choose an empty or new --out");
  }
  create_folder(out / "points");
  manifest["shard"] = "1/1";
  write_file_atomically(out / "sweep.json", manifest.dump(1) + "\n");
  for (const auto& [index, folder] : sources) {
    const auto& id = points[index].id;
    if (fs::exists(out) && fs::equivalent(folder, out)) continue;
    write_file_atomically(point_file(out, id), read_text_file(point_file(folder, id)));
  }
  const auto table = table_of(manifest, points);
  const auto gates = parse_gates(options.fail_if, table);
  const int gate_code = write_outputs(out, table, gates, io);
  const auto total = manifest.at("num_points").get<std::size_t>();
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < total; ++i) {
    if (!points.count(i)) missing.push_back(scenario::sweep_point_id(i));
  }
  io.out << manifest.value("name", std::string()) << ": merged " << points.size() << " of " << total << " points from "
         << options.folders.size() << " folder(s) into " << out.string() << "\n";
  if (!missing.empty()) {
    io.err << "slicewise merge: " << missing.size() << " of " << total << " points missing: "
           << join(std::vector<std::string>(missing.begin(), missing.begin() + static_cast<long>(std::min<std::size_t>(missing.size(), 20))), ", ")
           << (missing.size() > 20 ? ", ..." : "") << " (a shard not run or not finished; rerun it with --resume)\n";
    return 1;
  }
  return gate_code;
}

}  // namespace slicewise::cli
