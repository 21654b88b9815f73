// launchers.h — how the GPU module launches row i of kKernelTable (the teaching kernels;
// cuBLAS rows have no launcher here: module.cu calls cuBLAS itself).
#pragma once
#include <cuda_runtime.h>

namespace kernels::gpu {

using LaunchFn = void (*)(dim3 grid, dim3 block, cudaStream_t stream, const float* a, const float* b, float* c,
                          int m, int n, int k);

struct Launcher {
  const void* function = nullptr;  // the __global__ function, for occupancy; null for cuBLAS rows
  LaunchFn launch = nullptr;
  dim3 block;      // threads per block: x along N, y along M
  int tile_m = 0;  // rows of C a block computes
  int tile_n = 0;  // columns of C a block computes
};

// The launcher for row `kernel` of kKernelTable.
const Launcher& LauncherFor(int kernel);

}  // namespace kernels::gpu
