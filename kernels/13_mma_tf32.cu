// 13_mma_tf32.cu — the tensor cores: each warp multiplies 16×8×8 tiles with mma.sync (TF32).
//
// What it teaches: rungs 04–12 spend one FFMA per multiply-add on the CUDA cores. A tensor
// core takes a whole 16×8×8 product in one instruction, mma.sync.aligned.m16n8k8 (row.col,
// TF32 inputs, FP32 accumulate): the 32 lanes of a warp hand it A (16×8, 4 registers a lane),
// B (8×8, 2 registers) and C (16×8, 4 registers) in a fixed layout (PTX ISA, "Matrix
// fragments for mma.m16n8k8"): lane l holds A[l/4][l%4], A[l/4+8][l%4], A[l/4][l%4+4],
// A[l/4+8][l%4+4]; B[l%4][l/4], B[l%4+4][l/4]; C[l/4][2(l%4)], C[l/4][2(l%4)+1] and the same
// 8 rows down. TF32 keeps FP32's exponent and 10 of its 23 mantissa bits, so this rung
// computes in another precision: it is checked against cuBLAS FP32 with TF32's tolerance,
// 8·sqrt(K)·2^-11·max|A|·max|B| (bench.cpp), as cublas_tf32 is.
//
// Tiles: block 256×128, K 32 per stage, 8 warps of 64×64 (4×2), each 4×8 fragments: 32 mma
// per step of 8 in K, 128 FP32 accumulators a lane. 4 stages of cp.async copies in flight
// (3 or 2 where a GPU's shared memory holds fewer; the launcher picks). Where 256×128 tiles
// would leave SMs idle (1000³: 32 blocks on 132 SMs), or on GPUs with ~100 KB of shared
// memory per SM, a 128×128 tile with warp tiles 64×32.
//
// Fragments from shared memory:
// - A with ldmatrix. ldmatrix.x4 works on 8×8 matrices of 16-bit values, but such a matrix is
//   an 8×4 matrix of 32-bit values, and the lane it hands word l%4 of row l/4 is exactly the
//   TF32 A fragment's lane: one ldmatrix.x4 loads a whole A fragment. A's tile lies as in
//   global memory (128-byte rows, K contiguous) with 16-byte chunks XOR-swizzled by row % 8,
//   so the 8 rows one ldmatrix phase reads cover all 32 banks.
// - B with plain LDS.128, not ldmatrix: B's rows run along N, and a fragment wants K-pairs
//   (B[t][n], B[t+4][n]) in two neighbouring registers; ldmatrix.trans transposes 16-bit
//   halves, which tears 32-bit values apart. So the thread that copied a pair of B's rows
//   (k, k+4) interleaves them float by float into a second buffer, and B's columns are
//   permuted within groups of 32 so that one 16-byte load gives b0 and b1 of two fragments
//   in the registers the mma reads; chunks XOR-swizzled so each load phase is conflict-free.
//   (Loaded as B lies, ptxas adds two register moves per mma to pair them.)
//
// Rounding: cvt.rna.tf32.f32, round to nearest, ties away from zero, once per element and
// block: after its own copies land, each thread rounds what it copied (A in place, B as it
// interleaves), before the barrier that publishes the stage. Rounding the fragments after
// each load instead costs it once per warp that loads the element. cuBLAS TF32 rounds to
// nearest too, but ties to even, measured: with all of A 1 + 2^-11 (a tie) and B ones, its C
// is K·1, this rung's K·(1 + 2^-10); 1 + 1.5·2^-11 gives K·(1 + 2^-10) in both
// (docs/results/h200-tf32-2026-11-28.txt).
//
// Edges: any M, N, K. Copies outside the matrices zero-fill (cp.async with source size 0), so
// a last stage past K multiplies zeros; rows that are not 16-byte aligned (K or N not a
// multiple of 4) and the last stage of a K that is not a multiple of 32 take the guarded
// chunk-by-chunk copy of the ladder (ladder_common.cuh); C is stored guarded.
//
// What the hardware does: on Hopper, mma.sync runs on the same tensor cores as the warpgroup
// instructions (wgmma), but issued one warp and one 16×8×8 tile at a time: ptxas gives each
// HMMA.1688.F32.TF32 six cycles before the warp's next instruction, and the pipe takes one
// every six cycles per SM sub-partition. That caps this rung below cuBLAS TF32, which uses
// wgmma; its measured ceiling, Nsight figures and the gap are in
// docs/results/h200-tf32-2026-11-28.txt. Needs sm_80 (TF32 mma.sync, cp.async): on an older
// GPU the runner says so instead of launching.
//
// Run it: `tilescope bench --kernels mma_tf32,cublas_tf32 --sizes 1024:8192 --reps 20`.
#pragma once
#include "ladder_common.cuh"

