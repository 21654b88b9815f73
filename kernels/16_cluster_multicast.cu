// 16_cluster_multicast.cu — two blocks share one copy of B: a cluster with TMA multicast.
//
// What it teaches: every block of rung 15 brings its own 48 KiB per stage from L2 into its
// SM: A's 128×64 box and B's 256×64. Two blocks whose tiles lie one above the other (rows
// r and r + 1 of tiles, the same column) need the same B box. Hopper groups blocks into a
// cluster, whose blocks run at once on neighbouring SMs and reach each other's shared
// memory; and the TMA can multicast: one copy from L2 written into the shared memory of
// several blocks of the cluster. Here a cluster of 2 splits B's box in halves: block 0 of the
// pair copies rows 0–127 of it, block 1 rows 128–255, each to both blocks. Per stage an SM
// then asks L2 for 16 KiB of A and 16 KiB of B instead of 48 KiB: a third less traffic.
//
// The price is coordination across the pair:
// - a stage's "full" barrier in each block now counts 48 KiB arriving from two TMA copies
//   of its own block and one of the other block's;
// - a stage may be refilled only when the consumers of BOTH blocks are done with it (the
//   refill writes into both): its "empty" barrier counts 4 arrivals, each consumer
//   warpgroup arriving at its own block's barrier and at the same barrier of the other
//   block (mapa gives the other block's address of it);
// - the barriers are initialised in both blocks before either may signal the other's, and
//   neither block may exit while the other may still arrive at its barriers: the cluster
//   syncs at the start and at the end.
//
// Tiles: as rung 15 (128×256 per block, K 64 per stage, 4 stages, a producer warpgroup and
// two consumers, persistent), the grid's clusters walking pairs of tiles (256×256 of C) in
// groups of 4 pair rows. Where the tile rows are odd, the last pair's second block copies
// zeros for A (its box lies below the matrix) and stores nothing, but still copies its half
// of B for its partner.
//
// What the hardware does: as rung 14 (TMA, 128-byte swizzle, wgmma), with clusters
// (cudaLaunchAttributeClusterDimension) and multicast copies. Needs sm_90a.
//
// Run it: `tilescope bench --kernels warp_specialized,cluster_multicast,cublas_bf16 --sizes 1024:8192 --reps 20`.
#pragma once
#include "hopper_common.cuh"

namespace cluster_multicast {

constexpr int kBM = 128;
constexpr int kBN = 256;
constexpr int kBK = 64;  // BF16 elements in one 128-byte swizzled row
constexpr int kMmaK = 16;
constexpr int kStages = 4;
constexpr int kConsumers = kBM / 64;
constexpr int kThreads = (kConsumers + 1) * hopper::kWarpgroup;
constexpr int kCluster = 2;  // blocks that share B's box, one tile row apart
constexpr int kGroupPairs = 4;
constexpr unsigned kElementBytes = 2;
constexpr unsigned kTileBytesA = kBM * kBK * kElementBytes;
constexpr unsigned kTileBytesB = kBN * kBK * kElementBytes;
constexpr int kHalfRowsB = kBN / kCluster;  // rows of B's box each block copies for both
constexpr unsigned kHalfBytesB = kTileBytesB / kCluster;
constexpr unsigned kStageBytes = kTileBytesA + kTileBytesB;
constexpr unsigned kSharedBytes = kStages * kStageBytes + hopper::kSwizzleAtomBytes;
constexpr std::uint16_t kBothBlocks = (1u << kCluster) - 1;
static_assert(kBK * kElementBytes == hopper::kSwizzleRowBytes, "a tile row is one swizzled 128-byte row");
static_assert(kHalfBytesB % hopper::kSwizzleAtomBytes == 0, "each half of B starts on a swizzle boundary");

// The pairs of tiles a cluster walks, and the slices of K.
struct Work {
  int tiles_m, tiles_n, pairs_m, tiles_k;
  __device__ __forceinline__ Work(int M, int N, int K)
      : tiles_m((M + kBM - 1) / kBM),
        tiles_n((N + kBN - 1) / kBN),
        pairs_m((tiles_m + kCluster - 1) / kCluster),
        tiles_k((K + kBK - 1) / kBK) {}
  __device__ __forceinline__ int Pairs() const { return pairs_m * tiles_n; }
  // Block `rank`'s tile (row, column of tiles) in pair `pair`.
  __device__ __forceinline__ int2 Tile(int pair, unsigned rank) const {
    const int2 p = hopper::GroupedTile(pair, pairs_m, tiles_n, kGroupPairs);
    return make_int2(p.x * kCluster + static_cast<int>(rank), p.y);
  }
  __device__ __forceinline__ int FirstPair() const { return static_cast<int>(blockIdx.x) / kCluster; }
  __device__ __forceinline__ int PairStride() const { return static_cast<int>(gridDim.x) / kCluster; }
};

// The producer's one thread: per slice, wait until both blocks freed the stage, then copy
// A's box for this block and this block's half of B's box for both.
__device__ __forceinline__ void Produce(const Work& work, unsigned rank, const CUtensorMap* a_map,
                                        const CUtensorMap* b_map, unsigned char* shared, std::uint64_t* full,
                                        std::uint64_t* empty) {
  int slice = 0;
  for (int pair = work.FirstPair(); pair < work.Pairs(); pair += work.PairStride()) {
    const int2 tile = work.Tile(pair, rank);
    for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
      const int s = slice % kStages;
      if (slice >= kStages) hopper::WaitPhase(&empty[s], (slice / kStages + 1) % 2);
      unsigned char* stage = shared + s * kStageBytes;
      hopper::ArriveExpectingBytes(&full[s], kStageBytes);
      hopper::LoadBox(stage, a_map, &full[s], kt * kBK, tile.x * kBM);
      hopper::LoadBoxMulticast(stage + kTileBytesA + rank * kHalfBytesB, b_map, &full[s], kt * kBK,
                               tile.y * kBN + static_cast<int>(rank) * kHalfRowsB, kBothBlocks);
    }
  }
}

