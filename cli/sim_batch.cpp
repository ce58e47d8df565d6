// Simulations in child processes and the sizing driver (sim_batch.hpp).
#include "cli/sim_batch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/child_pool.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "scenario/result_json.hpp"  // IWYU pragma: keep (to_json and from_json(StrategyResult), found by ADL)
#include "scenario/validate.hpp"
#include "sim/simulation.hpp"
#include "traces/line_reader.hpp"

namespace slicewise::cli {

namespace {

/// In the child: run one job, write its result, report progress lines "simulated stop\n"; a
/// failure is one line "error " + its message as a JSON string, which the parent prints.
[[noreturn]] void run_child(const SimJob& job, const models::SharingDefaults& defaults, const std::string& result_file,
                            int progress_fd) {
  int code = 0;
  try {
    sim::RunOptions options;
    options.strategy_index = static_cast<int>(job.strategy);
    options.defaults = defaults;
    options.sized = job.sized;
    options.progress = [progress_fd](double simulated, double stop) {
      char line[96];
      const int n = std::snprintf(line, sizeof line, "%.9g %.9g\n", simulated, stop);
      if (n > 0) [[maybe_unused]]
        auto written = ::write(progress_fd, line, static_cast<std::size_t>(n));
    };
    const auto result = sim::run_simulation(*job.scenario, options);
    SW_CHECK(result.strategies.size() == 1, "a run gives one strategy");
    // Its strategy alone: the parent holds the scenario. A whole result per strategy carried every
    // strategy of the input, so N strategies cost N^2 to write and read back (1,000: 11 s).
    const nlohmann::json part = result.strategies.front();
    write_file_atomically(result_file, part.dump() + "\n");
  } catch (const std::exception& e) {
    const std::string line =
        "error " + nlohmann::json(e.what()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (::write(progress_fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      std::fprintf(stderr, "%s\n", e.what());  // the pipe failed: say it here rather than not at all
    }
    code = 1;
  }
  std::fflush(stderr);
  ::_exit(code);
}

/// Removes the folders `PREFIX<pid>-*` in $TMPDIR whose process is gone: what a simulate killed
/// outright (SIGKILL, a crash) could not remove itself.
void remove_orphans(const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const auto dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) continue;
    const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code ignored;
    std::filesystem::remove_all(entry.path(), ignored);
  }
}

/// A folder made by mkdtemp in $TMPDIR (default /tmp), named `PREFIX<pid>-XXXXXX`, removed with its
/// contents when this goes out of scope; folders of the same prefix left by dead processes are
/// removed first.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& prefix) {
    remove_orphans(prefix);
    std::string name_template =
        (std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(name_template.data())) {
      throw Error(std::string("cannot create a temporary folder: ") + std::strerror(errno));
    }
    path_ = name_template;
  }
  ~TemporaryFolder() { remove(); }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  void remove() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::filesystem::path path_;
};

/// Takes a line from the child of job `index`: an error message, kept in `errors` unless already
/// there, or progress, passed on to `events`.
void take_child_line(std::size_t index, const std::string& line, std::vector<std::string>& errors,
                     const BatchEvents& events) {
  if (line.starts_with("error ")) {
    const auto message = nlohmann::json::parse(line.substr(6), nullptr, false);
    const std::string text = message.is_string() ? message.get<std::string>() : line.substr(6);
    if (std::find(errors.begin(), errors.end(), text) == errors.end()) errors.push_back(text);
    return;
  }
  double simulated = 0.0;
  double stop = 0.0;
  if (std::sscanf(line.c_str(), "%lf %lf", &simulated, &stop) == 2 && events.progress) {
    events.progress(index, simulated, stop);
  }
}

