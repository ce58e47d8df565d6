// The kernels the GPU probes run, and their launch geometry.
//
// fma_kernel: compute bound. `items` work items of kFmasPerItem dependent FMAs, spread over the
//   grid with a grid-stride loop; the work is fixed by `items`, not by the grid or the time, so a
//   kernel that loses the GPU (time slice) or SMs (green context) takes longer, as it should.
//   (A clock64() spin would not: the SM clock keeps counting while the context is switched out.)
// stream_kernel: memory bound. Reads one float4 array and writes another, grid-stride; each
//   launch moves 2 x the array's bytes through DRAM when the arrays are much larger than L2.
#pragma once

#include "probe_common.hpp"

namespace sw_probe {

constexpr int kThreadsPerBlock = 256;
constexpr int kFmasPerItem = 64;
// The stream kernel alone uses all the DRAM bandwidth a kernel can get (and, like the FMA kernel,
// every SM: sm_occupancy_frac keeps its default of 1). The rate model reads this demand.
constexpr const char* kStreamParams = "mem_bw_frac=1";

__global__ void fma_kernel(float* out, unsigned long long items) {
  const unsigned long long first = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  float acc = static_cast<float>(threadIdx.x) * 1e-3f;
  for (unsigned long long item = first; item < items; item += stride) {
#pragma unroll
    for (int k = 0; k < kFmasPerItem; ++k) acc = fmaf(acc, 0.999f, 0.001f);
  }
  out[first] = acc;  // keeps the chain from being optimised away
}

__global__ void fill_kernel(float4* data, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float v = static_cast<float>(i % 1024);
    data[i] = make_float4(v, v + 1, v + 2, v + 3);
  }
}

__global__ void stream_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float4 v = in[i];
    out[i] = make_float4(v.x * 0.5f, v.y * 0.5f, v.z * 0.5f, v.w * 0.5f);
  }
}

// One full wave: the blocks of kThreadsPerBlock threads that sm_count SMs hold at once.
template <class Kernel>
int full_wave_blocks(Kernel kernel, int sm_count) {
  int per_sm = 0;
  SW_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreadsPerBlock, 0));
  return per_sm * sm_count;
}

// The FMA kernel over one full wave of `sm_count` SMs, with its output buffer.
class FmaLaunch {
 public:
  FmaLaunch(int sm_count, cudaStream_t stream)
      : blocks_(full_wave_blocks(fma_kernel, sm_count)),
        out_(static_cast<size_t>(blocks_) * kThreadsPerBlock),
        stream_(stream) {}

  void operator()(unsigned long long items) const {
    fma_kernel<<<blocks_, kThreadsPerBlock, 0, stream_>>>(out_.data(), items);
    SW_CHECK_LAUNCH(fma_kernel);
  }

 private:
  int blocks_;
  DeviceArray<float> out_;
  cudaStream_t stream_;
};

// The stream kernel over one full wave of `sm_count` SMs, on two arrays of mib_per_array MiB.
class StreamLaunch {
 public:
  StreamLaunch(int sm_count, size_t mib_per_array, cudaStream_t stream)
      : blocks_(full_wave_blocks(stream_kernel, sm_count)),
        in_(mib_per_array * (size_t{1} << 20) / sizeof(float4)),
        out_(in_.size()),
        stream_(stream) {
    fill_kernel<<<blocks_, kThreadsPerBlock, 0, stream_>>>(in_.data(), in_.size());
    SW_CHECK_LAUNCH(fill_kernel);
    SW_CHECK(cudaStreamSynchronize(stream_));
  }

  void operator()() const {
    stream_kernel<<<blocks_, kThreadsPerBlock, 0, stream_>>>(in_.data(), out_.data(), in_.size());
    SW_CHECK_LAUNCH(stream_kernel);
  }

  // DRAM traffic of one launch: every element read once and written once.
  double bytes_per_launch() const { return static_cast<double>(in_.bytes() + out_.bytes()); }

 private:
  int blocks_;
  DeviceArray<float4> in_;
  DeviceArray<float4> out_;
  cudaStream_t stream_;
};

}  // namespace sw_probe
