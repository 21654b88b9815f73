// launchers.h — how the GPU module launches row i of kKernelTable (the teaching kernels
// and the ladder's rungs; cuBLAS rows have no launcher here: module.cu calls cuBLAS itself).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

namespace kernels::gpu {

// Everything one launch of a row at one shape needs: which __global__ function, its grid
// and block, its dynamic shared memory and its cluster (blocks per cluster along z).
struct LaunchConfig {
  const void* function = nullptr;
  dim3 grid;
  dim3 block;  // x along N (or the flat thread index), y along M
  unsigned shared_bytes = 0;
  unsigned cluster_z = 1;
  // Rows that read K-major operands through tensor maps (rungs 14 on: BF16 copies, or FP32
  // for TF32): the rows of A's and of Bᵀ's box per copy (kHopperBoxBytes of K each); 0 for
  // rows that take FP32 pointers.
  int box_rows_a = 0;
  int box_rows_b = 0;
  bool TakesTensorMaps() const { return box_rows_a > 0; }
  // Rung 12b: the tiles its first blocks share along K and how many blocks share them
  // (stream_k::Plan), passed after M, N, K; -1 for rows whose kernels take no such arguments.
  int shared_tiles = -1;
  int sharing_blocks = 0;
  bool TakesStreamPlan() const { return shared_tiles >= 0; }
};

// Bytes of K in one TMA box row: one 128-byte swizzled row (64 BF16 or 32 FP32 elements).
constexpr int kHopperBoxBytes = 128;

// What a launch multiplies: FP32 A and B for the rows that take pointers; for those that
// take tensor maps, maps of the K-major copies of A and of Bᵀ (module.cu makes them).
struct Operands {
  const float* a = nullptr;
  const float* b = nullptr;
  const CUtensorMap* a_map = nullptr;
  const CUtensorMap* b_map = nullptr;
};

// What the device offers that a row's choice of configuration depends on.
struct DeviceLimits {
  int sm_count = 0;
  int shared_per_sm = 0;  // bytes of shared memory per SM (cudaDevAttrMaxSharedMemoryPerMultiprocessor)
  int shared_per_block = 0;  // the most one block may opt in to (cudaDevAttrMaxSharedMemoryPerBlockOptin)
  bool clusters = false;  // thread-block clusters (compute capability 9.0 and newer)
  int cc_major = 0;       // compute capability
  int cc_minor = 0;
};

using ConfigFn = LaunchConfig (*)(const DeviceLimits& device, int m, int n, int k);

struct Launcher {
  ConfigFn config = nullptr;  // null for cuBLAS rows
};

// The launcher for row `kernel` of kKernelTable.
const Launcher& LauncherFor(int kernel);

// Raises the function's dynamic shared-memory limit where the configuration needs more
// than the default; call once before the launches (it is not timed).
cudaError_t PrepareLaunch(const LaunchConfig& config);

// C = A·B with the configured kernel, into `stream`. The one launch path of every row.
cudaError_t LaunchWith(const LaunchConfig& config, cudaStream_t stream, const Operands& operands, float* c, int m, int n,
                       int k);

}  // namespace kernels::gpu