/// Every trace the jobs replay, decoded once here: the children forked below read these bytes in
/// place instead of each decoding its traces into fresh pages (in a profile of `advise` on
/// examples/fleet-13-tenants.json, 28 % of the time went to the children's LineReader constructors,
/// most of it page faults).
void keep_traces_decoded(const std::vector<SimJob>& jobs) {
  const scenario::Scenario* last = nullptr;
  for (const auto& job : jobs) {
    if (job.scenario == last) continue;
    last = job.scenario;
    for (const auto& tenant : job.scenario->tenants) {
      if (tenant.load.trace_file.empty()) continue;
      traces::keep_decoded(scenario::resolve_relative_path(*job.scenario, tenant.load.trace_file).string());
    }
  }
}

}  // namespace

std::optional<std::vector<scenario::StrategyResult>> run_batch(const std::vector<SimJob>& jobs,
                                                               const models::SharingDefaults& defaults, int max_running,
                                                               const BatchEvents& events, Io io) {
  ChildPool pool;  // before the folder, so that an interrupt is caught until the folder is gone
  TemporaryFolder folder("slicewise-simulate-");
  if (jobs.size() > 1) keep_traces_decoded(jobs);
  auto result_file = [&](std::size_t index) { return folder.file("run-" + std::to_string(index) + ".json"); };
  std::vector<bool> failed(jobs.size(), false);
  std::vector<std::string> errors;  // distinct, in the order they came: a bad trace fails every strategy alike
  ChildPool::Jobs work;
  work.num_jobs = jobs.size();
  work.max_running = max_running;
  work.work = [&](std::size_t index, int fd) { run_child(jobs[index], defaults, result_file(index), fd); };
  work.on_line = [&](std::size_t index, const std::string& line) { take_child_line(index, line, errors, events); };
  work.on_exit = [&](std::size_t index, int status) {
    failed[index] = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (WIFSIGNALED(status)) {  // a crash prints nothing of its own
      const auto& job = jobs[index];
      io.err << "slicewise: strategy \"" << job.scenario->strategies[job.strategy].name << "\" was killed by signal "
             << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")\n";
    }
    if (events.done) events.done(index, !failed[index]);
  };
  io.out.flush();
  io.err.flush();
  const int signal_number = pool.run(work);
  // Where the strategies' own stderr goes (the terminal; a sweep point's log), each message once.
  for (const auto& error : errors) std::fprintf(stderr, "%s\n", error.c_str());
  std::fflush(stderr);
  if (signal_number != 0) throw Interrupted(signal_number);
  if (std::find(failed.begin(), failed.end(), true) != failed.end()) return std::nullopt;

  std::vector<scenario::StrategyResult> results;
  for (std::size_t index = 0; index < jobs.size(); ++index) {
    results.push_back(read_json_file(result_file(index)).get<scenario::StrategyResult>());
  }
  folder.remove();
  if (pool.interrupted() != 0) throw Interrupted(pool.interrupted());  // while reading
  return results;
}

std::string SizingDriver::key(const SimJob& job) {
  std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(job.scenario)) + "/" + std::to_string(job.strategy);
  if (job.sized) {
    const auto& s = *job.sized;
    char text[32];
    key += "/" + std::to_string(s.num_gpus) + (s.balance ? "b" : "p");
    if (s.start_hour) key += "@" + std::to_string(*s.start_hour);
    for (const auto& [tenant, start] : s.window_start_s) {
      std::snprintf(text, sizeof text, "%.17g", start);
      key += "~" + tenant + "=" + text;
    }
    if (!s.balance && s.placement) key += s.placement == scenario::PlacementPolicy::spread ? "s" : "k";
    for (int c : s.contexts) key += "," + std::to_string(c);
    for (double load : s.context_load) {
      std::snprintf(text, sizeof text, ";%.17g", load);
      key += text;
    }
  }
  return key;
}

SizingDriver::RoundRuns SizingDriver::next_round(const std::vector<scenario::SizingSearch*>& searches,
                                                 const std::vector<SimJob>& of_search) const {
  RoundRuns runs;
  for (std::size_t i = 0; i < searches.size(); ++i) {
    if (searches[i]->done()) continue;
    SimJob job = of_search[i];
    job.sized = searches[i]->next();
    const std::string k = key(job);
    runs.asking.emplace_back(i, k);
    if (memo_.count(k) == 0 && std::find(runs.keys.begin(), runs.keys.end(), k) == runs.keys.end()) {
      runs.jobs.push_back(job);
      runs.keys.push_back(k);
      runs.search_of_job.push_back(i);
    }
  }
  return runs;
}

