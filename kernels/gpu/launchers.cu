// launchers.cu — one launcher per row of kKernelTable, instantiated from the table itself.
//
// The teaching kernels are templates (01_naive.cu, 02_tiled.cu, 03_tiled_rect.cu); this
// file turns each row's constexpr parameters into template arguments, so the table stays
// the one list of what is compiled. Built with -lineinfo: racecheck's file:line then names
// the lines of those sources that TileScope's model points at.
#include <utility>

#include "kernels/01_naive.cu"
#include "kernels/02_tiled.cu"
#include "kernels/03_tiled_rect.cu"
#include "kernels/gpu/launchers.h"
#include "kernels/kernel_table.h"

namespace kernels::gpu {
namespace {

constexpr SyncKind ToSyncKind(Barrier barrier) {
  switch (barrier) {
    case Barrier::kSyncthreads: return SyncKind::kSyncthreads;
    case Barrier::kSyncwarp: return SyncKind::kSyncwarp;
    case Barrier::kNone: return SyncKind::kNone;
  }
  return SyncKind::kSyncthreads;
}

// The __global__ function of row I; null for rows cuBLAS computes.
template <std::size_t I>
constexpr auto KernelFunction() {
  constexpr KernelSpec spec = kKernelTable[I];
  using Fn = void (*)(const float*, const float*, float*, int, int, int);
  if constexpr (spec.family == KernelFamily::kNaive) {
    return static_cast<Fn>(naive_matmul<spec.guarded>);
  } else if constexpr (spec.family == KernelFamily::kTiled) {
    return static_cast<Fn>(tiled_matmul<spec.tile_m, ToSyncKind(spec.first_barrier), ToSyncKind(spec.second_barrier),
                                        spec.guarded, spec.ceil_tiles>);
  } else if constexpr (spec.family == KernelFamily::kTiledRect) {
    return static_cast<Fn>(tiled_rect_matmul<spec.tile_m, spec.tile_n, spec.tile_k, ToSyncKind(spec.first_barrier),
                                             ToSyncKind(spec.second_barrier), spec.guarded, spec.ceil_tiles>);
  } else {
    return static_cast<Fn>(nullptr);
  }
}

template <std::size_t I>
void Launch(dim3 grid, dim3 block, cudaStream_t stream, const float* a, const float* b, float* c, int m, int n,
            int k) {
  constexpr auto function = KernelFunction<I>();
  if constexpr (function != nullptr) function<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
}

template <std::size_t I>
Launcher MakeLauncher() {
  constexpr KernelSpec spec = kKernelTable[I];
  constexpr auto function = KernelFunction<I>();
  Launcher launcher;
  if constexpr (function != nullptr) {
    launcher.function = reinterpret_cast<const void*>(function);
    launcher.launch = Launch<I>;
    // A thread per element of the block's C tile: x walks N (columns), y walks M (rows).
    launcher.block = dim3(spec.tile_n, spec.tile_m);
    launcher.tile_m = spec.tile_m;
    launcher.tile_n = spec.tile_n;
  }
  return launcher;
}

template <std::size_t... I>
const Launcher* BuildTable(std::index_sequence<I...>) {
  static const Launcher table[] = {MakeLauncher<I>()...};
  return table;
}

}  // namespace

const Launcher& LauncherFor(int kernel) {
  static const Launcher* const table = BuildTable(std::make_index_sequence<kKernelCount>());
  return table[kernel];
}

}  // namespace kernels::gpu
