// `slicewise sweep SWEEP.json --out DIR` (docs/sweeps.md). Every point runs in its own child
// process (SimGrid allows one engine per process), N at a time (cli/sweep_runner); each writes
// DIR/points/<id>.json atomically when it is done, so a killed sweep resumes where it stopped. The
// parent keeps the progress bar and writes results.csv, results.json and junit.xml.
#include <unistd.h>

#include <algorithm>
#include <map>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/sweep_emit.hpp"
#include "cli/sweep_folder.hpp"
#include "cli/sweep_outputs.hpp"
#include "cli/sweep_point_child.hpp"
#include "cli/sweep_runner.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "report/sweep_results.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// `--shard K/N`: this run does the points whose index % N == K - 1.
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
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    value = std::stoi(digits);
    return true;
  };
  const auto slash = text.find('/');
  const bool numbers =
      slash != std::string::npos && read(text.substr(0, slash), shard.k) && read(text.substr(slash + 1), shard.n);
  if (numbers && shard.k == 0 && shard.n >= 1) {
    // A 0-based index (a Slurm array task, a Kubernetes completion index) given to the 1-based form.
    const std::string n = std::to_string(shard.n);
    throw ConfigError("--shard", "",
                      "K counts from 1 (1/" + n + " to " + n + "/" + n + "; got \"" + text +
                          "\"); a 0-based index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) goes to --shards " + n +
                          " --shard-index 0");
  }
  if (!numbers || shard.n < 1 || shard.k < 1 || shard.k > shard.n) {
    throw ConfigError("--shard", "", "expected K/N with 1 <= K <= N, e.g. 2/4 (got \"" + text + "\")");
  }
  return shard;
}

/// The shard this run does: `--shard K/N` (1-based), or `--shards N --shard-index I` (0-based, as
/// SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX count), which names the same shard as K = I + 1.
Shard shard_of(const SweepOptions& options) {
  if (options.shard_index < 0 && options.shards == 0) return parse_shard(options.shard);
  if (options.shard_index < 0) {
    throw ConfigError(
        "--shards", "",
        "runs one shard only with --shard-index I (0-based), e.g. --shards 4 --shard-index \"$SLURM_ARRAY_TASK_ID\"; "
        "or writes the job files with --emit slurm|k8s");
  }
  if (options.shards == 0) throw ConfigError("--shard-index", "", "needs --shards N, the number of shards");
  if (options.shard_index >= options.shards) {
    throw ConfigError("--shard-index", "",
                      "must be 0.." + std::to_string(options.shards - 1) + " for --shards " +
                          std::to_string(options.shards) + " (got " + std::to_string(options.shard_index) + ")");
  }
  return {options.shard_index + 1, options.shards};
}

/// The sweep folder's manifest: what was swept, so that --resume and merge can check it.
json manifest_of(const scenario::Sweep& sweep, const std::string& fingerprint, const Shard& shard) {
  std::vector<std::string> axes, strategies;
  for (const auto& axis : sweep.axes) axes.push_back(axis.name);
  for (const auto& strategy : sweep.base.at("strategies")) {
    strategies.push_back(strategy.value("name", strategy.value("kind", std::string())));
  }
  return {{"schema_version", 1},
          {"kind", "slicewise-sweep"},
          {"name", sweep.name},
          {"fingerprint", fingerprint},
          {"axes", axes},
          {"strategies", strategies},
          {"num_points", scenario::num_points(sweep)},
          {"shard", shard.text()},
          {"sweep", sweep.document},
          {"base", sweep.base},
          // Where the base scenario was, so that a report can resolve its relative price-table path.
          {"base_file", fs::absolute(sweep.base_file).lexically_normal().string()}};
}

/// Checks the gates before anything runs: their metric names against the base scenario's tenants.
void check_gates(const scenario::Sweep& sweep, const json& manifest, const std::vector<std::string>& fail_if) {
  report::SweepTable probe = table_of(manifest, {});
  for (const auto& tenant : sweep.base.at("tenants")) {
    report::SweepPointRecord p;
    report::TenantRow row;
    row.tenant = tenant.value("name", "");
    p.tenants.push_back(row);
    probe.points.push_back(p);
  }
  parse_gates(fail_if, probe);
}

