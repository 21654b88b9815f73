// hopper_common.cuh — the Hopper (sm_90a) instructions that rungs 14 and on share: the tensor
// memory accelerator (TMA) copying a tile into shared memory, the mbarrier that says when it
// has landed, and the warpgroup's asynchronous matrix multiply (wgmma) reading its operands
// from shared memory through matrix descriptors.
//
// Every wrapper is one PTX instruction (PTX ISA: "cp.async.bulk.tensor", "mbarrier",
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"). The rungs compile them only
// for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL): wgmma, setmaxnreg and the descriptors exist there
// alone. The mbarrier and bulk-copy wrappers are plain sm_90: the L2 probe (gpu/l2_probe.cu)
// uses them wherever __CUDA_ARCH__ is 900 or more.
#pragma once
#include <cuda.h>

#include <cstdint>

namespace hopper {

// Threads of a warpgroup: four consecutive warps that issue one wgmma together.
constexpr int kWarpgroup = 128;

// A tile whose rows are 128 bytes, stored with the 128-byte swizzle: the TMA writes row r's
// 16-byte chunk c at chunk c ^ (r % 8), so the 8 rows of a core matrix cover all 32 banks.
// Such tiles must start on a 1024-byte boundary (a whole swizzle pattern of 8 rows).
constexpr int kSwizzleRowBytes = 128;
constexpr int kSwizzleAtomBytes = 8 * kSwizzleRowBytes;

__device__ __forceinline__ unsigned SharedAddress(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}

// The tile (row, column of tiles) that block `linear` computes: `group` tile rows at a time,
// walking down the group's rows before moving one tile column on, so the blocks of one
// wave share their B columns (and A rows) in L2.
__device__ __forceinline__ int2 GroupedTile(int linear, int tiles_m, int tiles_n, int group) {
  const int per_group = group * tiles_n;
  const int first_m = linear / per_group * group;
  const int rows = min(tiles_m - first_m, group);
  const int in_group = linear % per_group;
  return make_int2(first_m + in_group % rows, in_group / rows);
}

// --- mbarrier: a barrier in shared memory that counts arrivals and bytes of copies. ---

__device__ __forceinline__ void InitBarrier(std::uint64_t* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(SharedAddress(barrier)), "r"(arrivals));
}

// Makes the initialised barriers visible to the TMA unit (the async proxy) before use.
__device__ __forceinline__ void FenceBarrierInit() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }

// One arrival that also tells the barrier `bytes` more are on their way by TMA: its phase
// completes once every arrival came and all those bytes have landed.
__device__ __forceinline__ void ArriveExpectingBytes(std::uint64_t* barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(SharedAddress(barrier)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void Arrive(std::uint64_t* barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(SharedAddress(barrier)) : "memory");
}

// Waits until the phase of parity `parity` (0, 1, 0, … as phases complete) has completed.
__device__ __forceinline__ void WaitPhase(std::uint64_t* barrier, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred complete;\n"
        " mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        " selp.u32 %0, 1, 0, complete;\n}\n"
        : "=r"(done)
        : "r"(SharedAddress(barrier)), "r"(parity)
        : "memory");
  } while (done == 0);
}

// --- TMA: one thread asks the copy engine for a whole box of a 2D tensor. ---

// Copies the box at (inner, outer) — element column and row of the tensor `map` describes —
// into shared memory at `destination`, laid out (and swizzled) as the map says; elements
// outside the tensor arrive as zeros. The bytes count against `barrier`.
__device__ __forceinline__ void LoadBox(void* destination, const CUtensorMap* map, std::uint64_t* barrier, int inner,
                                        int outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          SharedAddress(destination)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(SharedAddress(barrier))
      : "memory");
}

// Copies `bytes` (a multiple of 16) from global memory into shared memory at `destination`
// by the copy engine, counted on `landed` (PTX ISA: cp.async.bulk, sm_90): the
// plain form of the TMA, no tensor map, `bytes` contiguous bytes.
__device__ __forceinline__ void CopyBulk(void* destination, const void* source, unsigned bytes, std::uint64_t* landed) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          SharedAddress(destination)),
      "l"(reinterpret_cast<std::uint64_t>(source)), "r"(bytes), "r"(SharedAddress(landed))
      : "memory");
}

