// sync.cuh — the barrier a kernel places at each of its sync points.
//
// What it teaches: the race lab swaps one barrier at a time. __syncthreads() waits for
// every thread of the block; __syncwarp() only for the 32 lanes of one warp, which is
// enough when the whole block is one warp and not otherwise; kNone removes the barrier.
// The kernels name the kind per sync point as a template argument, so every variant runs
// the same source lines and a race detector's file:line matches TileScope's model.
#pragma once
#include "sim/model/sync_kind.h"

using sim::SyncKind;

template <SyncKind kKind>
__device__ __forceinline__ void Sync() {
  if constexpr (kKind == SyncKind::kSyncthreads) {
    __syncthreads();
  } else if constexpr (kKind == SyncKind::kSyncwarp) {
    __syncwarp();
  }
}
