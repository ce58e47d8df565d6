// B3 (engine speed issue): how the engine's wall time and peak RSS grow along each axis of a run,
// as the exponent b of a least-squares fit time ∝ x^b over two decades or more of x. The axes:
//
//   requests      B1's 16 tenants on 8 GPUs (MPS), 10^4 → 10^6 requests
//   tenants       10 → 10,000 tenants of about 100 requests each, MPS on N/40 + 1 GPUs
//   gpus-rr       2 tenants with a context on each of 1 → 1,000 GPUs, round-robin routing,
//   gpus-ll         the same with least-loaded routing; 1,000 requests per GPU
//   contexts-ts   2 → 48 always-busy contexts time-sliced on one GPU, 10^5 requests in all
//   contexts-mps  the same under MPS
//   concurrency   one context serving 1 → 100 requests at once (closed loop), 10^5 requests
//
// Along requests, tenants and GPUs the work grows with x, so a linear engine has b ≈ 1. Along
// contexts and concurrency the number of requests is held and the fit is of the time per request:
// every event recomputes the rates of the device's contexts, so a per-event cost linear in the
// contexts gives b ≈ 1, and concurrency (a heap per context) should cost b ≈ 0. Any b above 1.1
// is flagged as a bug (exit status 3). Also printed: the tail exponent (the last two points
// alone, where asymptotic growth shows first, and so do cache misses once the run's working set
// outgrows the caches: docs/benchmarks.md, B3), and along tenants the peak RSS per added tenant.
//
// Each point runs in a child process (SimGrid allows one engine per process); its wall time is
// that of run_simulation alone, its peak RSS the child's (wait4). Medians over --runs runs.
//
//   build/ci/bench/sw_scale_bench [--runs N] [--axis NAME]... [--quick]
//   build/ci/bench/sw_scale_bench --axis NAME --at X     # one point in this process (to profile)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "b1_scenario.hpp"
#include "scenario/scenario.hpp"
#include "sim/simulation.hpp"