// --- wgmma: D(64×N) += A(64×16) · B(16×N), both operands read from shared memory. ---

// The matrix descriptor of a K-major tile with 128-byte swizzled rows starting at `tile`
// (1024-byte aligned): start address, leading-dimension offset (unused by this layout,
// 16 bytes by convention), stride offset 1024 bytes (from one 8-row core-matrix group to
// the next), swizzle mode 1 (128 bytes). Fields hold addresses in units of 16 bytes.
__device__ __forceinline__ std::uint64_t SwizzledTileDescriptor(const void* tile) {
  const std::uint64_t address = SharedAddress(tile);
  return ((address & 0x3FFFF) >> 4) | (std::uint64_t{16 >> 4} << 16) |
         (std::uint64_t{kSwizzleAtomBytes >> 4} << 32) | (std::uint64_t{1} << 62);
}

// The descriptor moved `bytes` along a row: the next k16 slice of the same rows is 32 bytes
// on; the hardware applies the swizzle to the address it computes.
__device__ __forceinline__ std::uint64_t Advance(std::uint64_t descriptor, unsigned bytes) {
  return descriptor + (bytes >> 4);
}

// Orders this warpgroup's register writes (the zeroed accumulators) before its wgmma.
__device__ __forceinline__ void FenceOperands() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// Closes a group of issued wgmma: the unit of waiting.
__device__ __forceinline__ void CommitGroup() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Waits until at most `kPending` committed groups of this warpgroup are still running.
template <int kPending>
__device__ __forceinline__ void WaitGroups() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// Sets this warpgroup's registers a thread to kCount (a multiple of 8, 24 to 256): fewer
// hands them back to the SM's pool, more takes them from it. Every thread of the warpgroup
// executes it; it takes effect where the kernel starts with a register cap
// (__launch_bounds__(threads, 1)).
template <int kCount>
__device__ __forceinline__ void ReleaseRegisters() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kCount));
}
template <int kCount>
__device__ __forceinline__ void ClaimRegisters() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kCount));
}

// Tells the compiler `value` may have changed here: after WaitGroups, so that no read of an
// accumulator is moved before the wgmma that writes it has finished.
__device__ __forceinline__ void Touch(float& value) { asm volatile("" : "+f"(value)::"memory"); }

// 64×256 of C in a warpgroup: lane l of warp w holds rows 16w + l/4 and 16w + l/4 + 8, at
// columns 8j + 2(l%4) and + 1 for j = 0…31: d[4j], d[4j+1] the first row, d[4j+2], d[4j+3]
// the second (PTX ISA, "Matrix fragments for wgmma.m64nNk16", f32 accumulators).
constexpr int kAccumulators256 = 128;

#define TS_ACC4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define TS_ACC16(i) TS_ACC4(i), TS_ACC4(i + 4), TS_ACC4(i + 8), TS_ACC4(i + 12)
#define TS_ACC128 \
  TS_ACC16(0), TS_ACC16(16), TS_ACC16(32), TS_ACC16(48), TS_ACC16(64), TS_ACC16(80), TS_ACC16(96), TS_ACC16(112)
// The 128 accumulator operands, %0 to %127; the descriptors follow as %128 and %129.
#define TS_D256                                                                                      \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                          \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "                 \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                 \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "                 \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "                 \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "                 \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "     \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"

// D += A·B for m64n256k16, BF16 inputs, FP32 accumulators; A and B K-major in shared memory.
// The last four immediates: scale A and B by +1, neither transposed.
__device__ __forceinline__ void MmaBf16M64N256K16(float (&d)[kAccumulators256], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " TS_D256 ", %128, %129, accumulate, 1, 1, 0, 0;\n}\n"
      : TS_ACC128
      : "l"(a), "l"(b), "r"(1));
}

// D += A·B for m64n256k8, TF32 inputs (FP32 bits of which the tensor cores read sign, exponent
// and the top 10 mantissa bits), FP32 accumulators. TF32 has no transposed form: A and B must
// both be K-major, so a k8 step is 8 × 4 = 32 bytes along a row, as BF16's k16 step.
__device__ __forceinline__ void MmaTf32M64N256K8(float (&d)[kAccumulators256], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TS_D256 ", %128, %129, accumulate, 1, 1;\n}\n"
      : TS_ACC128
      : "l"(a), "l"(b), "r"(1));
}