/// Makes `folder` ready for the sweep: new or empty, or (with --resume) holding this very sweep and
/// shard; then writes its points/ folder and manifest.
void prepare_folder(const fs::path& folder, const json& manifest, const std::string& fingerprint, const Shard& shard,
                    bool resume) {
  if (fs::exists(folder / "sweep.json")) {
    const json existing = read_manifest(folder);
    if (!resume) {
      throw ConfigError(folder.string(), "",
                        "already holds a sweep; pass --resume to continue it, or choose another --out");
    }
    if (existing.value("fingerprint", "") != fingerprint) {
      throw ConfigError(folder.string(), "",
                        "holds a different sweep (fingerprint " + existing.value("fingerprint", std::string()) +
                            ", this one " + fingerprint +
                            "): the sweep file, its base scenario or its calibration changed; use another --out");
    }
    if (existing.value("shard", "") != shard.text()) {
      throw ConfigError(folder.string(), "",
                        "holds shard " + existing.value("shard", std::string()) + ", not " + shard.text());
    }
  } else if (fs::exists(folder) && !fs::is_empty(folder)) {
    throw ConfigError(folder.string(), "", "exists and is not a sweep folder; choose an empty or new --out");
  }
  create_sweep_folder(folder);
  write_file_atomically(folder / "sweep.json", manifest.dump(1) + "\n");
}

/// The shard's points: those already done (in the folder) and those still to run.
struct ShardPlan {
  std::map<std::size_t, report::SweepPointRecord> done;  ///< by index
  std::vector<scenario::SweepPoint> todo;                ///< in index order
  std::size_t num_in_shard = 0;
};

ShardPlan plan_shard(const scenario::Sweep& sweep, const fs::path& folder, const std::string& fingerprint,
                     const Shard& shard) {
  ShardPlan plan;
  read_points(folder, fingerprint, scenario::num_points(sweep), plan.done);
  for (std::size_t i = 0; i < scenario::num_points(sweep); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(shard.n)) != shard.k - 1) continue;
    ++plan.num_in_shard;
    if (!plan.done.count(i)) plan.todo.push_back(scenario::sweep_point(sweep, i));
  }
  return plan;
}

/// Every point of the folder that is done, old and new, plus a record of each point that failed.
std::map<std::size_t, report::SweepPointRecord> finished_points(const scenario::Sweep& sweep, const fs::path& folder,
                                                                const std::string& fingerprint,
                                                                const std::map<std::size_t, std::string>& failures) {
  std::map<std::size_t, report::SweepPointRecord> points;
  read_points(folder, fingerprint, scenario::num_points(sweep), points);
  for (const auto& [index, message] : failures) {
    report::SweepPointRecord record = point_record(scenario::sweep_point(sweep, index));
    record.error = message;
    points[index] = std::move(record);
  }
  return points;
}

void print_failures(const scenario::Sweep& sweep, const std::map<std::size_t, std::string>& failures, Io io) {
  for (const auto& [index, message] : failures) {
    const auto point = scenario::sweep_point(sweep, index);
    io.err << "slicewise sweep: point " << point.id << " (" << scenario::point_label(sweep, point) << ") failed:\n"
           << message << "\n";
  }
}

/// The command line that writes `options`' job files, for their header comments: the same files
/// whoever typed it and however.
std::string emit_command(const SweepOptions& options) {
  std::string text = "slicewise sweep " + shell_quote(options.file) + " --emit " + options.emit + " --shards " +
                     std::to_string(options.shards) + " --out " + shell_quote(options.out);
  if (options.jobs != 1) text += " --jobs " + std::to_string(options.jobs);
  if (!options.image.empty()) text += " --image " + shell_quote(options.image);
  for (const auto& gate : options.fail_if) text += " --fail-if " + shell_quote(gate);
  return text;
}

