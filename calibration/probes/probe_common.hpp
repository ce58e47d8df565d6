// Host-side helpers shared by the GPU probes (docs/probes.md): error checks that name the failing
// CUDA call, "--name value" options, a start barrier on the wall clock so that co-running
// processes measure over the same window, the timed launch loop, and the "result" lines that
// run_probes.sh turns into docs/measurement-format.md rows.
//
// Result line (stdout, one per measured number, fields separated by single spaces):
//   result <workload> <workload_params> <metric> <value> <unit>
// The driver adds the columns a probe cannot know: gpu, strategy, n_contexts, source, date, run.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sw_probe {

inline std::string g_program = "sw_probe";  // the probe's name in messages (set_program_name)

inline void set_program_name(const char* argv0) {
  const std::string path = argv0;
  g_program = path.substr(path.find_last_of('/') + 1);
}

[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", g_program.c_str(), message.c_str());
  std::exit(1);
}

inline void warn(const std::string& message) {
  std::fprintf(stderr, "%s: warning: %s\n", g_program.c_str(), message.c_str());
}

inline void check(cudaError_t err, const char* call) {
  if (err != cudaSuccess) {
    fail(std::string(call) + " failed: " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
  }
}

// SW_CHECK(cudaMalloc(...)) exits with a message naming the call when it fails.
#define SW_CHECK(call) ::sw_probe::check((call), #call)
// A <<<...>>> launch reports a bad configuration through cudaGetLastError.
#define SW_CHECK_LAUNCH(kernel) ::sw_probe::check(cudaGetLastError(), #kernel "<<<...>>>")

// "%g": the shortest text of a number, as it goes into workload_params.
inline std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Options given as "--name value" pairs; a name the probe does not list is an error.
class Options {
 public:
  Options(int argc, char** argv, int first, std::initializer_list<const char*> known, const char* usage) {
    for (int i = first; i < argc; i += 2) {
      const std::string name = argv[i];
      const bool listed = std::find(known.begin(), known.end(), name) != known.end();
      if (!listed || i + 1 >= argc) fail("bad option '" + name + "'\nusage: " + usage);
      values_[name] = argv[i + 1];
    }
  }

  std::string text(const char* name, const std::string& fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }

  // A finite number; `fallback` when the option is absent.
  double number(const char* name, double fallback) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    char* end = nullptr;
    const double value = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != '\0' || !std::isfinite(value)) {
      fail(std::string(name) + " needs a number, got '" + it->second + "'");
    }
    return value;
  }

  // A number > 0; required when no fallback is given.
  double positive(const char* name, std::optional<double> fallback = std::nullopt) const {
    if (!fallback && values_.count(name) == 0) fail(std::string(name) + " is required");
    const double value = number(name, fallback.value_or(0));
    if (value <= 0) fail(std::string(name) + " must be > 0");
    return value;
  }

  // A whole number >= 1; required when no fallback is given.
  unsigned long long whole(const char* name, std::optional<double> fallback = std::nullopt) const {
    const double value = positive(name, fallback);
    if (value != std::floor(value) || value > 9.0e15) fail(std::string(name) + " must be a whole number");
    return static_cast<unsigned long long>(value);
  }

 private:
  std::map<std::string, std::string> values_;
};

// Selects device 0 (the first of CUDA_VISIBLE_DEVICES) and creates its primary context now, so
// that no timed region pays for it. Returns the number of SMs.
inline int open_device() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    fail(std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(err) +
         " (is an NVIDIA driver installed and a GPU visible?)");
  }
  if (count == 0) fail("no CUDA device is visible");
  SW_CHECK(cudaSetDevice(0));
  SW_CHECK(cudaFree(nullptr));
  int sm_count = 0;
  SW_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  return sm_count;
}

// A device array of n elements of T, freed when it goes out of scope.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t n) : size_(n) { SW_CHECK(cudaMalloc(&data_, n * sizeof(T))); }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  size_t size_;
};

// A non-blocking stream of the current context, destroyed when it goes out of scope.
class Stream {
 public:
  Stream() { SW_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Unix time in seconds (the clock --start-at is given in).
inline double unix_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// The start barrier: sleeps until Unix time start_at (0 = start now). Starting late is only a
// warning: the co-running processes then overlap less than the driver planned.
inline void wait_until(double start_at) {
  if (start_at <= 0) return;
  const double late_s = unix_now() - start_at;
  if (late_s > 0.05) {
    warn("started " + format_number(late_s) + " s after --start-at; the co-run overlaps less");
    return;
  }
  if (late_s < 0) std::this_thread::sleep_for(std::chrono::duration<double>(-late_s));
}

// What run_window measured: each launch's latency (launch to end of its synchronize) and the
// time from the window's start to the last completion.
struct Window {
  std::vector<double> latency_ms;
  double elapsed_s = 0;

  double mean_ms() const {
    double sum = 0;
    for (const double ms : latency_ms) sum += ms;
    return sum / static_cast<double>(latency_ms.size());
  }

  // Nearest-rank percentile, q in (0, 1].
  double percentile_ms(double q) const {
    std::vector<double> sorted = latency_ms;
    std::sort(sorted.begin(), sorted.end());
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::max<size_t>(rank, 1) - 1];
  }

  double per_second() const { return static_cast<double>(latency_ms.size()) / elapsed_s; }
};

// Launches back to back for duration_s seconds, synchronising after each launch so that every
// launch's latency is seen from the host, as an application waiting on its kernel sees it.
// The last launch may end after the window; no launch starts after it.
template <class Launch>
Window run_window(Launch&& launch, cudaStream_t stream, double duration_s) {
  using clock = std::chrono::steady_clock;
  const auto begin = clock::now();
  const auto end = begin + std::chrono::duration<double>(duration_s);
  Window window;
  auto done = begin;
  while (done < end) {
    const auto launched = clock::now();
    launch();
    SW_CHECK(cudaStreamSynchronize(stream));
    done = clock::now();
    window.latency_ms.push_back(std::chrono::duration<double, std::milli>(done - launched).count());
  }
  window.elapsed_s = std::chrono::duration<double>(done - begin).count();
  if (window.latency_ms.size() < 20) {
    warn("only " + std::to_string(window.latency_ms.size()) +
         " launches in the window; the p99 is close to the maximum");
  }
  return window;
}

// One result line (see the top of this file).
inline void emit(const std::string& workload, const std::string& params, const char* metric, double value,
                 const char* unit) {
  std::printf("result %s %s %s %.6g %s\n", workload.c_str(), params.c_str(), metric, value, unit);
}

}  // namespace sw_probe
