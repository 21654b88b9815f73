// hopper_launchers.h — the rungs that need sm_90a (wgmma, TMA), from a translation unit the
// build compiles for that architecture alone (kernels/CMakeLists.txt): a GPU of any other
// compute capability has no code for them, and the runner refuses their rows before launching.
#pragma once
#include <cuda.h>

#include <string>

#include "kernels/gpu/launchers.h"

namespace kernels::gpu {

// 14 wgmma_bf16: its grid, block, shared memory and the boxes of its tensor maps.
LaunchConfig WgmmaBf16Config(const DeviceLimits& device, int m, int n, int k);
// 15 warp_specialized: as 14's, on a persistent grid of at most one block per SM.
LaunchConfig WarpSpecializedConfig(const DeviceLimits& device, int m, int n, int k);
// 16 wgmma_tf32: as 15's, its maps over FP32 copies.
LaunchConfig WgmmaTf32Config(const DeviceLimits& device, int m, int n, int k);
// 17 staged_epilogue: as 15's, with its epilogue's shared memory.
LaunchConfig StagedEpilogueConfig(const DeviceLimits& device, int m, int n, int k);

// Describes a rows×cols row-major matrix of BF16 (`bf16`) or FP32 elements whose rows are
// `row_stride` elements apart (a multiple of 16 bytes) for TMA copies of boxes of
// kHopperBoxBytes of a row by `box_rows` rows, 128-byte swizzled, zeros outside. Empty on
// success, else why not.
std::string EncodeKMajorTensorMap(CUtensorMap& map, const void* data, bool bf16, long long rows, long long cols,
                                  long long row_stride, int box_rows);

}  // namespace kernels::gpu