#undef TS_D256
#undef TS_ACC128
#undef TS_ACC16
#undef TS_ACC4

// Stores a warpgroup's 64×256 accumulators at rows row0…row0+63, columns col0…col0+255 of
// the row-major M×N matrix C, only the elements inside it; pairs as float2 where N is even.
__device__ __forceinline__ void StoreAccumulators(const float (&d)[kAccumulators256], float* C, int M, int N, int row0,
                                                  int col0) {
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) % kWarpgroup / 32;
  const bool pairs = N % 2 == 0;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = row0 + warp * 16 + lane / 4 + h * 8;
    if (row >= M) continue;
    float* out = C + static_cast<long long>(row) * N;
#pragma unroll
    for (int j = 0; j < kAccumulators256 / 4; ++j) {
      const int col = col0 + j * 8 + lane % 4 * 2;
      const float first = d[4 * j + 2 * h], second = d[4 * j + 2 * h + 1];
      if (pairs && col + 1 < N) {
        *reinterpret_cast<float2*>(out + col) = make_float2(first, second);
      } else {
        if (col < N) out[col] = first;
        if (col + 1 < N) out[col + 1] = second;
      }
    }
  }
}

// C through shared memory: a warp's 16 rows × 64 columns of FP32, 4 KiB.
constexpr int kStagedRows = 16;
constexpr int kStagedColumns = 64;
constexpr unsigned kStagingBytesPerWarp = kStagedRows * kStagedColumns * 4;

// StoreAccumulators through `staging`, this warp's kStagingBytesPerWarp of shared memory
// (16-byte aligned). Straight from the fragment, one store instruction of a warp writes 8
// bytes a lane into 8 rows: 8 pieces of 32 bytes in 8 different 128-byte lines. Here the warp
// writes 16 rows × 64 columns of its fragment into shared memory and reads them back 16
// bytes a lane, two rows an instruction, so that one store writes 2 × 256 contiguous bytes:
// 4 whole lines, a quarter of the lines a tile's stores touch. Where N is not a multiple of
// 4, rows do not start on 16 bytes and the lanes store their four values one by one.
// In shared memory the 16-byte unit u of row r is kept at u ^ (r % 8): the fragment's writes
// (8 rows at once) and the row reads then take no more passes than their 256 or 512 bytes need.
__device__ __forceinline__ void StoreAccumulatorsStaged(const float (&d)[kAccumulators256], float* C, int M, int N,
                                                        int row0, int col0, float4* staging) {
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) % kWarpgroup / 32;
  constexpr int kUnits = kStagedColumns / 4;  // 16-byte units in a staged row
  float* const staged = reinterpret_cast<float*>(staging);
  const bool aligned = N % 4 == 0;  // rows start on 16 bytes: whole float4 stores
#pragma unroll
  for (int chunk = 0; chunk < 256 / kStagedColumns; ++chunk) {
#pragma unroll
    for (int jj = 0; jj < kStagedColumns / 8; ++jj) {
      const int j = chunk * (kStagedColumns / 8) + jj;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = lane / 4 + h * 8, col = jj * 8 + lane % 4 * 2;
        float* at = staged + r * kStagedColumns + ((col / 4) ^ (r % 8)) * 4 + col % 4;
        *reinterpret_cast<float2*>(at) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
      }
    }
    __syncwarp();  // the whole piece staged before any lane reads another lane's values
#pragma unroll
    for (int i = 0; i < kStagedRows / 2; ++i) {
      const int r = 2 * i + lane / kUnits, unit = lane % kUnits;
      const float4 value = staging[r * kUnits + (unit ^ (r % 8))];
      const int row = row0 + warp * kStagedRows + r, col = col0 + chunk * kStagedColumns + unit * 4;
      if (row >= M || col >= N) continue;
      float* out = C + static_cast<long long>(row) * N + col;
      if (aligned) {
        *reinterpret_cast<float4*>(out) = value;
      } else {
        const float values[4] = {value.x, value.y, value.z, value.w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          if (col + e < N) out[e] = values[e];
        }
      }
    }
    __syncwarp();  // every lane has read the piece before the next one overwrites it
  }
}