namespace {

using namespace slicewise;

constexpr double kBugExponent = 1.1;

/// A generic tenant (duty 0.8, Poisson load unless changed); add_copies names it.
scenario::Tenant generic_tenant(double solo_s, double sm, double bw, double memory_gib) {
  scenario::Tenant tenant;
  tenant.workload.solo_latency_s = solo_s;
  tenant.workload.gpu_duty_frac = 0.8;
  tenant.workload.sm_occupancy_frac = sm;
  tenant.workload.mem_bw_frac = bw;
  tenant.workload.memory_gib = memory_gib;
  return tenant;
}

scenario::StrategySpec strategy(models::StrategyKind kind, int replicas) {
  scenario::StrategySpec spec;
  spec.kind = kind;
  spec.name = models::to_string(kind);
  spec.replicas = replicas;
  return spec;
}

scenario::Scenario base(const std::string& name, double horizon_s, const std::string& gpu, int gpus) {
  scenario::Scenario s;
  s.name = name;
  s.seed = 1;
  s.horizon_s = horizon_s;
  s.metrics_interval_s = horizon_s / 100.0;
  s.fleet.push_back({gpu, "", gpus, {}});
  return s;
}

/// `n` copies of `tenant`, named t0, t1, ...
void add_copies(scenario::Scenario& s, scenario::Tenant tenant, int n) {
  for (int t = 0; t < n; ++t) {
    tenant.name = "t" + std::to_string(t);
    s.tenants.push_back(tenant);
  }
}

/// B1's scenario with about `requests` requests.
scenario::Scenario requests_axis(double requests) {
  return bench::make_b1(requests / (bench::kTenants * bench::kRatePerTenant));
}

/// N light tenants of about 100 requests each (Poisson 0.5/s for 200 s), MPS, 40 per GPU.
scenario::Scenario tenants_axis(double x) {
  const int n = static_cast<int>(x);
  auto s = base("B3 tenants", 200.0, "A100-80GB", n / 40 + 1);
  auto tenant = generic_tenant(0.02, 0.01, 0.01, 1.0);
  tenant.workload.max_concurrency = 64;
  tenant.load.rate_per_s = 0.5;
  add_copies(s, tenant, n);
  s.strategies.push_back(strategy(models::StrategyKind::mps, 0));
  return s;
}

/// Two tenants with a context on each of G GPUs (MPS, two per GPU), 1,000 requests per GPU.
scenario::Scenario gpus_axis(double x, scenario::RouterPolicy router) {
  const int g = static_cast<int>(x);
  auto s = base("B3 gpus", 100.0, "A100-80GB", g);
  auto tenant = generic_tenant(0.05, 0.2, 0.2, 8.0);
  tenant.workload.max_concurrency = 4;
  tenant.num_contexts = g;
  tenant.router = router;
  tenant.load.rate_per_s = 5.0 * g;
  add_copies(s, tenant, 2);
  s.strategies.push_back(strategy(models::StrategyKind::mps, 2));
  return s;
}

/// M tenants of one always-busy user each (closed loop, no think time) on one GPU: every context
/// is active at every event. The horizon holds the requests near 10^5 (the GPU serves about one
/// request per 8 ms of GPU work whatever M).
scenario::Scenario contexts_axis(double x, models::StrategyKind kind) {
  const int m = static_cast<int>(x);
  auto s = base("B3 contexts", 800.0, "A100-80GB", 1);
  auto tenant = generic_tenant(0.01, 0.5, 0.3, 1.0);
  tenant.load.kind = scenario::LoadKind::closed_loop;
  tenant.load.num_users = 1;
  add_copies(s, tenant, m);
  s.strategies.push_back(strategy(kind, m));
  return s;
}

/// One tenant whose C users (closed loop, no think time) keep C requests in service at once.
scenario::Scenario concurrency_axis(double x) {
  const int c = static_cast<int>(x);
  // C requests at a time, each at about solo speed while the SMs last: 10^5 requests take about
  // 10^5 × 0.01 / C seconds.
  auto s = base("B3 concurrency", 1e5 * 0.01 / c, "A100-80GB", 1);
  auto tenant = generic_tenant(0.01, 0.001, 0.001, 1.0);
  tenant.workload.max_concurrency = c;
  tenant.load.kind = scenario::LoadKind::closed_loop;
  tenant.load.num_users = c;
  add_copies(s, tenant, 1);
  s.strategies.push_back(strategy(models::StrategyKind::dedicated, 0));
  return s;
}

struct Axis {
  std::string name;
  std::string unit;
  std::vector<double> values;
  std::function<scenario::Scenario(double)> make;
  bool per_request = false;  ///< fit the time per request (the requests are held), not the time
};

std::vector<Axis> axes(bool quick) {
  using models::StrategyKind;
  using scenario::RouterPolicy;
  auto pick = [quick](const std::vector<double>& full, const std::vector<double>& small) {
    return quick ? small : full;
  };
  return {
      {"requests", "requests", pick({1e4, 3e4, 1e5, 3e5, 1e6}, {1e4, 1e5}), requests_axis},
      {"tenants", "tenants", pick({10, 30, 100, 300, 1000, 3000, 10000}, {10, 100, 1000}), tenants_axis},
      {"gpus-rr", "GPUs", pick({1, 3, 10, 30, 100, 300, 1000}, {1, 10, 100}),
       [](double x) { return gpus_axis(x, RouterPolicy::round_robin); }},
      {"gpus-ll", "GPUs", pick({1, 3, 10, 30, 100, 300, 1000}, {1, 10, 100}),
       [](double x) { return gpus_axis(x, RouterPolicy::least_loaded); }},
      {"contexts-ts", "contexts", pick({2, 3, 6, 12, 24, 48}, {2, 8, 24}),
       [](double x) { return contexts_axis(x, StrategyKind::time_slicing); }, true},
      {"contexts-mps", "contexts", pick({2, 3, 6, 12, 24, 48}, {2, 8, 24}),
       [](double x) { return contexts_axis(x, StrategyKind::mps); }, true},
      {"concurrency", "in service", pick({1, 3, 10, 30, 100}, {1, 10, 100}), concurrency_axis, true},
  };
}

struct Sample {
  double wall_s = 0.0;
  long rss_kib = 0;
  long long requests = 0;
  long long events = 0;
};

/// Runs one point in a child: its line on the pipe is "wall requests events".
Sample run_point(const Axis& axis, double x) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    try {
      const auto scenario = axis.make(x);
      const auto start = std::chrono::steady_clock::now();
      const auto result = sim::run_simulation(scenario, sim::RunOptions{});
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      long long requests = 0;
      for (const auto& tenant : result.strategies[0].tenants) requests += tenant.num_completed;
      char line[128];
      const int n = std::snprintf(line, sizeof line, "%.9g %lld %lld\n", wall, requests,
                                  static_cast<long long>(result.strategies[0].num_events));
      if (::write(fds[1], line, static_cast<std::size_t>(n)) != n) ::_exit(1);
      ::_exit(0);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s at %g: %s\n", axis.name.c_str(), x, e.what());
      ::_exit(1);
    }
  }
  ::close(fds[1]);
  std::string text;
  char chunk[256];
  ssize_t n;
  while ((n = ::read(fds[0], chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  Sample sample;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      std::sscanf(text.c_str(), "%lf %lld %lld", &sample.wall_s, &sample.requests, &sample.events) != 3) {
    throw std::runtime_error(axis.name + ": the point at " + std::to_string(x) + " failed");
  }
  sample.rss_kib = usage.ru_maxrss;
  return sample;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/// Least-squares slope of log y on log x.
double exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += std::log(x[i]) / static_cast<double>(n);
    my += std::log(y[i]) / static_cast<double>(n);
  }
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxy / sxx;
}

