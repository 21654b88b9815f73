// l2_probe.cu — ts_l2_bandwidth (gpu_abi.h): the device's L2 bandwidth, measured, for the
// roofline's L2 roof. The datasheets do not give it, and it is not memory clock × bus width.
//
// A buffer of a quarter of L2 is read once to bring it in, then every SM's threads read it
// over and over, 16 bytes a load, with ld.global.cg: cached in L2 only, so the loads cannot
// be served by an SM's L1 (each SM's share of the buffer would fit there). A quarter leaves
// room for whatever else L2 holds and for its split into two partitions. Bytes read over the
// median time of a few launches, each timed by CUDA events.
//
// From Hopper (sm_90) on, the copy engine (TMA) that rungs 14 on feed their tiles with draws
// more from L2 than the SMs' loads do; there the buffer is also read by bulk copies into
// shared memory, one thread per SM asking for 32 KiB at a time with several in flight, and
// the figure is the faster of the two ways.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/gpu/gpu_errors.h"
#include "kernels/gpu_abi.h"
#include "kernels/hopper_common.cuh"

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

constexpr unsigned kCopyBytes = 32 * 1024;  // one bulk copy
constexpr int kCopySlots = 6;                // copies in flight per SM: 192 KiB of shared memory
constexpr unsigned kCopySharedBytes = kCopySlots * kCopyBytes;

// Block b copies chunks b, b + gridDim.x, … (`per_block` of them, the same for every block,
// so that all finish together) of kCopyBytes, `passes` times, into a ring of kCopySlots
// buffers; a slot is reused once its copy has landed. The data is never read: the copies
// alone are timed. One thread a block: the engine does the work. Block 0 sets *copied to 1 at
// the end: code built for an older GPU and run through the driver's JIT has no copies.
__global__ void CopyFromL2(const unsigned char* buffer, int per_block, int passes, float* copied) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char slots[];
  __shared__ std::uint64_t landed[kCopySlots];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < kCopySlots; ++s) hopper::InitBarrier(&landed[s], 1);
  hopper::FenceBarrierInit();
  int issued = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (int i = 0; i < per_block; ++i, ++issued) {
      const int s = issued % kCopySlots;
      if (issued >= kCopySlots) hopper::WaitPhase(&landed[s], (issued / kCopySlots + 1) % 2);
      hopper::ArriveExpectingBytes(&landed[s], kCopyBytes);
      const size_t chunk = blockIdx.x + size_t{gridDim.x} * i;
      hopper::CopyBulk(slots + s * kCopyBytes, buffer + chunk * kCopyBytes, kCopyBytes, &landed[s]);
    }
  }
  for (int i = issued > kCopySlots ? issued - kCopySlots : 0; i < issued; ++i) {
    hopper::WaitPhase(&landed[i % kCopySlots], i / kCopySlots % 2);
  }
  if (blockIdx.x == 0) *copied = 1.0f;
#endif
}

// The median of `times`, in ms.
double Median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) TsStatus ts_l2_bandwidth(double* gbs, char* error, size_t error_size) {
  *gbs = 0.0;
  kernels::gpu::CudaCheck check("measuring L2 bandwidth, ");
  int device = 0, l2_bytes = 0, sm_count = 0, cc_major = 0;
  check.Ok(cudaGetDevice(&device), "cudaGetDevice") &&
      check.Ok(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), "the L2 size") &&
      check.Ok(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device), "the SM count") &&
      check.Ok(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, device), "the compute capability");
  const size_t count = static_cast<size_t>(l2_bytes) / 4 / sizeof(float4);
  float4* buffer = nullptr;
  float* sink = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<double> times, copy_times;
  const int per_block = sm_count > 0 ? static_cast<int>(count * sizeof(float4) / kCopyBytes / sm_count) : 0;
  const bool copies = cc_major >= 9 && per_block > 0;
  if (check.message.empty() && count == 0) check.message = "the device reports no L2 cache";
  if (check.Ok(cudaMalloc(&buffer, count * sizeof(float4)), "allocating the buffer") &&
      check.Ok(cudaMalloc(&sink, sizeof(float)), "allocating the buffer") &&
      check.Ok(cudaMemset(buffer, 0, count * sizeof(float4)), "zeroing the buffer") &&
      check.Ok(cudaMemset(sink, 0, sizeof(float)), "zeroing the buffer") &&
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
    float copied = 0.0f;
    if (copies && check.Ok(cudaFuncSetAttribute(CopyFromL2, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(kCopySharedBytes)),
                           "raising the bulk copies' shared memory")) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(buffer);
      for (int launch = 0; launch < kLaunches && check.message.empty(); ++launch) {
        cudaEventRecord(start);
        CopyFromL2<<<sm_count, 32, kCopySharedBytes>>>(bytes, per_block, kPasses, sink);
        cudaEventRecord(stop);
        float ms = 0.0f;
        if (check.Ok(cudaGetLastError(), "bulk-copy launch") && check.Ok(cudaEventSynchronize(stop), "the copies") &&
            check.Ok(cudaEventElapsedTime(&ms, start, stop), "timing")) {
          copy_times.push_back(ms);
        }
      }
      if (check.Ok(cudaMemcpy(&copied, sink, sizeof copied, cudaMemcpyDeviceToHost), "reading the copies' flag") &&
          copied != 1.0f) {
        copy_times.clear();
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
  *gbs = double(count) * sizeof(float4) * kPasses / (Median(times) * 1e-3) / 1e9;
  if (!copy_times.empty()) {
    const double copied = double(sm_count) * per_block * kCopyBytes * kPasses;
    *gbs = std::max(*gbs, copied / (Median(copy_times) * 1e-3) / 1e9);
  }
  return TS_OK;
}

}  // extern "C"