// A consumer warpgroup: its 64 rows × 256 columns of each of this block's tiles.
__device__ __forceinline__ void Consume(const Work& work, unsigned rank, unsigned char* shared, std::uint64_t* full,
                                        std::uint64_t* empty, float* C, int M, int N, int consumer) {
  const bool leader = threadIdx.x % hopper::kWarpgroup == 0;  // arrives for the warpgroup, in both blocks
  const auto release = [&](int slice) {
    if (!leader) return;
    for (unsigned block = 0; block < kCluster; ++block) hopper::ArriveInBlock(&empty[slice % kStages], block);
  };
  const unsigned rows_offset = consumer * 64 * hopper::kSwizzleRowBytes;
  float acc[hopper::kAccumulators256];
  int slice = 0;
  for (int pair = work.FirstPair(); pair < work.Pairs(); pair += work.PairStride()) {
#pragma unroll
    for (float& value : acc) value = 0.0f;
    for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
      const int s = slice % kStages;
      hopper::WaitPhase(&full[s], slice / kStages % 2);
      const unsigned char* stage = shared + s * kStageBytes;
      const std::uint64_t a = hopper::SwizzledTileDescriptor(stage + rows_offset);
      const std::uint64_t b = hopper::SwizzledTileDescriptor(stage + kTileBytesA);
      hopper::FenceOperands();
#pragma unroll
      for (int k = 0; k < kBK / kMmaK; ++k) {
        const unsigned step = k * kMmaK * kElementBytes;
        hopper::MmaBf16M64N256K16(acc, hopper::Advance(a, step), hopper::Advance(b, step));
      }
      hopper::CommitGroup();
      hopper::WaitGroups<1>();  // the slice before this one is multiplied: free its stage
      if (kt > 0) release(slice - 1);
    }
    hopper::WaitGroups<0>();
    release(slice - 1);
#pragma unroll
    for (float& value : acc) hopper::Touch(value);
    const int2 tile = work.Tile(pair, rank);
    hopper::StoreAccumulators(acc, C, M, N, tile.x * kBM + consumer * 64, tile.y * kBN);
  }
}

}  // namespace cluster_multicast

// C = A·B as rung 15, on a persistent grid of clusters of 2 blocks (an even number of
// blocks, at most one per SM); the pair shares B's box by multicast.
__global__ void __launch_bounds__(cluster_multicast::kThreads, 1)
    cluster_multicast_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                             float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  namespace w = cluster_multicast;
  extern __shared__ unsigned char raw_shared[];
  __shared__ std::uint64_t full[w::kStages], empty[w::kStages];
  unsigned char* const shared = raw_shared + (hopper::kSwizzleAtomBytes -
                                              hopper::SharedAddress(raw_shared) % hopper::kSwizzleAtomBytes) %
                                                 hopper::kSwizzleAtomBytes;
  const int warpgroup = static_cast<int>(threadIdx.x) / hopper::kWarpgroup;
  const unsigned rank = hopper::ClusterRank();
  if (threadIdx.x == 0) {
    for (int s = 0; s < w::kStages; ++s) {
      hopper::InitBarrier(&full[s], 1);
      hopper::InitBarrier(&empty[s], w::kConsumers * w::kCluster);
    }
    hopper::FenceBarrierInit();
  }
  // Both blocks' barriers initialised before either block's copies or arrivals reach them.
  hopper::ClusterSync();
  const w::Work work(M, N, K);
  if (warpgroup == 0) {
    if (threadIdx.x == 0) w::Produce(work, rank, &a_map, &b_map, shared, full, empty);
  } else {
    w::Consume(work, rank, shared, full, empty, C, M, N, warpgroup - 1);
  }
  // The other block may still arrive at this block's barriers until it is done: wait for it.
  __syncwarp();
  hopper::ClusterSync();
#endif
}
