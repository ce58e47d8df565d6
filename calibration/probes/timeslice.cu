// sw_probe_timeslice: latency and throughput of a compute kernel of known length while n
// processes share the GPU. run_probes.sh starts the n copies with one --start-at; without MPS
// the driver time-slices them, under MPS their kernels share the SMs. Feeds the time-slicing
// efficiency and quantum, and the MPS efficiency (docs/probes.md).
//
//   sw_probe_timeslice calibrate --kernel-ms K
//       Alone on the GPU: prints (stdout) the work items that make one kernel take K ms.
//   sw_probe_timeslice run --kernel-ms K --items N [--duration-s D] [--start-at T]
//       Launches that kernel back to back for D s (default 5) from Unix time T, one synchronize
//       per launch, and prints result lines: time_mean and time_p99 (ms), throughput (1/s).
#include "probe_kernels.cuh"

namespace {

using namespace sw_probe;

constexpr const char* kUsage =
    "sw_probe_timeslice calibrate --kernel-ms K\n"
    "       sw_probe_timeslice run --kernel-ms K --items N [--duration-s D] [--start-at T]";

// Device time of one kernel of `items`, the median of three launches, from CUDA events.
double measure_kernel_ms(const FmaLaunch& launch, cudaStream_t stream, unsigned long long items) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  SW_CHECK(cudaEventCreate(&start));
  SW_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) {
    SW_CHECK(cudaEventRecord(start, stream));
    launch(items);
    SW_CHECK(cudaEventRecord(stop, stream));
    SW_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SW_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  SW_CHECK(cudaEventDestroy(start));
  SW_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[1];
}

// Half a second of kernels, so that the clocks have ramped up before anything is timed.
void warm_up(const FmaLaunch& launch, cudaStream_t stream, unsigned long long items) {
  const double until = unix_now() + 0.5;
  while (unix_now() < until) {
    launch(items);
    SW_CHECK(cudaStreamSynchronize(stream));
  }
}

// Scales the work until one kernel takes target_ms within 2%. Launch overhead makes the time
// only roughly proportional to the work, hence a few rounds.
unsigned long long calibrate(const FmaLaunch& launch, cudaStream_t stream, double target_ms) {
  unsigned long long items = 1ull << 26;  // ~0.1 ms on an H100
  warm_up(launch, stream, items);
  for (int round = 0; round < 12; ++round) {
    const double ms = measure_kernel_ms(launch, stream, items);
    if (std::abs(ms - target_ms) <= 0.02 * target_ms) {
      std::fprintf(stderr, "%s: %llu items take %.4f ms\n", g_program.c_str(), items, ms);
      return items;
    }
    const double factor = std::min(target_ms / ms, 100.0);
    items = std::max(1ull, static_cast<unsigned long long>(std::llround(static_cast<double>(items) * factor)));
  }
  fail("could not calibrate a " + format_number(target_ms) + " ms kernel: its time keeps varying");
}

// What `run` is asked for (all options are read before the device is touched).
struct RunSettings {
  double kernel_ms;
  unsigned long long items;
  double duration_s;
  double start_at;
};

void run(const FmaLaunch& launch, cudaStream_t stream, const RunSettings& settings) {
  launch(settings.items);  // loads the module before the window
  SW_CHECK(cudaStreamSynchronize(stream));

  wait_until(settings.start_at);
  const Window window = run_window([&] { launch(settings.items); }, stream, settings.duration_s);

  const std::string params = "kernel_ms=" + format_number(settings.kernel_ms) + ";gpu_duty_frac=1";
  emit("spin", params, "time_mean", window.mean_ms(), "ms");
  emit("spin", params, "time_p99", window.percentile_ms(0.99), "ms");
  emit("spin", params, "throughput", window.per_second(), "1/s");
}

}  // namespace

int main(int argc, char** argv) {
  set_program_name(argv[0]);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "calibrate" && mode != "run") fail(std::string("usage: ") + kUsage);
  const Options options(argc, argv, 2, {"--kernel-ms", "--items", "--duration-s", "--start-at"}, kUsage);
  const double kernel_ms = options.positive("--kernel-ms");
  const bool calibrating = mode == "calibrate";
  const RunSettings settings{kernel_ms, calibrating ? 0 : options.whole("--items"),
                             options.positive("--duration-s", 5.0), options.number("--start-at", 0)};

  const int sm_count = open_device();
  const Stream stream;
  const FmaLaunch launch(sm_count, stream.get());
  if (calibrating) {
    std::printf("%llu\n", calibrate(launch, stream.get(), kernel_ms));
  } else {
    run(launch, stream.get(), settings);
  }
  return 0;
}
