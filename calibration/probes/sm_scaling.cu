// sw_probe_sm_scaling: throughput of a compute-bound and a memory-bound kernel of fixed work when
// confined to fewer SMs, through green contexts (driver API, CUDA 12.4+). Feeds the slice /
// roofline scaling of the model (docs/probes.md).
//
//   sw_probe_sm_scaling [--sm-counts 8,16,32,64,all] [--window-s W] [--mib-per-array M]
//       For each SM count, a green context with that many SMs (the driver rounds up to its
//       partition granularity, 8 SMs on Hopper; rows carry the count actually given), in which
//       the FMA kernel (2^30 items) and the stream kernel (two arrays of M MiB, default 1024)
//       each run for W s (default 1). Result lines, workload_params sm_count=<n> (and
//       mem_bw_frac=1 for stream): throughput (kernels/s) of `fma` and `stream`, and
//       mem_bandwidth (GB/s) of `stream`.
//   sw_probe_sm_scaling --context primary [--window-s W] [--mib-per-array M]
//       The same kernels on the ordinary context, for an MPS client limited by
//       CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=<p>; workload_params active_thread_pct=<p>.
// Where the driver has no green contexts it says so on stderr and prints no result (exit 0).
#include <cuda.h>

#include <set>
#include <sstream>

#include "probe_kernels.cuh"

namespace sw_probe {

// The driver-API overload of check(), which SW_CHECK picks for a CUresult.
inline void check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = "unknown error";
  const char* text = "";
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  fail(std::string(call) + " failed: " + name + ": " + text);
}

}  // namespace sw_probe

namespace {

using namespace sw_probe;

constexpr const char* kUsage =
    "sw_probe_sm_scaling [--context green|primary] [--sm-counts 8,16,32,64,all] [--window-s W] "
    "[--mib-per-array M]";

constexpr unsigned long long kFmaItems = 1ull << 30;  // ~2 ms on a whole H100

struct Settings {
  double window_s;
  unsigned long long mib_per_array;
};

// Kernels per second over at least window_s: launches in batches of about 20 ms of work with one
// synchronize per batch, so that the gaps between launches hardly count.
template <class Launch>
double kernels_per_second(Launch&& launch, cudaStream_t stream, double window_s) {
  using clock = std::chrono::steady_clock;
  const auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  launch();  // loads the module
  SW_CHECK(cudaStreamSynchronize(stream));
  const auto single = clock::now();
  launch();
  SW_CHECK(cudaStreamSynchronize(stream));
  const int batch = static_cast<int>(std::clamp(0.02 / seconds_since(single), 1.0, 1000.0));

  const auto begin = clock::now();
  long long kernels = 0;
  double elapsed_s = 0;
  do {
    for (int i = 0; i < batch; ++i) launch();
    SW_CHECK(cudaStreamSynchronize(stream));
    kernels += batch;
    elapsed_s = seconds_since(begin);
  } while (elapsed_s < window_s);
  return static_cast<double>(kernels) / elapsed_s;
}

// Both kernels on `sm_count` SMs of the current context, one full wave each. `context` is the
// workload_params naming the context; the stream kernel's also say that it is bandwidth bound.
void measure(int sm_count, cudaStream_t stream, const std::string& context, const Settings& settings) {
  const FmaLaunch fma(sm_count, stream);
  const double fma_per_s = kernels_per_second([&] { fma(kFmaItems); }, stream, settings.window_s);
  emit("fma", context, "throughput", fma_per_s, "1/s");

  const StreamLaunch pass(sm_count, settings.mib_per_array, stream);
  const double pass_per_s = kernels_per_second(pass, stream, settings.window_s);
  const std::string params = context + ";" + kStreamParams;
  emit("stream", params, "throughput", pass_per_s, "1/s");
  emit("stream", params, "mem_bandwidth", pass_per_s * pass.bytes_per_launch() / 1e9, "GB/s");
  std::fflush(stdout);
}

// A green context over `sms`, current on this thread while it lives, with a stream of its own.
class GreenContext {
 public:
  GreenContext(CUdevice device, CUdevResource sms) {
    CUdevResourceDesc desc = nullptr;
    SW_CHECK(cuDevResourceGenerateDesc(&desc, &sms, 1));
    SW_CHECK(cuGreenCtxCreate(&green_, desc, device, CU_GREEN_CTX_DEFAULT_STREAM));
    SW_CHECK(cuCtxGetCurrent(&previous_));
    CUcontext context = nullptr;
    SW_CHECK(cuCtxFromGreenCtx(&context, green_));
    SW_CHECK(cuCtxSetCurrent(context));  // runtime calls and <<<>>> launches now go to it
    SW_CHECK(cuGreenCtxStreamCreate(&stream_, green_, CU_STREAM_NON_BLOCKING, 0));
  }
  ~GreenContext() {
    cuStreamDestroy(stream_);
    cuCtxSetCurrent(previous_);
    cuGreenCtxDestroy(green_);
  }
  GreenContext(const GreenContext&) = delete;
  GreenContext& operator=(const GreenContext&) = delete;

