// launchers.cu — one launcher per row of kKernelTable, instantiated from the table itself.
//
// The kernels are templates (01_naive.cu … 13_mma_tf32.cu, 12b_stream_k.cu among them); this file turns each row's
// constexpr parameters into template arguments, so the table stays the one list of what
// is compiled, and describes each launch as a LaunchConfig that one function launches.
// Built with -lineinfo: racecheck's file:line then names the lines of those sources that
// TileScope's model points at.
#include <utility>

#include "kernels/01_naive.cu"
#include "kernels/02_tiled.cu"
#include "kernels/03_tiled_rect.cu"
#include "kernels/04_blocktile_1d.cu"
#include "kernels/05_blocktile_2d.cu"
#include "kernels/06_vectorized.cu"
#include "kernels/07_conflict_free.cu"
#include "kernels/08_warptile.cu"
#include "kernels/09_double_buffered.cu"
#include "kernels/10_async_copy.cu"
#include "kernels/11_register_tile.cu"
#include "kernels/12_all_async.cu"
#include "kernels/12b_stream_k.cu"
#include "kernels/13_mma_tf32.cu"
#include "kernels/gpu/hopper_launchers.h"
#include "kernels/gpu/launchers.h"
#include "kernels/kernel_table.h"

namespace kernels::gpu {
namespace {

using KernelFn = void (*)(const float*, const float*, float*, int, int, int);

// Above this a kernel must opt in to more dynamic shared memory (cudaFuncSetAttribute).
constexpr unsigned kDefaultSharedLimit = 48 * 1024;

constexpr unsigned Blocks(long long extent, int tile) { return static_cast<unsigned>((extent + tile - 1) / tile); }

// The __global__ function of ladder row I.
template <std::size_t I>
constexpr KernelFn RungFunction() {
  constexpr KernelSpec s = kKernelTable[I];
  if constexpr (s.rung == LadderRung::kBlocktile1d) {
    static_assert(s.thread_n == 1, "04 computes a column of thread_m elements per thread");
    return blocktile_1d_matmul<s.tile_m, s.tile_n, s.tile_k, s.thread_m>;
  } else if constexpr (s.rung == LadderRung::kBlocktile2d) {
    return blocktile_2d_matmul<s.tile_m, s.tile_n, s.tile_k, s.thread_m, s.thread_n>;
  } else if constexpr (s.rung == LadderRung::kVectorized) {
    return vectorized_matmul<s.tile_m, s.tile_n, s.tile_k, s.thread_m, s.thread_n>;
  } else if constexpr (s.rung == LadderRung::kConflictFree) {
    static_assert(s.thread_m == conflict_free::kThreadTile && s.thread_n == conflict_free::kThreadTile,
                  "07's micro-tile is fixed by its quadrants");
    return conflict_free_matmul<s.tile_m, s.tile_n, s.tile_k>;
  } else if constexpr (s.rung == LadderRung::kWarptile) {
    return warptile_matmul<s.tile_m, s.tile_n, s.tile_k, s.warp_m, s.warp_n>;
  } else if constexpr (s.rung == LadderRung::kDoubleBuffered) {
    return double_buffered_matmul<s.tile_m, s.tile_n, s.tile_k, s.warp_m, s.warp_n>;
  } else if constexpr (s.rung == LadderRung::kAsyncCopy || s.rung == LadderRung::kRegisterTile) {
    return async_copy_matmul<s.tile_m, s.tile_n, s.tile_k, s.warp_m, s.warp_n>;
  } else if constexpr (s.rung == LadderRung::kAllAsync) {
    return all_async_matmul<s.tile_m, s.tile_n, s.tile_k, s.warp_m, s.warp_n>;
  } else if constexpr (s.rung == LadderRung::kMmaTf32) {
    return mma_tf32_matmul<s.tile_m, s.tile_n, s.tile_k, s.warp_m, s.warp_n>;
  } else {
    return nullptr;
  }
}

// The __global__ function of teaching row I; null for rows cuBLAS computes.
template <std::size_t I>
constexpr KernelFn KernelFunction() {
  constexpr KernelSpec spec = kKernelTable[I];
  if constexpr (spec.family == KernelFamily::kNaive) {
    return naive_matmul<spec.guarded>;
  } else if constexpr (spec.family == KernelFamily::kTiled) {
    return tiled_matmul<spec.tile_m, spec.first_barrier, spec.second_barrier, spec.guarded,
                        spec.ceil_tiles, spec.bs_transposed>;
  } else if constexpr (spec.family == KernelFamily::kTiledRect) {
    return tiled_rect_matmul<spec.tile_m, spec.tile_n, spec.tile_k, spec.first_barrier,
                             spec.second_barrier, spec.guarded, spec.ceil_tiles>;
  } else if constexpr (spec.family == KernelFamily::kLadder) {
    return RungFunction<I>();
  } else {
    return nullptr;
  }
}

// A block tile per block, over a 2D grid: x walks N, y walks M.
template <std::size_t I>
LaunchConfig GridConfig(const DeviceLimits&, int m, int n, int) {
  constexpr KernelSpec spec = kKernelTable[I];
  LaunchConfig config;
  config.function = reinterpret_cast<const void*>(KernelFunction<I>());
  config.grid = dim3(Blocks(n, spec.tile_n), Blocks(m, spec.tile_m));
  if constexpr (spec.family == KernelFamily::kLadder) {
    config.block = dim3(ThreadsPerBlock(spec));  // the rungs index their threads flat
  } else {
    config.block = dim3(spec.tile_n, spec.tile_m);  // a thread per element of the tile
  }
  if constexpr (spec.rung == LadderRung::kDoubleBuffered || spec.rung == LadderRung::kAsyncCopy ||
                spec.rung == LadderRung::kRegisterTile || spec.rung == LadderRung::kAllAsync) {
    static_assert(double_buffered::Tiling<spec.tile_m, spec.tile_n, spec.tile_k, spec.warp_m, spec.warp_n>::kTM ==
                          spec.thread_m &&
                      double_buffered::Tiling<spec.tile_m, spec.tile_n, spec.tile_k, spec.warp_m, spec.warp_n>::kTN ==
                          spec.thread_n,
                  "the table's micro-tile must be the one the warp tile gives");
  }
  return config;
}

// 11 and 12: their large tile where that grid keeps most SMs busy; else 10's 128×128 tile,
// split along K over clusters where even that grid leaves SMs idle.
template <std::size_t I>
LaunchConfig RegisterTileConfig(const DeviceLimits& device, int m, int n, int k) {
  constexpr KernelSpec spec = kKernelTable[I];
  namespace rt = register_tile;
  static_assert(ThreadsPerBlock(spec) == async_copy::Tiling<rt::kSmallBM, rt::kSmallBN, spec.tile_k, rt::kSmallWM,
                                                            rt::kSmallWN>::kThreads,
                "both tiles run with the threads the table gives");
  LaunchConfig config = GridConfig<I>(device, m, n, k);
  if (rt::LargeTileFills(static_cast<long long>(config.grid.x) * config.grid.y, device.sm_count)) return config;
  config.function = reinterpret_cast<const void*>(
      async_copy_matmul<rt::kSmallBM, rt::kSmallBN, spec.tile_k, rt::kSmallWM, rt::kSmallWN>);
  config.grid = dim3(Blocks(n, rt::kSmallBN), Blocks(m, rt::kSmallBM));
  const long long tiles = static_cast<long long>(config.grid.x) * config.grid.y;
  // Classroom GPUs before sm_90 have no clusters: there the small tile runs unsplit.
  const int splits = device.clusters ? rt::SplitsFor(tiles, device.sm_count, Blocks(k, spec.tile_k)) : 1;
  if (splits == 1) return config;
  config.function = reinterpret_cast<const void*>(
      register_tile_split_k_matmul<rt::kSmallBM, rt::kSmallBN, spec.tile_k, rt::kSmallWM, rt::kSmallWN>);
  config.grid.z = static_cast<unsigned>(splits);
  config.cluster_z = static_cast<unsigned>(splits);
  config.shared_bytes = rt::SharedBytes(rt::kSmallBM, rt::kSmallBN, device.shared_per_sm);
  return config;
}

// 12b at tile BM×BN: a block per tile, the last tiles shared along K by one block per SM
// slot where whole tiles would leave part of a wave idle (stream_k::PlanFor).
template <std::size_t I, int BM, int BN, int WM, int WN>
LaunchConfig StreamKTileConfig(const DeviceLimits& device, int m, int n, int k) {
  constexpr KernelSpec spec = kKernelTable[I];
  static_assert(async_copy::Tiling<BM, BN, spec.tile_k, WM, WN>::kThreads == ThreadsPerBlock(spec),
                "both tiles run with the threads the table gives");
  constexpr int kBlocksPerSm = async_copy::MinBlocks<BM, BN, spec.tile_k, WM, WN>();
  const long long tiles = static_cast<long long>(Blocks(n, BN)) * Blocks(m, BM);
  const stream_k::Plan plan = stream_k::PlanFor(tiles, Blocks(k, spec.tile_k), device.sm_count * kBlocksPerSm,
                                                stream_k::MaxSharingBlocks(BM * BN));
  LaunchConfig config;
  // 16-byte copies where every row of A and B is a multiple of 16 bytes long: the runner's
  // matrices start where cudaMalloc put them (256-byte aligned), so every row starts aligned.
  const bool vector_rows = k % ladder::kVec == 0 && n % ladder::kVec == 0;
  config.function = vector_rows
                        ? reinterpret_cast<const void*>(stream_k_matmul<BM, BN, spec.tile_k, WM, WN, true>)
                        : reinterpret_cast<const void*>(stream_k_matmul<BM, BN, spec.tile_k, WM, WN, false>);
  config.grid = dim3(static_cast<unsigned>(plan.blocks + (tiles - plan.tiles)));
  config.block = dim3(ThreadsPerBlock(spec));
  config.shared_tiles = plan.tiles;
  config.sharing_blocks = plan.blocks;
  return config;
}

// 12b: the table's tile, or 10's 128×128 where that pads C with enough fewer FMAs
// (stream_k::SmallTilePays).
template <std::size_t I>
LaunchConfig StreamKConfig(const DeviceLimits& device, int m, int n, int k) {
  constexpr KernelSpec spec = kKernelTable[I];
  namespace rt = register_tile;
  if (stream_k::SmallTilePays(m, n, spec.tile_m, spec.tile_n, rt::kSmallBM, rt::kSmallBN)) {
    return StreamKTileConfig<I, rt::kSmallBM, rt::kSmallBN, rt::kSmallWM, rt::kSmallWN>(device, m, n, k);
  }
  return StreamKTileConfig<I, spec.tile_m, spec.tile_n, spec.warp_m, spec.warp_n>(device, m, n, k);
}

// 13 at block tile BM×BN: the most stages (4, 3, then 2) whose shared memory one block may
// have on this device; false where not even 2 fit.
template <int BM, int BN, int BK, int WM, int WN, int S = mma_tf32::kStages>
bool MmaTileFits(const DeviceLimits& device, LaunchConfig& config) {
  constexpr unsigned bytes = mma_tf32::Tiling<BM, BN, WM, WN, S>::kSharedBytes;
  if (bytes <= static_cast<unsigned>(device.shared_per_block)) {
    config.function = reinterpret_cast<const void*>(mma_tf32_matmul<BM, BN, BK, WM, WN, S>);
    config.shared_bytes = bytes;
    return true;
  }
  if constexpr (S > 2) return MmaTileFits<BM, BN, BK, WM, WN, S - 1>(device, config);
  return false;
}

// 13: the table's tile where its grid fills the SMs, else (or where its stages do not fit,
// on GPUs with about 100 KB of shared memory per SM) the small tile, which makes 4× as many
// blocks.
template <std::size_t I>
LaunchConfig MmaConfig(const DeviceLimits& device, int m, int n, int k) {
  constexpr KernelSpec spec = kKernelTable[I];
  namespace mt = mma_tf32;
  using Large = mt::Tiling<spec.tile_m, spec.tile_n, spec.warp_m, spec.warp_n, mt::kStages>;
  using Small = mt::Tiling<mt::kSmallBM, mt::kSmallBN, mt::kSmallWM, mt::kSmallWN, mt::kStages>;
  static_assert(ThreadsPerBlock(spec) == Large::kThreads && ThreadsPerBlock(spec) == Small::kThreads,
                "both tiles run with the threads the table gives");
  LaunchConfig config = GridConfig<I>(device, m, n, k);
  const bool fills = static_cast<long long>(config.grid.x) * config.grid.y >= device.sm_count;
  if (fills && MmaTileFits<spec.tile_m, spec.tile_n, spec.tile_k, spec.warp_m, spec.warp_n>(device, config)) {
    return config;
  }
  if (MmaTileFits<mt::kSmallBM, mt::kSmallBN, spec.tile_k, mt::kSmallWM, mt::kSmallWN>(device, config)) {
    config.grid = dim3(Blocks(n, mt::kSmallBN), Blocks(m, mt::kSmallBM));
  }
  return config;
}

template <std::size_t I>
Launcher MakeLauncher() {
  constexpr KernelSpec spec = kKernelTable[I];
  Launcher launcher;
  if constexpr (spec.rung == LadderRung::kRegisterTile || spec.rung == LadderRung::kAllAsync) {
    launcher.config = RegisterTileConfig<I>;
  } else if constexpr (spec.rung == LadderRung::kStreamK) {
    launcher.config = StreamKConfig<I>;
  } else if constexpr (spec.rung == LadderRung::kMmaTf32) {
    launcher.config = MmaConfig<I>;
  } else if constexpr (spec.rung == LadderRung::kWgmmaBf16) {
    launcher.config = WgmmaBf16Config;
  } else if constexpr (spec.rung == LadderRung::kWarpSpecialized) {
    launcher.config = WarpSpecializedConfig;
  } else if constexpr (spec.rung == LadderRung::kWgmmaTf32) {
    launcher.config = WgmmaTf32Config;
  } else if constexpr (spec.rung == LadderRung::kStagedEpilogue) {
    launcher.config = StagedEpilogueConfig;
  } else if constexpr (KernelFunction<I>() != nullptr) {
    launcher.config = GridConfig<I>;
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

cudaError_t PrepareLaunch(const LaunchConfig& config) {
  if (config.shared_bytes <= kDefaultSharedLimit) return cudaSuccess;
  return cudaFuncSetAttribute(config.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(config.shared_bytes));
}

cudaError_t LaunchWith(const LaunchConfig& config, cudaStream_t stream, const Operands& operands, float* c, int m, int n,
                       int k) {
  const float* a = operands.a;
  const float* b = operands.b;
  void* pointer_args[] = {&a, &b, &c, &m, &n, &k};
  int shared_tiles = config.shared_tiles, sharing_blocks = config.sharing_blocks;
  void* stream_plan_args[] = {&a, &b, &c, &m, &n, &k, &shared_tiles, &sharing_blocks};
  // A CUtensorMap parameter is passed by value: its argument is the map's address.
  void* map_args[] = {const_cast<CUtensorMap*>(operands.a_map), const_cast<CUtensorMap*>(operands.b_map), &c, &m, &n,
                      &k};
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = config.cluster_z;
  cudaLaunchConfig_t launch{};
  launch.gridDim = config.grid;
  launch.blockDim = config.block;
  launch.dynamicSmemBytes = config.shared_bytes;
  launch.stream = stream;
  // A cluster of one is no cluster: such launches go out without the attribute.
  launch.attrs = config.cluster_z > 1 ? &cluster : nullptr;
  launch.numAttrs = config.cluster_z > 1 ? 1 : 0;
  void** args = config.TakesTensorMaps() ? map_args : config.TakesStreamPlan() ? stream_plan_args : pointer_args;
  return cudaLaunchKernelExC(&launch, config.function, args);
}

}  // namespace kernels::gpu