namespace mma_tf32 {

constexpr int kWarp = 32;
// One mma.sync.m16n8k8: a 16×8 piece of C += (16×8 of A) · (8×8 of B).
constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 8;
// K per stage: a row of A's tile is 32 floats, 128 bytes, 8 chunks of 16 bytes.
constexpr int kBK = 32;
constexpr int kChunksA = kBK / ladder::kVec;
constexpr int kSteps = kBK / kMmaK;  // steps of k per stage
// Stages in flight: kStages - 1 tiles are being copied while one is multiplied.
constexpr int kStages = 4;
// Blocks are handed out kGroupM tile rows at a time, so a wave shares its B columns in L2.
constexpr int kGroupM = 8;
// B is read 4 fragments (32 columns) at a time: two LDS.128 per lane and step of k.
constexpr int kFragsPerLoadB = 4;
// The tile for grids that the table's tile would leave SMs idle with (and for GPUs whose
// shared memory cannot hold two stages of it): 128×128, warp tiles 64×32, 256 threads.
constexpr int kSmallBM = 128;
constexpr int kSmallBN = 128;
constexpr int kSmallWM = 64;
constexpr int kSmallWN = 32;

// S: the stages of shared memory in flight. Per stage A's tile and B's tile as copied;
// besides them, two buffers of B's tile interleaved for the mma (see Plan).
template <int BM, int BN, int WM, int WN, int S>
struct Tiling {
  static constexpr int kWarpsM = BM / WM;
  static constexpr int kWarpsN = BN / WN;
  static constexpr int kThreads = kWarpsM * kWarpsN * kWarp;
  static constexpr int kFragsM = WM / kMmaM;
  static constexpr int kFragsN = WN / kMmaN;
  static constexpr int kLoadsB = kFragsN / kFragsPerLoadB;
  static constexpr int kFloatsA = BM * kBK;
  static constexpr int kFloatsB = kBK * BN;
  static constexpr int kStageFloats = kFloatsA + kFloatsB;
  static constexpr unsigned kSharedBytes = (S * kStageFloats + 2 * kFloatsB) * sizeof(float);
  // A: 16-byte chunks per thread, kRowsPerPassA rows apart.
  static constexpr int kCopiesA = BM * kChunksA / kThreads;
  static constexpr int kRowsPerPassA = kThreads / kChunksA;
  // B: pairs of 16-byte chunks per thread, rows k and k + 4 of one column of chunks (the
  // thread that copied them interleaves them); consecutive pairs kPairRowsPerPass apart.
  static constexpr int kChunksRowB = BN / ladder::kVec;
  static constexpr int kPairsB = kBK / 2 * kChunksRowB / kThreads;
  static constexpr int kPairRowsPerPass = kThreads / kChunksRowB;
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % kMmaM == 0 && WN % (kMmaN * kFragsPerLoadB) == 0,
                "warp tiles of whole fragments, B in groups of 4");
  static_assert(BM * kChunksA % kThreads == 0 && kRowsPerPassA % 8 == 0,
                "A: every thread copies whole passes, at the same swizzle in each");
  static_assert(kBK / 2 * kChunksRowB % kThreads == 0 && kPairRowsPerPass % 4 == 0,
                "B: every thread copies whole passes, at the same row of a step of k in each");
};

// Rounds to TF32 (10-bit mantissa), to nearest with ties away from zero; the low 13 bits
// of the result are zero.
__device__ __forceinline__ float ToTf32(float value) {
  unsigned rounded;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(rounded) : "f"(value));
  return __uint_as_float(rounded);
}