/// Makes `folder` ready for a job's files: new or empty, or holding this very job (same engine,
/// sweep and shard count), whose scripts are then written again and whose shards are kept.
void prepare_job_folder(const fs::path& folder, const DistributedJob& job, const std::string& engine) {
  if (fs::exists(folder) && !fs::is_directory(folder)) throw ConfigError(folder.string(), "", "is not a folder");
  if (fs::exists(folder / "job.json")) {
    const json existing = read_json_file(folder / "job.json");
    const bool same = existing.is_object() && existing.value("kind", "") == "slicewise-distributed-sweep" &&
                      existing.value("engine", "") == engine && existing.value("fingerprint", "") == job.fingerprint &&
                      existing.value("shards", 0) == job.shards;
    if (!same) {
      throw ConfigError(folder.string(), "",
                        "holds the files of another job (engine, sweep or shard count differ; its shard folders would "
                        "not resume): choose another --out");
    }
  } else if (fs::exists(folder) && !fs::is_empty(folder)) {
    throw ConfigError(folder.string(), "", "exists and is not a job folder; choose an empty or new --out");
  }
  fs::create_directories(folder);
}

/// `--emit slurm|k8s`: checks the sweep and its gates as a run would, then writes the job files.
int emit_distributed(const SweepOptions& options, Io io) {
  if (options.shards == 0) {
    throw ConfigError("--emit", "", "needs --shards N, the number of shards (array tasks or completion indexes)");
  }
  if (!options.shard.empty() || options.shard_index >= 0 || options.resume) {
    throw ConfigError("--emit", "",
                      "writes the job files of every shard: leave out --shard, --shard-index and --resume");
  }
  if (!options.image.empty() && options.emit != "k8s") throw ConfigError("--image", "", "applies to --emit k8s only");
  // Each reaches a comment, a manifest or a script of the job files: a line break there (U+2028
  // included, where YAML ends a line) would end the comment and run the rest.
  const auto one_line_only = [](const std::string& option, const std::string& text) {
    if (has_line_break(text)) {
      throw ConfigError(option, "",
                        quoted_excerpt(text) +
                            " holds a control character or a line break (U+0085, U+2028, U+2029), which would "
                            "end a line of the job files");
    }
  };
  one_line_only("sweep", options.file);
  one_line_only("--out", options.out);
  one_line_only("--image", options.image);
  for (const auto& gate : options.fail_if) one_line_only("--fail-if", gate);
  if (options.image.empty() && options.emit == "k8s") {
    throw ConfigError("--image", "",
                      "is needed with --emit k8s: the container image that holds slicewise and the sweep's inputs "
                      "(docs/distributed.md shows how to build one)");
  }
  if (options.progress != ProgressMode::automatic) {
    throw ConfigError("--progress", "",
                      "applies to a sweep that runs here, not to --emit (the shards run with --progress none)");
  }
  const auto sweep = scenario::load_sweep(options.file);
  const std::string fingerprint = scenario::sweep_fingerprint(sweep);
  check_gates(sweep, manifest_of(sweep, fingerprint, Shard{}), options.fail_if);
  const std::size_t num_points = scenario::num_points(sweep);
  if (static_cast<std::size_t>(options.shards) > num_points) {
    throw ConfigError("--shards", "",
                      "is " + std::to_string(options.shards) + " but the sweep has " + std::to_string(num_points) +
                          " points: at most one shard per point");
  }

  DistributedJob job;
  job.engine = options.emit == "slurm" ? JobEngine::slurm : JobEngine::k8s;
  job.sweep_name = sweep.name;
  job.fingerprint = fingerprint;
  job.num_points = num_points;
  job.shards = options.shards;
  job.jobs = options.jobs;
  job.fail_if = options.fail_if;
  job.emitted_by = emit_command(options);
  const fs::path folder = fs::absolute(options.out).lexically_normal();
  if (job.engine == JobEngine::slurm) {
    // The nodes share the file system: absolute paths, the same on every node.
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    job.slicewise = ec ? "slicewise" : self.string();
    job.sweep_file = fs::absolute(options.file).lexically_normal().string();
    job.folder = folder.string();
  } else {
    // The image holds the inputs: the sweep path as given, from the image's working folder.
    job.sweep_file = options.file;
    job.image = options.image;
  }
  prepare_job_folder(folder, job, options.emit);
  const auto files = emit_job(job);
  for (const auto& file : files) {
    write_file_atomically(folder / file.name, file.text);
    if (file.executable) {
      fs::permissions(folder / file.name, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add);
    }
  }
  io.out << sweep.name << ": " << num_points << " points in " << options.shards << " shards; wrote";
  for (const auto& file : files) io.out << " " << file.name;
  io.out << " to " << folder.string() << "\nsubmit with: " << (folder / "submit.sh").string() << "\n";
  return 0;
}

}  // namespace