double tail_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  return std::log(y[n - 1] / y[n - 2]) / std::log(x[n - 1] / x[n - 2]);
}

/// Prints the axis's points and exponents; returns false when one is above kBugExponent.
bool measure(const Axis& axis, int runs) {
  std::printf("\n%s\n  %10s %10s %10s %9s %12s %11s\n", axis.name.c_str(), axis.unit.c_str(), "requests", "events",
              "wall_s", "us/request", "peak_rss_MiB");
  std::vector<double> xs, times, rss;
  for (const double x : axis.values) {
    std::vector<double> walls, rsses;
    Sample last;
    for (int r = 0; r < runs; ++r) {
      last = run_point(axis, x);
      walls.push_back(last.wall_s);
      rsses.push_back(static_cast<double>(last.rss_kib));
    }
    const double wall = median(walls);
    const double per_request = wall / static_cast<double>(std::max(1LL, last.requests));
    std::printf("  %10g %10lld %10lld %9.3f %12.3f %11.1f\n", x, last.requests, last.events, wall, per_request * 1e6,
                median(rsses) / 1024.0);
    std::fflush(stdout);
    xs.push_back(x);
    times.push_back(axis.per_request ? per_request : wall);
    rss.push_back(median(rsses));
  }
  const double b_time = exponent(xs, times);
  const double tail_time = tail_exponent(xs, times);
  const double b_rss = exponent(xs, rss);
  const double tail_rss = tail_exponent(xs, rss);
  const bool bug = std::max(b_time, b_rss) > kBugExponent;
  const bool steep_tail = std::max(tail_time, tail_rss) > kBugExponent;
  std::printf("  exponent of %s: %.2f (tail %.2f); of peak RSS: %.2f (tail %.2f)%s\n",
              axis.per_request ? "time per request" : "wall time", b_time, tail_time, b_rss, tail_rss,
              bug ? "  ABOVE 1.1: A BUG" : (steep_tail ? "  (a tail above 1.1: see docs/benchmarks.md, B3)" : ""));
  if (axis.name == "tenants") {
    const std::size_t n = xs.size();
    std::printf("  peak RSS per added tenant (last two points): %.2f KiB\n",
                (rss[n - 1] - rss[n - 2]) / (xs[n - 1] - xs[n - 2]));
  }
  return !bug;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  bool quick = false;
  double at = 0.0;
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--axis") == 0 && i + 1 < argc) wanted.emplace_back(argv[++i]);
    else if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--at") == 0 && i + 1 < argc) at = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--axis NAME]... [--quick] | --axis NAME --at X\n", argv[0]);
      return 2;
    }
  }
  bool linear = true;
  try {
    if (at > 0.0) {
      for (const auto& axis : axes(quick)) {
        if (wanted.size() != 1 || axis.name != wanted[0]) continue;
        const auto start = std::chrono::steady_clock::now();
        const auto result = sim::run_simulation(axis.make(at), sim::RunOptions{});
        std::printf("%s at %g: %lld events, %.3f s\n", axis.name.c_str(), at,
                    static_cast<long long>(result.strategies[0].num_events),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        return 0;
      }
      std::fprintf(stderr, "--at needs exactly one --axis NAME of a known axis\n");
      return 2;
    }
    for (const auto& axis : axes(quick)) {
      if (wanted.empty() || std::find(wanted.begin(), wanted.end(), axis.name) != wanted.end()) {
        linear = measure(axis, runs) && linear;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return linear ? 0 : 3;
}