// Four 8×4 pieces of 32-bit values, one 16-byte row per lane address: lane l receives word
// l % 4 of row l / 4 of piece j in register j, which is exactly m16n8k8's A fragment.
__device__ __forceinline__ void LoadMatrixX4(unsigned (&fragment)[4], const float* address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(fragment[0]), "=r"(fragment[1]), "=r"(fragment[2]), "=r"(fragment[3])
               : "r"(ladder::SharedAddress(address)));
}

__device__ __forceinline__ void Mma(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The tile (row, column of tiles) block `linear` computes: kGroupM tile rows at a time,
// walking down the group's rows before moving one tile column on.
__device__ __forceinline__ int2 TileOf(int linear, int tiles_m, int tiles_n) {
  const int per_group = kGroupM * tiles_n;
  const int first_m = linear / per_group * kGroupM;
  const int rows = min(tiles_m - first_m, kGroupM);
  const int in_group = linear % per_group;
  return make_int2(first_m + in_group % rows, in_group / rows);
}

// Where a thread's copies, rounding and fragment loads go within a stage, worked out once:
// in the loop every shared address is a stage's base, one of these offsets and a constant.
//
// A's tile, [BM][kBK] floats as in global memory: chunk c (4 floats) of row r lies at chunk
// c ^ (r % 8). The 8 rows an ldmatrix phase reads at one chunk then cover all 32 banks
// (unswizzled, 128-byte rows would put them in the same 4 banks: 8-way conflicts).
//
// B's tile as copied, [kBK][BN]; and interleaved for the mma: m16n8k8 takes b0 = B[t][n]
// and b1 = B[t+4][n] (t = lane % 4) in two neighbouring registers, so rows t and t+4 of each
// step of 8 are interleaved float by float: word 2n + h of "pair row" 4s + t holds
// B[8s + t + 4h][n]. One 16-byte load then gives b0 and b1 of two fragments in the registers
// the mma reads (kept apart, ptxas adds two moves per mma). Chunks are XORed with
// (t & 1) | (t & 2) << 1, so the 8 lanes of a load phase (t 0…3, two groups of 4 columns)
// hit 8 different bank groups.
template <int BM, int BN, int WM, int WN, int S>
struct Plan {
  using T = Tiling<BM, BN, WM, WN, S>;
  static constexpr int kPairRowFloats = 2 * BN;
  int copy_a;           // this thread's first chunk of A; pass p adds p·kRowsPerPassA rows
  int copy_b;           // its first chunk of B as copied (row k, the pair's row k + 4 is 4·BN on)
  int interleave_b[2];  // its first pair's two chunks of interleaved B
  int fragment_a[kSteps];  // the ldmatrix row of this lane at each step of k (fragment 0)
  int fragment_b[2];       // its 16-byte loads of interleaved B (step 0, group 0)

  static __device__ __forceinline__ int SwizzledA(int row, int chunk) {
    return row * kBK + (chunk ^ (row & 7)) * ladder::kVec;
  }
  static __device__ __forceinline__ int SwizzleB(int t) { return (t & 1) | (t & 2) << 1; }

  __device__ __forceinline__ Plan(int warp_row, int warp_col) {
    const int tid = static_cast<int>(threadIdx.x), lane = tid % kWarp;
    copy_a = SwizzledA(tid / kChunksA, tid % kChunksA);
    const int pair_row = tid / T::kChunksRowB, col = tid % T::kChunksRowB * ladder::kVec;
    const int t = pair_row % 4;
    copy_b = (pair_row / 4 * kMmaK + t) * BN + col;
    // Words 2·col … 2·col + 7 of the pair row: chunks col / 2 and col / 2 + 1, swizzled.
    interleave_b[0] = pair_row * kPairRowFloats + ((col / 2) ^ SwizzleB(t)) * ladder::kVec;
    interleave_b[1] = pair_row * kPairRowFloats + ((col / 2 + 1) ^ SwizzleB(t)) * ladder::kVec;
    // ldmatrix: lanes 0–7 address rows 0–7 of piece 0 (k 0–3), 8–15 rows 8–15 (k 0–3),
    // 16–23 rows 0–7 at k 4–7, 24–31 rows 8–15 at k 4–7.
    const int a_row = warp_row * WM + lane % 8 + (lane / 8) % 2 * 8;
#pragma unroll
    for (int s = 0; s < kSteps; ++s) fragment_a[s] = SwizzledA(a_row, s * 2 + lane / 16);
    // Lane (g, u) = (lane / 4, lane % 4) reads columns 4g … 4g+3 of a group of 32 (see
    // MultiplyStage): words 8g … 8g+7 of pair row u, chunks 2g and 2g + 1.
    const int g = lane / 4, u = lane % 4;
    const int base = u * kPairRowFloats + warp_col * WN * 2;
    fragment_b[0] = base + ((2 * g) ^ SwizzleB(u)) * ladder::kVec;
    fragment_b[1] = base + ((2 * g + 1) ^ SwizzleB(u)) * ladder::kVec;
  }
};

// Copies tile `tile` of K (from tile·kBK) of A and B into `stage`, as they lie, zeros
// outside the matrices. Where the K range lies inside and rows are 16-byte aligned, one
// cp.async per chunk from pointers that step on by constants; else (the last stage of a K
// that is no multiple of kBK, unaligned rows) chunk by chunk through the guarded copy.
template <int BM, int BN, int WM, int WN, int S>
__device__ __forceinline__ void CopyStage(const Plan<BM, BN, WM, WN, S>& plan, float* stage, const float* A,
                                          const float* B, int M, int N, int K, int block_row, int block_col, int tile,
                                          bool aligned_a, bool aligned_b) {
  using T = Tiling<BM, BN, WM, WN, S>;
  const int tid = static_cast<int>(threadIdx.x);
  const int k0 = tile * kBK;
  float* as = stage + plan.copy_a;
  float* bs = stage + T::kFloatsA + plan.copy_b;
  const bool inside_k = k0 + kBK <= K;
  const int a_row = block_row + tid / kChunksA, a_col = k0 + tid % kChunksA * ladder::kVec;
  if (aligned_a && inside_k) {
    const float* source = A + static_cast<long long>(a_row) * K + a_col;
#pragma unroll
    for (int p = 0; p < T::kCopiesA; ++p) {
      const bool inside = a_row + p * T::kRowsPerPassA < M;
      ladder::CopyAsync16(as + p * T::kRowsPerPassA * kBK,
                          inside ? source + static_cast<long long>(p) * T::kRowsPerPassA * K : A, inside ? 16 : 0);
    }
  } else {
#pragma unroll
    for (int p = 0; p < T::kCopiesA; ++p) {
      ladder::CopyFloat4Async(as + p * T::kRowsPerPassA * kBK, A, M, K, a_row + p * T::kRowsPerPassA, a_col, aligned_a);
    }
  }
  const int pair_row = tid / T::kChunksRowB;
  const int b_row = k0 + pair_row / 4 * kMmaK + pair_row % 4, b_col = block_col + tid % T::kChunksRowB * ladder::kVec;
  // Pair p, half h: row b_row + p·kStepRows + 4h.
  constexpr int kStepRows = T::kPairRowsPerPass / 4 * kMmaK;
  if (aligned_b && inside_k) {
    const bool inside = b_col < N;
    const float* source = inside ? B + static_cast<long long>(b_row) * N + b_col : B;
    const long long step = inside ? 4LL * N : 0;
#pragma unroll
    for (int p = 0; p < T::kPairsB; ++p) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        ladder::CopyAsync16(bs + (p * kStepRows + 4 * h) * BN, source + (p * kStepRows / 4 + h) * step,
                            inside ? 16 : 0);
      }
    }
  } else {
#pragma unroll
    for (int p = 0; p < T::kPairsB; ++p) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        ladder::CopyFloat4Async(bs + (p * kStepRows + 4 * h) * BN, B, K, N, b_row + p * kStepRows + 4 * h, b_col,
                                aligned_b);
      }
    }
  }
}

