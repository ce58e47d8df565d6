// The parent side of a sweep's points: a ChildPool runs one child per point (cli/sweep_point_child)
// and its callbacks keep the progress (a bar, or JSON lines with --progress json) and the failures.
#include "cli/sweep_runner.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/child_pool.hpp"
#include "cli/progress_meter.hpp"
#include "cli/sweep_folder.hpp"
#include "cli/sweep_point_child.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path log_file(const fs::path& folder, const std::string& id) { return folder / "points" / (id + ".log"); }

/// Why a point's child failed: its log (its stderr), and the signal that killed it.
std::string failure_message(const fs::path& folder, const std::string& id, int status) {
  std::string message;
  try {
    message = read_text_file(log_file(folder, id));
  } catch (const Error&) {
  }
  while (!message.empty() && message.back() == '\n') message.pop_back();
  if (WIFSIGNALED(status))
    message += (message.empty() ? "" : "\n") + std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (message.empty()) message = "exited with status " + std::to_string(WEXITSTATUS(status));
  return message;
}

/// One run of the points: the pool's callbacks and the progress they keep.
class SweepRunner {
 public:
  SweepRunner(const SweepRunSetup& setup, Io io) : setup_(setup), io_(io), meter_(setup.progress, io.err, "sweep") {}

  SweepRunOutcome run() {
    ChildPool::Jobs jobs;
    jobs.num_jobs = setup_.todo.size();
    jobs.max_running = setup_.max_running;
    jobs.own_process_group = true;  // so that an interrupted sweep stops the strategies' processes too
    jobs.work = [this](std::size_t slot, int fd) { work(slot, fd); };
    jobs.on_start = [this](std::size_t slot) { on_start(slot); };
    jobs.on_line = [this](std::size_t slot, const std::string& text) { on_line(slot, text); };
    jobs.on_exit = [this](std::size_t slot, int status) { on_exit(slot, status); };
    jobs.on_wait = [this] { show_progress(); };
    io_.out.flush();
    io_.err.flush();
    SweepRunOutcome outcome;
    {
      ChildPool pool;
      outcome.interrupted = pool.run(jobs);
    }
    meter_.close();
    outcome.failures = std::move(failures_);
    return outcome;
  }

 private:
  /// In the child: its stderr into the point's log, then the point.
  [[noreturn]] void work(std::size_t slot, int fd) const {
    const int log =
        ::open(log_file(setup_.folder, setup_.todo[slot].id).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log >= 0) ::dup2(log, STDERR_FILENO);
    run_point_child(setup_.sweep, setup_.todo[slot], setup_.profile, setup_.fingerprint, setup_.folder, fd);
  }

  void on_start(std::size_t slot) {
    running_[slot];
    emit_json({{"event", "point_start"},
               {"point", setup_.todo[slot].id},
               {"values", scenario::point_label(setup_.sweep, setup_.todo[slot])}});
  }

  /// A child's "progress" line: one strategy's fraction done (its other lines are ignored).
  void on_line(std::size_t slot, const std::string& text) {
    const json line = json::parse(text, nullptr, false);
    if (!line.is_object() || line.value("event", "") != "progress") return;  // not "done" lines
    auto& fractions = running_[slot];
    fractions.resize(line.value("of", std::size_t{1}), 0.0);
    const auto index = line.value("index", std::size_t{0});
    if (index < fractions.size()) fractions[index] = line.value("fraction", 0.0);
  }

  void on_exit(std::size_t slot, int status) {
    running_.erase(slot);
    const auto& point = setup_.todo[slot];
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(point_file(setup_.folder, point.id));
    if (ok) {
      std::error_code ignored;
      fs::remove(log_file(setup_.folder, point.id), ignored);
    } else {
      failures_[point.index] = failure_message(setup_.folder, point.id, status);
    }
    ++num_finished_;
    show_progress();
    json line{{"event", "point_done"},
              {"point", point.id},
              {"ok", ok},
              {"done", setup_.num_done_before + num_finished_},
              {"of", setup_.num_in_shard}};
    meter_.annotate(line);
    emit_json(line);
  }

  void emit_json(const json& line) const {
    if (setup_.progress == ProgressMode::json) io_.err << line.dump() << "\n" << std::flush;
  }

  /// The fraction of this run's points done, the running ones counted by their strategies' progress.
  double fraction_done() const {
    double partial = 0.0;
    for (const auto& [slot, fractions] : running_) {
      double sum = 0.0;
      for (double f : fractions) sum += f;
      // A point whose strategies are all done still writes its result: 95 % until it exits.
      partial += fractions.empty() ? 0.0 : 0.95 * sum / static_cast<double>(fractions.size());
    }
    return setup_.todo.empty()
               ? 1.0
               : (static_cast<double>(num_finished_) + partial) / static_cast<double>(setup_.todo.size());
  }

  /// Redraws the bar (with --progress bar): the points done and running, the time elapsed and left.
  void show_progress() {
    meter_.update(fraction_done(), std::to_string(setup_.num_done_before + num_finished_) + "/" +
                                       std::to_string(setup_.num_in_shard) + " points, " +
                                       std::to_string(running_.size()) + " running");
  }

  const SweepRunSetup& setup_;
  Io io_;
  ProgressMeter meter_;
  std::map<std::size_t, std::vector<double>> running_;  // slot in `todo` -> per-strategy fractions
  std::map<std::size_t, std::string> failures_;         // point index -> message
  std::size_t num_finished_ = 0;
  std::string last_bar_;
};

}  // namespace

SweepRunOutcome run_sweep_points(const SweepRunSetup& setup, Io io) { return SweepRunner(setup, io).run(); }

}  // namespace slicewise::cli