// --- The warp-specialised pipeline of rungs 15 to 17 (15_warp_specialized.cu says why). ---
//
// Block tile 128×256, K in 128-byte stage rows, 4 stages in one ring across the tiles of a
// persistent block; a producer warpgroup (one thread issues the TMA copies) and two consumer
// warpgroups of 64 rows × 256 columns, 128 FP32 accumulators a thread. What a rung chooses
// is its operands: `Operands` gives kElementBytes (an element's bytes in shared memory),
// kMmaK (the K of one wgmma) and Mma(acc, a, b), one m64n256 wgmma at descriptors a and b;
// and whether C goes out through shared memory (kStagedStores, rung 17).
//
// The ring: stage s = i % 4 of the block's i-th slice (counted across its tiles) has a
// "full" barrier (1 arrival, the producer's, plus the copy's bytes) and an "empty" one (one
// arrival per consumer warpgroup). The i-th fill of a stage is phase i / 4 of both, so a
// thread waits on parity (i / 4) % 2 for "full", and the producer, refilling, on the parity
// of the previous use, (i / 4 − 1) % 2.
template <typename Operands, bool kStagedStores = false>
struct WarpSpecializedPipeline {
  static constexpr int kBM = 128;
  static constexpr int kBN = 256;
  static constexpr unsigned kElementBytes = Operands::kElementBytes;
  static constexpr int kBK = kSwizzleRowBytes / kElementBytes;  // K in one 128-byte swizzled row
  static constexpr int kStages = 4;
  static constexpr int kConsumers = kBM / 64;  // consumer warpgroups, 64 rows of the tile each
  static constexpr int kThreads = (kConsumers + 1) * kWarpgroup;
  static constexpr int kGroupM = 16;
  static constexpr unsigned kTileBytesA = kBM * kBK * kElementBytes;
  static constexpr unsigned kTileBytesB = kBN * kBK * kElementBytes;
  static constexpr unsigned kStageBytes = kTileBytesA + kTileBytesB;
  static constexpr unsigned kRingBytes = kStages * kStageBytes;
  // kStagedStores: the staged epilogue's addresses do not fit beside 128 accumulators in the
  // 168 registers a thread of 384 gets, so the producer warpgroup, which needs few, hands
  // registers to the consumers: 128·40 + 256·232 ≤ 65536, the SM's register file.
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;
  static_assert(kWarpgroup * (kProducerRegisters + kConsumers * kConsumerRegisters) <= 65536, "one register file");
  // The ring, room to move its start up to a 1024-byte boundary, and (kStagedStores) each
  // consumer warp's piece of C in shared memory after it.
  static constexpr unsigned kSharedBytes =
      kRingBytes + kSwizzleAtomBytes + (kStagedStores ? kConsumers * (kWarpgroup / 32) * kStagingBytesPerWarp : 0);
  static_assert(kTileBytesA % kSwizzleAtomBytes == 0, "B's tile starts on a swizzle boundary");
  static_assert(kBK % Operands::kMmaK == 0, "a stage row holds whole wgmma steps");

  // The tiles of C and the slices of K a block walks.
  struct Work {
    int tiles_m, tiles_n, tiles_k;
    __device__ __forceinline__ Work(int M, int N, int K)
        : tiles_m((M + kBM - 1) / kBM), tiles_n((N + kBN - 1) / kBN), tiles_k((K + kBK - 1) / kBK) {}
    __device__ __forceinline__ int Tiles() const { return tiles_m * tiles_n; }
    __device__ __forceinline__ int2 Tile(int linear) const { return GroupedTile(linear, tiles_m, tiles_n, kGroupM); }
  };