// Rounds to TF32 what this thread copied into `stage`: A in place; B's pairs of chunks
// interleaved into `bi`. Once per element and block, not once per warp that loads it. Only
// this thread wrote these chunks, so its own wait for the copies suffices; the barrier
// after it publishes the rounded values.
template <int BM, int BN, int WM, int WN, int S>
__device__ __forceinline__ void RoundOwnCopies(const Plan<BM, BN, WM, WN, S>& plan, float* stage, float* bi) {
  using T = Tiling<BM, BN, WM, WN, S>;
  float* as = stage + plan.copy_a;
  const float* bs = stage + T::kFloatsA + plan.copy_b;
#pragma unroll
  for (int p = 0; p < T::kCopiesA; ++p) {
    float4* chunk = reinterpret_cast<float4*>(as + p * T::kRowsPerPassA * kBK);
    const float4 v = *chunk;
    *chunk = make_float4(ToTf32(v.x), ToTf32(v.y), ToTf32(v.z), ToTf32(v.w));
  }
  constexpr int kStepRows = T::kPairRowsPerPass / 4 * kMmaK;
#pragma unroll
  for (int p = 0; p < T::kPairsB; ++p) {
    const float4 low = *reinterpret_cast<const float4*>(bs + p * kStepRows * BN);
    const float4 high = *reinterpret_cast<const float4*>(bs + (p * kStepRows + 4) * BN);
    const int pair_rows = p * T::kPairRowsPerPass * Plan<BM, BN, WM, WN, S>::kPairRowFloats;
    *reinterpret_cast<float4*>(bi + plan.interleave_b[0] + pair_rows) =
        make_float4(ToTf32(low.x), ToTf32(high.x), ToTf32(low.y), ToTf32(high.y));
    *reinterpret_cast<float4*>(bi + plan.interleave_b[1] + pair_rows) =
        make_float4(ToTf32(low.z), ToTf32(high.z), ToTf32(low.w), ToTf32(high.w));
  }
}

