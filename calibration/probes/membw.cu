// sw_probe_membw: achieved memory bandwidth of a streaming kernel while n processes share the
// GPU. run_probes.sh starts the n copies with one --start-at (time-slicing without MPS, shared
// SMs under MPS). Feeds the memory-bandwidth sharing model (docs/probes.md).
//
//   sw_probe_membw [--mib-per-array M] [--duration-s D] [--start-at T]
//       Streams one array of M MiB (default 1024) into another, pass after pass, for D s
//       (default 5) from Unix time T, one synchronize per pass, and prints result lines for
//       workload stream, gpu_duty_frac=1;mem_bw_frac=1: mem_bandwidth (GB/s, DRAM bytes read and
//       written over the window) and time_mean (ms per pass).
#include "probe_kernels.cuh"

namespace {

using namespace sw_probe;

constexpr const char* kUsage = "sw_probe_membw [--mib-per-array M] [--duration-s D] [--start-at T]";

}  // namespace

int main(int argc, char** argv) {
  set_program_name(argv[0]);
  const Options options(argc, argv, 1, {"--mib-per-array", "--duration-s", "--start-at"}, kUsage);
  const unsigned long long mib = options.whole("--mib-per-array", 1024);
  const double duration_s = options.positive("--duration-s", 5.0);
  const double start_at = options.number("--start-at", 0);

  const int sm_count = open_device();
  const Stream stream;
  const StreamLaunch pass(sm_count, mib, stream.get());
  pass();  // loads the module and touches the output before the window
  SW_CHECK(cudaStreamSynchronize(stream.get()));

  wait_until(start_at);
  const Window window = run_window(pass, stream.get(), duration_s);

  const double passes = static_cast<double>(window.latency_ms.size());
  const std::string params = std::string("gpu_duty_frac=1;") + kStreamParams;
  emit("stream", params, "mem_bandwidth", pass.bytes_per_launch() * passes / window.elapsed_s / 1e9, "GB/s");
  emit("stream", params, "time_mean", window.mean_ms(), "ms");
  return 0;
}