  // The producer's one thread: for every slice of every tile of this block, wait for its
  // stage to be free, then ask the TMA for A's and Bᵀ's boxes, counted on the stage's "full".
  __device__ __forceinline__ static void Produce(const Work& work, const CUtensorMap* a_map, const CUtensorMap* b_map,
                                                 unsigned char* shared, std::uint64_t* full, std::uint64_t* empty) {
    int slice = 0;
    for (int t = static_cast<int>(blockIdx.x); t < work.Tiles(); t += static_cast<int>(gridDim.x)) {
      const int2 tile = work.Tile(t);
      for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
        const int s = slice % kStages;
        if (slice >= kStages) WaitPhase(&empty[s], (slice / kStages + 1) % 2);
        unsigned char* stage = shared + s * kStageBytes;
        ArriveExpectingBytes(&full[s], kStageBytes);
        LoadBox(stage, a_map, &full[s], kt * kBK, tile.x * kBM);
        LoadBox(stage + kTileBytesA, b_map, &full[s], kt * kBK, tile.y * kBN);
      }
    }
  }

  // A consumer warpgroup: for every tile of this block, its 64 rows × 256 columns of C.
  __device__ __forceinline__ static void Consume(const Work& work, unsigned char* shared, std::uint64_t* full,
                                                 std::uint64_t* empty, float* C, int M, int N, int consumer) {
    const bool leader = threadIdx.x % kWarpgroup == 0;  // arrives for the warpgroup
    const unsigned rows_offset = consumer * 64 * kSwizzleRowBytes;
    const int warp = consumer * (kWarpgroup / 32) + static_cast<int>(threadIdx.x) % kWarpgroup / 32;
    float4* const staging = reinterpret_cast<float4*>(shared + kRingBytes + warp * kStagingBytesPerWarp);
    float acc[kAccumulators256];
    int slice = 0;
    for (int t = static_cast<int>(blockIdx.x); t < work.Tiles(); t += static_cast<int>(gridDim.x)) {
#pragma unroll
      for (float& value : acc) value = 0.0f;
      for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
        const int s = slice % kStages;
        WaitPhase(&full[s], slice / kStages % 2);
        const unsigned char* stage = shared + s * kStageBytes;
        const std::uint64_t a = SwizzledTileDescriptor(stage + rows_offset);
        const std::uint64_t b = SwizzledTileDescriptor(stage + kTileBytesA);
        FenceOperands();
#pragma unroll
        for (int k = 0; k < kBK / Operands::kMmaK; ++k) {
          const unsigned step = k * Operands::kMmaK * kElementBytes;
          Operands::Mma(acc, Advance(a, step), Advance(b, step));
        }
        CommitGroup();
        WaitGroups<1>();  // the slice before this one is multiplied: free its stage
        if (kt > 0 && leader) Arrive(&empty[(slice - 1) % kStages]);
      }
      WaitGroups<0>();
      if (leader) Arrive(&empty[(slice - 1) % kStages]);
#pragma unroll
      for (float& value : acc) Touch(value);
      const int2 tile = work.Tile(t);
      const int row = tile.x * kBM + consumer * 64, column = tile.y * kBN;
      if constexpr (kStagedStores) {
        StoreAccumulatorsStaged(acc, C, M, N, row, column, staging);
      } else {
        StoreAccumulators(acc, C, M, N, row, column);
      }
    }
  }

  // The kernel's body: barriers set up, then warpgroup 0 copies and 1 and 2 multiply.
  // `raw_shared` is the kernel's dynamic shared memory (kSharedBytes).
  __device__ __forceinline__ static void Run(const CUtensorMap* a_map, const CUtensorMap* b_map, float* C, int M, int N,
                                             int K, unsigned char* raw_shared) {
    __shared__ std::uint64_t full[kStages], empty[kStages];
    unsigned char* const shared =
        raw_shared + (kSwizzleAtomBytes - SharedAddress(raw_shared) % kSwizzleAtomBytes) % kSwizzleAtomBytes;
    const int warpgroup = static_cast<int>(threadIdx.x) / kWarpgroup;
    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        InitBarrier(&full[s], 1);
        InitBarrier(&empty[s], kConsumers);
      }
      FenceBarrierInit();
    }
    // The barriers initialised before any thread waits on one; the only block-wide barrier:
    // from here on producer and consumers meet only at the mbarriers.
    __syncthreads();
    const Work work(M, N, K);
    if (warpgroup == 0) {
      if constexpr (kStagedStores) ReleaseRegisters<kProducerRegisters>();
      if (threadIdx.x == 0) Produce(work, a_map, b_map, shared, full, empty);
    } else {
      if constexpr (kStagedStores) ClaimRegisters<kConsumerRegisters>();
      Consume(work, shared, full, empty, C, M, N, warpgroup - 1);
    }
  }
};

}  // namespace hopper