// One stage's steps of k: per step, each warp loads its A fragments (ldmatrix, one per 16
// rows) and B fragments (2 LDS.128 per 4 fragments) and issues kFragsM × kFragsN mma.
//
// B's columns are permuted within each group of 32: fragment 4q + r, column n of the mma,
// is column 4n + r of group q. Lane (g = lane / 4, u = lane % 4) then needs columns
// 4g … 4g+3 of rows u and u+4: 8 consecutive floats of pair row u.
template <int BM, int BN, int WM, int WN, int S>
__device__ __forceinline__ void MultiplyStage(
    const Plan<BM, BN, WM, WN, S>& plan, const float* as, const float* bs,
    float (&acc)[Tiling<BM, BN, WM, WN, S>::kFragsM][Tiling<BM, BN, WM, WN, S>::kFragsN][4]) {
  using T = Tiling<BM, BN, WM, WN, S>;
  constexpr int kPairRowFloats = Plan<BM, BN, WM, WN, S>::kPairRowFloats;
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    unsigned a[T::kFragsM][4];
#pragma unroll
    for (int i = 0; i < T::kFragsM; ++i) LoadMatrixX4(a[i], as + plan.fragment_a[s] + i * kMmaM * kBK);
    unsigned b[T::kLoadsB][2 * kFragsPerLoadB];  // b0, b1 of fragment r at 2r, 2r + 1
#pragma unroll
    for (int q = 0; q < T::kLoadsB; ++q) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int constant = s * 4 * kPairRowFloats + q * 2 * kMmaN * kFragsPerLoadB;
        const uint4 v = *reinterpret_cast<const uint4*>(bs + plan.fragment_b[h] + constant);
        b[q][4 * h + 0] = v.x;
        b[q][4 * h + 1] = v.y;
        b[q][4 * h + 2] = v.z;
        b[q][4 * h + 3] = v.w;
      }
    }
#pragma unroll
    for (int i = 0; i < T::kFragsM; ++i) {
#pragma unroll
      for (int j = 0; j < T::kFragsN; ++j) {
        const int q = j / kFragsPerLoadB, r = j % kFragsPerLoadB;
        Mma(acc[i][j], a[i], b[q][2 * r], b[q][2 * r + 1]);
      }
    }
  }
}