CLI::App* setup_sweep(CLI::App& app, SweepOptions& options) {
  auto* sub = app.add_subcommand("sweep", "Run every point of a sweep (a base scenario plus axes), N at a time");
  sub->add_option("sweep", options.file, "Sweep JSON file (docs/sweeps.md)")->required();
  sub->add_option("--out", options.out,
                  "Sweep folder: points/, results.csv, results.json, junit.xml (with --emit: the job folder)")
      ->required();
  sub->add_option("--jobs", options.jobs, "Points run at once, one process each")->check(CLI::Range(1, 256));
  auto* shard = sub->add_option("--shard", options.shard,
                                "Run only shard K of N, 1-based (K = 1..N, e.g. 1/4 to 4/4): the points whose index % "
                                "N == K - 1; join with merge. For a 0-based index: --shards N --shard-index I");
  auto* shards = sub->add_option("--shards", options.shards, "Number of shards N, with --shard-index or --emit")
                     ->check(CLI::Range(1, 100000));
  auto* index =
      sub->add_option("--shard-index", options.shard_index,
                      "Run only shard I of --shards N, 0-based (I = 0..N-1): SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX")
          ->check(CLI::Range(0, 99999));
  shard->excludes(shards)->excludes(index);
  one_of(sub->add_option("--emit", options.emit,
                         "Write the job files to --out instead of running: slurm, a job array and a merge job; k8s, "
                         "an Indexed Job and a merge Job"),
         {"slurm", "k8s"});
  sub->add_option("--image", options.image,
                  "--emit k8s: container image with slicewise and the sweep's inputs (needed there)");
  sub->add_flag("--resume", options.resume, "Continue a sweep folder: keep the points already done, run the rest");
  add_progress_option(*sub, options.progress, "Progress on stderr");
  sub->add_option(
      "--fail-if", options.fail_if,
      "Gate, e.g. 'sla_violation_rate > 0.01' or 'mig: p99_s[llm-8b] >= 2': exit 3 when a row matches; repeatable");
  return sub;
}

int run_sweep(const SweepOptions& given, Io io) {
  if (!given.emit.empty()) return emit_distributed(given, io);
  SweepOptions options = given;
  if (options.progress == ProgressMode::automatic) {
    options.progress = ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::none;
  }
  const Shard shard = shard_of(options);
  const auto sweep = scenario::load_sweep(options.file);
  const std::string fingerprint = scenario::sweep_fingerprint(sweep);
  const json manifest = manifest_of(sweep, fingerprint, shard);
  const fs::path folder = options.out;
  check_gates(sweep, manifest, options.fail_if);
  prepare_folder(folder, manifest, fingerprint, shard, options.resume);

  const auto profile = calibration::CalibrationProfile::load_or_shipped(sweep.calibration);
  const ShardPlan plan = plan_shard(sweep, folder, fingerprint, shard);
  if (options.progress != ProgressMode::none && !plan.done.empty()) {
    io.err << "resuming: " << plan.done.size() << " of " << plan.num_in_shard << " points already done\n";
  }
  const SweepRunOutcome run = run_sweep_points({sweep, profile, fingerprint, folder, plan.todo, plan.done.size(),
                                                plan.num_in_shard, options.jobs, options.progress},
                                               io);

  const auto points = finished_points(sweep, folder, fingerprint, run.failures);
  const auto table = table_of(manifest, points);
  const auto gates = parse_gates(options.fail_if, table);
  const int gate_code = write_sweep_outputs(folder, table, gates, io);
  print_failures(sweep, run.failures, io);
  const std::size_t num_ok = points.size() - run.failures.size();
  if (run.interrupted != 0) {
    io.err << "slicewise sweep: interrupted; " << num_ok << " of " << plan.num_in_shard
           << " points are done and kept. Run again with --resume to finish.\n";
    return 128 + run.interrupted;
  }
  io.out << sweep.name << ": " << num_ok << " of " << plan.num_in_shard << " points done"
         << (shard.n > 1 ? " (shard " + shard.text() + " of " + std::to_string(scenario::num_points(sweep)) + " points)"
                         : "")
         << "; " << (folder / "results.csv").string() << ", " << (folder / "junit.xml").string() << "\n";
  if (!run.failures.empty()) return 1;
  return gate_code;
}

}  // namespace slicewise::cli
