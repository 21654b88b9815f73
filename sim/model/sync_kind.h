// sync_kind.h — what stands at one of the tiled kernels' two sync points: __syncthreads(),
// __syncwarp() or nothing. One type for the model, the kernel table and the CUDA kernels
// (kernels/sync.cuh), so a barrier variant means the same everywhere; plain C++ that nvcc
// also compiles.
#pragma once
#include <cstdint>

namespace sim {

enum class SyncKind : std::uint8_t { kSyncthreads, kSyncwarp, kNone };

}  // namespace sim
