// Helpers for simulation tests: scenarios built in code, and a WRENCH-style fork so that each
// run gets a fresh process (SimGrid allows one Engine per process) even when the whole test
// binary runs in one go.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "core/json_file.hpp"
#include "scenario/result_json.hpp"
#include "scenario/scenario.hpp"
#include "sim/simulation.hpp"

namespace slicewise::test {

/// A generic tenant: `solo_s` per request, saturating demand by default, closed loop of one user.
inline scenario::Tenant generic_tenant(const std::string& name, double solo_s, double sm = 1.0, double bw = 0.0,
                                       double duty = 1.0) {
  scenario::Tenant t;
  t.name = name;
  t.workload.kind = scenario::WorkloadKind::generic;
  t.workload.solo_latency_s = solo_s;
  t.workload.sm_occupancy_frac = sm;
  t.workload.mem_bw_frac = bw;
  t.workload.gpu_duty_frac = duty;
  t.workload.memory_gib = 4.0;
  t.load.kind = scenario::LoadKind::closed_loop;
  t.load.num_users = 1;
  t.load.think_time_s = 0.0;
  return t;
}

/// An LLM tenant on vLLM with its defaults, Poisson load (0.5 a second) of the given request lengths.
inline scenario::Tenant llm_tenant(const std::string& name, const std::string& model, double prompt, double output) {
  auto t = generic_tenant(name, 0.0);
  t.workload = scenario::Workload{};
  t.workload.kind = scenario::WorkloadKind::llm;
  t.workload.llm = scenario::LlmSpec{model, "bf16", prompt, output, std::nullopt};
  t.workload.engine = scenario::EngineSpec{};
  t.load.kind = scenario::LoadKind::poisson;
  t.load.rate_per_s = 0.5;
  return t;
}

inline scenario::StrategySpec strategy(models::StrategyKind kind, const std::string& layout = "") {
  scenario::StrategySpec s;
  s.kind = kind;
  s.name = models::to_string(kind);
  s.layout = layout;
  return s;
}

/// A scenario on `count` GPUs of one model, priced from the AWS table (never used here).
inline scenario::Scenario make_scenario(const std::string& gpu, int count, double horizon_s) {
  scenario::Scenario s;
  s.name = "test";
  s.seed = 7;
  s.horizon_s = horizon_s;
  s.metrics_interval_s = horizon_s / 10.0;
  s.fleet.push_back({gpu, "", count, {}});
  return s;
}

/// What a run in a child process gave: its result, or the message of the error it threw.
struct ChildRun {
  std::optional<scenario::SimResult> result;
  std::string error;
};

/// Runs one strategy with `options` in a child process.
inline ChildRun run_in_child(const scenario::Scenario& s, const sim::RunOptions& options) {
  const auto stem = std::filesystem::temp_directory_path() /
                    ("sw_sim_test_" + std::to_string(::getpid()) + "_" + std::to_string(options.strategy_index));
  const auto file = stem.string() + ".json";
  const auto error_file = stem.string() + ".error";
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 0;
    try {
      write_file_atomically(file, scenario::result_to_text(sim::run_simulation(s, options)));
    } catch (const std::exception& e) {
      write_file_atomically(error_file, e.what());
      code = 1;
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildRun run;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    run.result = scenario::load_result(file);
    std::filesystem::remove(file);
  } else if (std::filesystem::exists(error_file)) {
    run.error = read_text_file(error_file);
    std::filesystem::remove(error_file);
  } else {
    run.error = "the child died (status " + std::to_string(status) + ")";
  }
  return run;
}

/// Runs one strategy in a child process and returns its result.
inline scenario::SimResult simulate(const scenario::Scenario& s, int strategy_index = 0, double drain_factor = 2.0,
                                    const std::optional<scenario::SizedRun>& sized = std::nullopt,
                                    const models::SharingDefaults& defaults = {}) {
  sim::RunOptions options;
  options.strategy_index = strategy_index;
  options.drain_factor = drain_factor;
  options.sized = sized;
  options.defaults = defaults;
  auto run = run_in_child(s, options);
  EXPECT_TRUE(run.result) << "simulation failed: " << run.error;
  return run.result ? std::move(*run.result) : scenario::SimResult{};
}

/// Sizes strategy `strategy_index` for SLA (scenario/sizing.hpp), each run in a child process.
/// Sizes strategy `strategy_index` for SLA in-process (at `hours` of day instead of the diurnal
/// loads' peaks when given).
inline scenario::SizingSearch size_for_sla(const scenario::Scenario& s, int strategy_index, int max_gpus,
                                           std::vector<double> hours = {}) {
  scenario::SizingSearch search(s, static_cast<std::size_t>(strategy_index), max_gpus, scenario::Catalogs::shipped(),
                                std::move(hours));
  while (auto run = search.next()) search.feed(simulate(s, strategy_index, 2.0, run).strategies.at(0));
  return search;
}

}  // namespace slicewise::test