  cudaStream_t stream() const { return stream_; }

 private:
  CUgreenCtx green_ = nullptr;
  CUcontext previous_ = nullptr;
  CUstream stream_ = nullptr;
};

// All SMs of the device as a green-context resource; nothing (with a note) where the driver or
// the device has no green contexts.
std::optional<CUdevResource> device_sms(CUdevice device) {
  int version = 0;
  SW_CHECK(cuDriverGetVersion(&version));
  if (version < 12040) {
    warn("green contexts need a CUDA 12.4+ driver, this one is " + std::to_string(version / 1000) +
         "." + std::to_string(version % 1000 / 10) + "; skipping the SM-scaling probe");
    return std::nullopt;
  }
  CUdevResource all{};
  const CUresult result = cuDeviceGetDevResource(device, &all, CU_DEV_RESOURCE_TYPE_SM);
  if (result == CUDA_ERROR_NOT_SUPPORTED) {
    warn("this device has no green contexts; skipping the SM-scaling probe");
    return std::nullopt;
  }
  check(result, "cuDeviceGetDevResource(device, &all, CU_DEV_RESOURCE_TYPE_SM)");
  return all;
}

// At least `wanted` of the SMs in `all` (all of them when wanted reaches the total).
CUdevResource sm_partition(const CUdevResource& all, unsigned wanted) {
  if (wanted >= all.sm.smCount) return all;
  CUdevResource part{};
  unsigned groups = 1;
  SW_CHECK(cuDevSmResourceSplitByCount(&part, &groups, &all, nullptr, 0, wanted));
  if (groups != 1) fail("cuDevSmResourceSplitByCount gave no group of " + std::to_string(wanted) + " SMs");
  return part;
}

// "8,16,all" -> {8, 16, total}; a count above the total is dropped with a note.
std::vector<unsigned> parse_sm_counts(const std::string& list, unsigned total) {
  std::vector<unsigned> counts;
  std::istringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item == "all") {
      counts.push_back(total);
      continue;
    }
    char* end = nullptr;
    const unsigned long count = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || count == 0) fail("--sm-counts: bad count '" + item + "'");
    if (count > total) {
      warn("the device has " + std::to_string(total) + " SMs; skipping sm_count " + item);
      continue;
    }
    counts.push_back(static_cast<unsigned>(count));
  }
  return counts;
}

void run_green(const std::string& sm_counts, const Settings& settings) {
  SW_CHECK(cuInit(0));
  CUdevice device = 0;
  SW_CHECK(cuDeviceGet(&device, 0));
  const std::optional<CUdevResource> all = device_sms(device);
  if (!all) return;

  std::set<unsigned> measured;  // the driver may round two requested counts to the same one
  for (const unsigned wanted : parse_sm_counts(sm_counts, all->sm.smCount)) {
    const CUdevResource part = sm_partition(*all, wanted);
    const unsigned given = part.sm.smCount;
    if (!measured.insert(given).second) continue;
    if (given != wanted) {
      std::fprintf(stderr, "%s: asked for %u SMs, the green context has %u\n", g_program.c_str(), wanted, given);
    }
    const GreenContext context(device, part);
    measure(static_cast<int>(given), context.stream(), "sm_count=" + std::to_string(given), settings);
  }
}

// The ordinary context of an MPS client; its rows are labelled with its active thread percentage.
void run_primary(int sm_count, const Settings& settings) {
  const char* pct = std::getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
  if (pct == nullptr) fail("--context primary is for MPS clients: set CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
  char* end = nullptr;
  const double percent = std::strtod(pct, &end);
  if (*end != '\0' || !(percent > 0 && percent <= 100)) {
    fail(std::string("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE must be in (0, 100], got '") + pct + "'");
  }
  const Stream stream;
  measure(sm_count, stream.get(), "active_thread_pct=" + format_number(percent), settings);
}

}  // namespace

int main(int argc, char** argv) {
  set_program_name(argv[0]);
  const Options options(argc, argv, 1, {"--context", "--sm-counts", "--window-s", "--mib-per-array"}, kUsage);
  const std::string context = options.text("--context", "green");
  if (context != "green" && context != "primary") fail(std::string("usage: ") + kUsage);
  const Settings settings{options.positive("--window-s", 1.0), options.whole("--mib-per-array", 1024)};

  const int sm_count = open_device();  // the primary context, which green contexts build on
  if (context == "green") {
    run_green(options.text("--sm-counts", "8,16,32,64,all"), settings);
  } else {
    run_primary(sm_count, settings);
  }
  return 0;
}
