// 17_cluster_multicast.cu — two blocks on neighbouring SMs share one copy of B.
//
// What it teaches: in rung 15 every block copies its own 128×64 slice of A and 256×64 of Bᵀ
// per stage, 48 KiB from L2 for 4.2 million multiply-adds. At 8192 the 132 blocks then ask
// L2 for about 8 TB/s, near what it can give: the copies, not the tensor cores, set the
// pace, and moving the bytes costs power the tensor cores could have had. Two blocks whose
// tiles lie one above the other in C need the same B columns. Hopper launches blocks in
// clusters, placed on neighbouring SMs that can reach each other's shared memory, and its TMA
// can multicast: one copy read once from L2 lands in the shared memory of every block of the
// cluster named in a mask, and counts its bytes on each block's barrier.
// So a cluster of 2 blocks covers a 256×256 tile of C: each block copies its own A rows and
// one half of Bᵀ's 256 rows (128 × 64), multicast into both. A block asks L2 for 32 KiB a
// stage instead of 48, a third less, and its stage still fills with 48 KiB.
//
// What changes in the pipeline (hopper::WarpSpecializedPipeline with kClusterM = 2):
// - a stage's "empty" barrier counts the consumers of both blocks: a block's producer
//   writes into the other block's stage too, so it waits until both are done with it; a
//   consumer arrives on its own block's barrier and, through its cluster address (mapa),
//   on the other's;
// - "full" still expects the whole 48 KiB: A and this block's half of B from its own
//   producer, the other half from the other block's;
// - a cluster-wide barrier replaces __syncthreads after the barriers are initialised (the
//   other block's copies may reach them at once), and another ends the kernel, so that no
//   block leaves while the other may still arrive on its barriers;
// - the cluster walks the 256×256 tiles; blocks 2c and 2c + 1 are cluster c.
//
// Tiles: per block as rung 15 — 128×256, K 64 per stage, 4 stages of 48 KiB, a producer
// warpgroup and two consumer warpgroups of 64 × 256 (four m64n256k16 per stage, 128 FP32
// accumulators a thread); per cluster 256×256. The grid: as many clusters as the SMs hold
// two at a time (66 on 132 SMs), at most one per tile.
//
// What the hardware does: the cluster's blocks run at once on SMs of one GPU processing
// cluster, and their shared memories form one address space (distributed shared memory);
// the TMA's multicast is one L2 read written to several SMs. Needs sm_90a: compiled for that
// architecture alone, refused with the reason on any other GPU.
//
// Run it: `tilescope bench --kernels warp_specialized,cluster_multicast --sizes 4096,6144,8192 --reps 20 --interleave`.
#pragma once
#include "15_warp_specialized.cu"

namespace cluster_multicast {

constexpr int kClusterM = 2;  // blocks per cluster, stacked along M, sharing B
using Pipeline = hopper::WarpSpecializedPipeline<warp_specialized::Bf16Operands, kClusterM>;

}  // namespace cluster_multicast

// C = A·B as rung 15 (BF16 A and Bᵀ, K-major, by tensor map; C row-major FP32), launched in
// clusters of kClusterM blocks along x: each block copies A's rows and its part of Bᵀ's.
__global__ void __launch_bounds__(cluster_multicast::Pipeline::kThreads, 1)
    cluster_multicast_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                             float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char raw_shared[];
  cluster_multicast::Pipeline::Run(&a_map, &b_map, C, M, N, K, raw_shared);
#endif
}
