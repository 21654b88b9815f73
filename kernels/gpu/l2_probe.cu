// l2_probe.cu — ts_l2_bandwidth (gpu_abi.h): the device's L2 bandwidth, measured, for the
// roofline's L2 roof. The datasheets do not give it, and it is not memory clock × bus width.
//
// A buffer of a quarter of L2 is read once to bring it in, then every SM's threads read it
// over and over, 16 bytes a load, with ld.global.cg: cached in L2 only, so the loads cannot
// be served by an SM's L1 (each SM's share of the buffer would fit there). A quarter leaves
// room for whatever else L2 holds and for its split into two partitions. Bytes read over the
// median time of a few launches, each timed by CUDA events.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/gpu/gpu_errors.h"
#include "kernels/gpu_abi.h"

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kPasses = 64;  // reads of the whole buffer per launch: ~1 GB on an H100's 50 MB L2
constexpr int kLaunches = 9;

using kernels::gpu::SetError;

// Each thread sums its float4s of every pass; the sum is stored only if it is exactly a value
// no input makes, so the loads cannot be dropped and the store almost never happens.
__global__ void ReadFromL2(const float4* buffer, size_t count, int passes, float* sink) {
  float sum = 0.0f;
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += stride) {
      const float4 v = __ldcg(buffer + i);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  if (sum == -1.0f) *sink = sum;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) TsStatus ts_l2_bandwidth(double* gbs, char* error, size_t error_size) {
  *gbs = 0.0;
  kernels::gpu::CudaCheck check("measuring L2 bandwidth, ");
  int device = 0, l2_bytes = 0, sm_count = 0;
  check.Ok(cudaGetDevice(&device), "cudaGetDevice") &&
      check.Ok(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), "the L2 size") &&
      check.Ok(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device), "the SM count");
  const size_t count = static_cast<size_t>(l2_bytes) / 4 / sizeof(float4);
  float4* buffer = nullptr;
  float* sink = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<double> times;
  if (check.message.empty() && count == 0) check.message = "the device reports no L2 cache";
  if (check.Ok(cudaMalloc(&buffer, count * sizeof(float4)), "allocating the buffer") &&
      check.Ok(cudaMalloc(&sink, sizeof(float)), "allocating the buffer") &&
      check.Ok(cudaMemset(buffer, 0, count * sizeof(float4)), "zeroing the buffer") &&
      check.Ok(cudaEventCreate(&start), "events") && check.Ok(cudaEventCreate(&stop), "events")) {
    const int blocks = sm_count * kBlocksPerSm;
    ReadFromL2<<<blocks, kThreads>>>(buffer, count, 1, sink);  // brings the buffer into L2
    for (int launch = 0; launch < kLaunches && check.message.empty(); ++launch) {
      cudaEventRecord(start);
      ReadFromL2<<<blocks, kThreads>>>(buffer, count, kPasses, sink);
      cudaEventRecord(stop);
      float ms = 0.0f;
      if (check.Ok(cudaGetLastError(), "launch") && check.Ok(cudaEventSynchronize(stop), "the read") &&
          check.Ok(cudaEventElapsedTime(&ms, start, stop), "timing")) {
        times.push_back(ms);
      }
    }
  }
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
  cudaFree(buffer);
  cudaFree(sink);
  if (!check.message.empty()) {
    SetError(error, error_size, check.message);
    return TS_ERROR;
  }
  std::sort(times.begin(), times.end());
  const double median_ms = times[times.size() / 2];
  *gbs = double(count) * sizeof(float4) * kPasses / (median_ms * 1e-3) / 1e9;
  return TS_OK;
}

}  // extern "C"