bool SizingDriver::simulate(const RoundRuns& runs, const BatchEvents& events) {
  BatchEvents by_search;  // the caller's events, by search
  if (events.progress) {
    by_search.progress = [&](std::size_t job, double simulated, double stop) {
      events.progress(runs.search_of_job[job], simulated, stop);
    };
  }
  if (events.done) by_search.done = [&](std::size_t job, bool ok) { events.done(runs.search_of_job[job], ok); };
  auto results = run_batch(runs.jobs, defaults_, max_running_, by_search, io_);
  if (!results) return false;
  num_simulations_ += static_cast<int>(runs.jobs.size());
  for (std::size_t j = 0; j < runs.jobs.size(); ++j) memo_.emplace(runs.keys[j], std::move((*results)[j]));
  return true;
}

bool SizingDriver::run(std::vector<scenario::SizingSearch*>& searches, const std::vector<SimJob>& of_search,
                       const std::function<void(std::size_t)>& round, const BatchEvents& events) {
  SW_CHECK(searches.size() == of_search.size(), "one job template per search");
  for (;;) {
    const RoundRuns runs = next_round(searches, of_search);
    if (runs.asking.empty()) return true;
    if (round) round(runs.jobs.size());
    if (!runs.jobs.empty() && !simulate(runs, events)) return false;
    num_reused_ += static_cast<int>(runs.asking.size() - runs.jobs.size());
    for (const auto& [i, k] : runs.asking) searches[i]->feed(memo_.at(k));
  }
}

namespace {

/// Fills `record`'s hourly fleets from the searches of each group of hours (`found[g]`); an hour
/// whose search found no fleet keeps the peak's.
void fill_hourly(scenario::SizingRecord& record, const std::vector<std::vector<int>>& groups,
                 const scenario::SizingSearch* found) {
  record.hourly.assign(24, {});
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& at = found[g].record();
    for (const int h : groups[g]) {
      auto& hour = record.hourly[static_cast<std::size_t>(h)];
      hour.hour = h;
      hour.feasible = at.feasible;
      hour.num_gpus = at.feasible ? at.num_gpus : record.num_gpus;
      hour.contexts = at.feasible ? at.contexts : record.contexts;
      hour.pools = at.feasible ? at.pools : record.pools;
    }
  }
}

}  // namespace

bool size_every_hour(const scenario::Scenario& scenario,
                     const std::vector<std::pair<std::size_t, scenario::StrategyResult*>>& sized,
                     SizingDriver& driver) {
  const auto groups = scenario::hour_groups(scenario);
  if (groups.empty()) return true;
  const auto catalogs = scenario::Catalogs::shipped();
  std::vector<std::pair<scenario::StrategyResult*, std::size_t>> owners;  // (result, its first search)
  std::vector<scenario::SizingSearch> searches;
  searches.reserve(sized.size() * groups.size());
  std::vector<scenario::SizingSearch*> pointers;
  std::vector<SimJob> templates;
  for (const auto& [strategy, result] : sized) {
    if (!result->sizing || !result->sizing->feasible) continue;
    owners.emplace_back(result, searches.size());
    for (const auto& hours : groups) {
      searches.emplace_back(scenario, strategy, result->sizing->num_gpus, catalogs,
                            std::vector<double>{static_cast<double>(hours.front())});
      pointers.push_back(&searches.back());
      templates.push_back(SimJob{&scenario, strategy, std::nullopt});
    }
  }
  if (searches.empty()) return true;
  if (!driver.run(pointers, templates)) return false;
  for (const auto& [result, first] : owners) fill_hourly(*result->sizing, groups, &searches[first]);
  return true;
}

}  // namespace slicewise::cli
