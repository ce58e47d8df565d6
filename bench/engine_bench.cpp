// B1 (engine issue): simulated requests per wall second for 16 tenants on 8 GPUs under MPS with
// Poisson arrivals, against a bare binary-heap event loop doing the same arrivals and
// completions, plus the peak RSS of the run.
//
//   build/ci/bench/sw_engine_bench [--requests N] [--baseline-only] [--engine-only]
//
// Prints one line per measurement; docs/benchmarks.md keeps the last figures.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "sim/simulation.hpp"
#include "traces/poisson_source.hpp"

namespace {

using namespace slicewise;

constexpr int kTenants = 16;
constexpr int kGpus = 8;
constexpr double kRatePerTenant = 6.25;  // 100 requests/s in all
constexpr double kSoloS = 0.1;

scenario::Scenario make_b1(double horizon_s) {
  scenario::Scenario s;
  s.name = "B1";
  s.seed = 1;
  s.horizon_s = horizon_s;
  s.metrics_interval_s = horizon_s / 100.0;
  s.fleet.push_back({"A100-80GB", "", kGpus});
  for (int t = 0; t < kTenants; ++t) {
    scenario::Tenant tenant;
    tenant.name = "tenant" + std::to_string(t);
    tenant.workload.solo_latency_s = kSoloS;
    tenant.workload.gpu_duty_frac = 0.8;
    tenant.workload.sm_occupancy_frac = 0.3;
    tenant.workload.mem_bw_frac = 0.3;
    tenant.workload.memory_gib = 8.0;
    tenant.workload.max_concurrency = 4;
    tenant.load.kind = scenario::LoadKind::poisson;
    tenant.load.rate_per_s = kRatePerTenant;
    s.tenants.push_back(tenant);
  }
  scenario::StrategySpec mps;
  mps.kind = models::StrategyKind::mps;
  mps.name = "mps";
  mps.replicas = kTenants / kGpus;
  s.strategies.push_back(mps);
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/// The baseline: one binary heap of (time, kind, tenant) events; each GPU serves its two tenants'
/// requests one at a time, FIFO, at solo speed. Same arrivals (same Poisson generator), no rate model.
void baseline(double horizon_s) {
  struct Event {
    double at;
    int kind;  // 0 arrival, 1 completion
    int tenant;
    bool operator>(const Event& o) const { return at > o.at || (at == o.at && tenant > o.tenant); }
  };
  const auto start = std::chrono::steady_clock::now();
  std::priority_queue<Event, std::vector<Event>, std::greater<>> heap;
  std::vector<traces::PoissonSource> sources;
  sources.reserve(kTenants);
  for (int t = 0; t < kTenants; ++t) sources.emplace_back(kRatePerTenant, horizon_s, 1000 + t);
  traces::RequestRecord record;
  for (int t = 0; t < kTenants; ++t) {
    if (sources[static_cast<std::size_t>(t)].next(record)) heap.push({record.arrived_at_s, 0, t});
  }
  std::vector<int> queued(kGpus, 0);
  std::vector<bool> busy(kGpus, false);
  long completed = 0;
  double latency_sum = 0.0;
  while (!heap.empty()) {
    const Event event = heap.top();
    heap.pop();
    const int gpu = event.tenant % kGpus;
    if (event.kind == 0) {
      if (sources[static_cast<std::size_t>(event.tenant)].next(record))
        heap.push({record.arrived_at_s, 0, event.tenant});
      if (busy[static_cast<std::size_t>(gpu)]) {
        ++queued[static_cast<std::size_t>(gpu)];
      } else {
        busy[static_cast<std::size_t>(gpu)] = true;
        heap.push({event.at + kSoloS, 1, event.tenant});
      }
    } else {
      ++completed;
      latency_sum += kSoloS;
      if (queued[static_cast<std::size_t>(gpu)] > 0) {
        --queued[static_cast<std::size_t>(gpu)];
        heap.push({event.at + kSoloS, 1, event.tenant});
      } else {
        busy[static_cast<std::size_t>(gpu)] = false;
      }
    }
  }
  const double wall = seconds_since(start);
  std::printf("baseline  requests=%ld wall_s=%.3f requests_per_s=%.0f (mean %.3f)\n", completed, wall,
              static_cast<double>(completed) / wall, latency_sum / static_cast<double>(completed));
}

void engine(double horizon_s) {
  const auto scenario = make_b1(horizon_s);
  const auto start = std::chrono::steady_clock::now();
  const auto result = sim::run_simulation(scenario, sim::RunOptions{});
  const double wall = seconds_since(start);
  long completed = 0;
  for (const auto& tenant : result.strategies[0].tenants) completed += tenant.num_completed;
  std::printf("engine    requests=%ld wall_s=%.3f requests_per_s=%.0f events=%lld peak_rss_mib=%.1f\n", completed, wall,
              static_cast<double>(completed) / wall, static_cast<long long>(result.strategies[0].num_events),
              static_cast<double>(peak_rss_kib()) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  double requests = 1e6;
  bool run_baseline = true;
  bool run_engine = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--requests") == 0 && i + 1 < argc) requests = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--baseline-only") == 0) run_engine = false;
    else if (std::strcmp(argv[i], "--engine-only") == 0) run_baseline = false;
    else {
      std::fprintf(stderr, "usage: %s [--requests N] [--baseline-only|--engine-only]\n", argv[0]);
      return 2;
    }
  }
  const double horizon_s = requests / (kTenants * kRatePerTenant);
  if (run_baseline) baseline(horizon_s);
  if (run_engine) engine(horizon_s);  // last: one SimGrid engine per process
  return 0;
}
