// B1 (engine issue): simulated requests per wall second for 16 tenants on 8 GPUs under MPS with
// Poisson arrivals, against a bare binary-heap event loop doing the same arrivals, completions and
// fluid MPS sharing (the same rate model), plus the peak RSS of the run.
//
//   build/ci/bench/sw_engine_bench [--requests N] [--baseline-only] [--engine-only]
//
// Prints one line per measurement; docs/benchmarks.md keeps the last figures.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "b1_scenario.hpp"
#include "models/rate_model.hpp"
#include "sim/simulation.hpp"
#include "traces/poisson_source.hpp"

namespace {

using namespace slicewise;

using bench::kGpus;
using bench::kRatePerTenant;
using bench::kSoloS;
using bench::kTenants;
using bench::make_b1;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/// The baseline: a bare event loop doing the same fluid sharing. One std::priority_queue of
/// (time, kind, tenant or GPU) events with stale completions skipped by a version stamp; per GPU
/// its two tenants' requests in service (at most 4 each, FIFO beyond), their progress in solo
/// seconds, and the same RateModel (MPS, concurrent discipline) recomputed at every arrival and
/// completion. Same Poisson arrivals; no SimGrid, placement, metrics or sharing variance.
class BareFluidLoop {
 public:
  explicit BareFluidLoop(double horizon_s) {
    models::SharingParams mps;
    mps.discipline = models::SharingDiscipline::concurrent;
    gpus_.resize(kGpus);
    for (auto& gpu : gpus_) {
      gpu.model = models::RateModel(mps);
      gpu.demands.resize(2);
      gpu.rates.resize(2);
      for (auto& demand : gpu.demands) demand.duty = kDuty;
    }
    sources_.reserve(kTenants);
    for (int t = 0; t < kTenants; ++t) sources_.emplace_back(kRatePerTenant, horizon_s, 1000 + t);
  }

  void run() {
    traces::RequestRecord record;
    for (int t = 0; t < kTenants; ++t) {
      if (sources_[static_cast<std::size_t>(t)].next(record)) heap_.push({record.arrived_at_s, 0, t, 0});
    }
    while (!heap_.empty()) {
      const Event event = heap_.top();
      heap_.pop();
      if (event.kind == 0) {
        arrival(event, record);
      } else if (event.version == gpus_[static_cast<std::size_t>(event.id)].version) {
        completion(event);
      }
    }
  }
  long completed() const { return completed_; }
  double mean_latency() const { return latency_sum_ / static_cast<double>(completed_); }

 private:
  static constexpr double kDuty = 0.8;
  static constexpr double kDemand = 0.3;  // SM and bandwidth fraction per request
  static constexpr std::size_t kMaxConcurrency = 4;
  struct Event {
    double at;
    int kind;  // 0 arrival (id: tenant), 1 completion (id: GPU)
    int id;
    std::uint64_t version;
    bool operator>(const Event& o) const { return at > o.at || (at == o.at && id > o.id); }
  };
  struct Context {
    std::vector<std::pair<double, double>> in_service;  // (virtual finish, arrival), min-heap
    std::vector<double> waiting;                        // arrivals, FIFO
    std::size_t waiting_head = 0;
    double virtual_s = 0.0;
  };
  struct Gpu {
    models::RateModel model;  // replaced by the MPS one
    std::vector<models::ContextDemand> demands;
    std::vector<models::ContextRate> rates;
    Context contexts[2];
    double now = 0.0;
    std::uint64_t version = 0;
  };

  void advance(Gpu& gpu, double now) {
    for (std::size_t c = 0; c < 2; ++c) gpu.contexts[c].virtual_s += gpu.rates[c].progress_rate * (now - gpu.now);
    gpu.now = now;
  }
  void start(Context& context, double arrived) {
    context.in_service.emplace_back(context.virtual_s + kSoloS, arrived);
    std::push_heap(context.in_service.begin(), context.in_service.end(), std::greater<>());
  }
  void reschedule(Gpu& gpu, int index) {
    for (std::size_t c = 0; c < 2; ++c) {
      const double k = static_cast<double>(gpu.contexts[c].in_service.size());
      gpu.demands[c].active = k > 0.0;
      gpu.demands[c].demand_sm = gpu.demands[c].ref_sm = k * kDemand;
      gpu.demands[c].demand_bw = gpu.demands[c].ref_bw = k * kDemand;
    }
    gpu.model.compute(gpu.demands, gpu.rates);
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < 2; ++c) {
      const auto& context = gpu.contexts[c];
      if (context.in_service.empty() || gpu.rates[c].progress_rate <= 0.0) continue;
      const double remaining = std::max(0.0, context.in_service.front().first - context.virtual_s);
      next = std::min(next, gpu.now + remaining / gpu.rates[c].progress_rate);
    }
    ++gpu.version;
    if (next < std::numeric_limits<double>::infinity()) heap_.push({next, 1, index, gpu.version});
  }
  void arrival(const Event& event, traces::RequestRecord& record) {
    const auto tenant = static_cast<std::size_t>(event.id);
    if (sources_[tenant].next(record)) heap_.push({record.arrived_at_s, 0, event.id, 0});
    const int index = event.id % kGpus;
    Gpu& gpu = gpus_[static_cast<std::size_t>(index)];
    advance(gpu, event.at);
    Context& context = gpu.contexts[tenant / kGpus];
    if (context.in_service.size() < kMaxConcurrency) {
      start(context, event.at);
    } else {
      context.waiting.push_back(event.at);
    }
    reschedule(gpu, index);
  }
  void completion(const Event& event) {
    Gpu& gpu = gpus_[static_cast<std::size_t>(event.id)];
    advance(gpu, event.at);
    for (auto& context : gpu.contexts) {
      const double tolerance = 1e-9 * std::max(1.0, context.virtual_s);
      while (!context.in_service.empty() && context.in_service.front().first <= context.virtual_s + tolerance) {
        std::pop_heap(context.in_service.begin(), context.in_service.end(), std::greater<>());
        ++completed_;
        latency_sum_ += event.at - context.in_service.back().second;
        context.in_service.pop_back();
        if (context.waiting_head < context.waiting.size()) start(context, context.waiting[context.waiting_head++]);
      }
    }
    reschedule(gpu, event.id);
  }

  std::vector<Gpu> gpus_;
  std::vector<traces::PoissonSource> sources_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> heap_;
  long completed_ = 0;
  double latency_sum_ = 0.0;
};

void baseline(double horizon_s) {
  const auto start = std::chrono::steady_clock::now();
  BareFluidLoop loop(horizon_s);
  loop.run();
  const double wall = seconds_since(start);
  std::printf("baseline  requests=%ld wall_s=%.3f requests_per_s=%.0f (mean latency %.4f s)\n", loop.completed(), wall,
              static_cast<double>(loop.completed()) / wall, loop.mean_latency());
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