// Writes the warp's fragments to C. Element c[2h + e] of fragment 4q + r is row g + 8h,
// mma column 2u + e, which the permutation above makes column 8u + 4e + r of group q: a
// lane holds 8 consecutive columns per row and group, stored as two float4.
template <int BM, int BN, int WM, int WN, int S>
__device__ __forceinline__ void StoreTile(
    float* C, int M, int N, int block_row, int block_col, int warp_row, int warp_col,
    const float (&acc)[Tiling<BM, BN, WM, WN, S>::kFragsM][Tiling<BM, BN, WM, WN, S>::kFragsN][4]) {
  using T = Tiling<BM, BN, WM, WN, S>;
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const int g = lane / 4, u = lane % 4;
  const bool aligned = ladder::VectorAligned(C, N);
#pragma unroll
  for (int i = 0; i < T::kFragsM; ++i) {
#pragma unroll
    for (int q = 0; q < T::kLoadsB; ++q) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = block_row + warp_row * WM + i * kMmaM + g + h * 8;
        const int col = block_col + warp_col * WN + q * kMmaN * kFragsPerLoadB + u * 8;
        const int j = q * kFragsPerLoadB;
        const float4 low =
            make_float4(acc[i][j][2 * h], acc[i][j + 1][2 * h], acc[i][j + 2][2 * h], acc[i][j + 3][2 * h]);
        const float4 high = make_float4(acc[i][j][2 * h + 1], acc[i][j + 1][2 * h + 1], acc[i][j + 2][2 * h + 1],
                                        acc[i][j + 3][2 * h + 1]);
        ladder::StoreFloat4Guarded(C, M, N, row, col, low, aligned);
        ladder::StoreFloat4Guarded(C, M, N, row, col + ladder::kVec, high, aligned);
      }
    }
  }
}

}  // namespace mma_tf32

// C = A·B on the tensor cores, inputs rounded to TF32, FP32 accumulation. Needs sm_80 (TF32
// mma.sync and cp.async); a build for an older GPU compiles an empty kernel, which the
// runner never launches there (kernel_table.h: min_compute_capability).
template <int BM, int BN, int BK, int WM, int WN, int S = mma_tf32::kStages>
__global__ void __launch_bounds__(mma_tf32::Tiling<BM, BN, WM, WN, S>::kThreads, 1)
    mma_tf32_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  static_assert(BK == mma_tf32::kBK, "A's swizzle assumes 128-byte rows");
  using T = mma_tf32::Tiling<BM, BN, WM, WN, S>;
  extern __shared__ __align__(16) float shared[];
  const int tiles_n = static_cast<int>(gridDim.x), tiles_m = static_cast<int>(gridDim.y);
  const int2 tile = mma_tf32::TileOf(static_cast<int>(blockIdx.y) * tiles_n + static_cast<int>(blockIdx.x), tiles_m,
                                     tiles_n);
  const int block_row = tile.x * BM, block_col = tile.y * BN;
  const int warp = static_cast<int>(threadIdx.x) / mma_tf32::kWarp;
  const int warp_row = warp / T::kWarpsN, warp_col = warp % T::kWarpsN;
  const mma_tf32::Plan<BM, BN, WM, WN, S> plan(warp_row, warp_col);
  const bool aligned_a = ladder::VectorAligned(A, K);
  const bool aligned_b = ladder::VectorAligned(B, N);
  const int tiles_k = (K + BK - 1) / BK;
  float acc[T::kFragsM][T::kFragsN][4] = {};
  const auto stage = [&](int tile_k) { return shared + tile_k % S * T::kStageFloats; };
  // B's tile interleaved for the mma, two buffers: tile kt is written while slow warps may
  // still read tile kt - 1.
  const auto interleaved = [&](int tile_k) { return shared + S * T::kStageFloats + tile_k % 2 * T::kFloatsB; };
  const auto copy = [&](int tile_k) {
    mma_tf32::CopyStage(plan, stage(tile_k), A, B, M, N, K, block_row, block_col, tile_k, aligned_a, aligned_b);
  };
  // Fill all stages but one; an empty group where K has fewer tiles keeps the count.
#pragma unroll
  for (int s = 0; s + 1 < S; ++s) {
    if (s < tiles_k) copy(s);
    ladder::CommitCopies();
  }
  for (int kt = 0; kt < tiles_k; ++kt) {
    ladder::WaitCopies<S - 2>();  // this thread's copies of tile kt have landed
    mma_tf32::RoundOwnCopies(plan, stage(kt), interleaved(kt));
    // Every thread's rounded copies of tile kt visible to all; and every warp is done with
    // tile kt - 1, whose stage the copy below refills.
    __syncthreads();
    if (kt + S - 1 < tiles_k) copy(kt + S - 1);
    ladder::CommitCopies();
    mma_tf32::MultiplyStage(plan, stage(kt), interleaved(kt), acc);
  }
  mma_tf32::StoreTile<BM, BN, WM, WN, S>(C, M, N, block_row, block_col, warp_row, warp_col, acc);
#endif
}
