// The occupancy model against tables worked by hand for the four classroom GPUs. Every
// expected number below is worked out in the comment above it from the programming
// guide's limits (sim/model/occupancy.cpp: ClassroomGpus) and the calculator's rules.
#include "sim/model/occupancy.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using sim::BlockDemand;
using sim::GpuLimits;
using sim::Occupancy;
using sim::Resource;

const GpuLimits& Gpu(const char* key) {
  const GpuLimits* gpu = sim::FindClassroomGpu(key);
  EXPECT_NE(gpu, nullptr) << key;
  return *gpu;
}

// The square tiled kernel with TILE t: t·t threads, As and Bs of t·t floats each.
BlockDemand Tiled(int tile, int registers) { return {tile * tile, 2 * tile * tile * 4, registers}; }

int LimitOf(const Occupancy& o, Resource resource) {
  for (const sim::ResourceLimit& limit : o.limits) {
    if (limit.resource == resource) return limit.blocks;
  }
  ADD_FAILURE() << "no limit for " << sim::Name(resource);
  return -1;
}

struct HandRow {
  int tile;
  int registers;  // per thread, as ptxas gave the compiled kernel for this GPU's architecture
  int threads, warps, shared_allocated;
  int by_threads, by_warps, by_blocks, by_registers, by_shared;
  int blocks;
  std::vector<Resource> limiting;
};

void ExpectRow(const GpuLimits& gpu, const HandRow& row) {
  SCOPED_TRACE(gpu.name + ", TILE " + std::to_string(row.tile));
  const Occupancy o = sim::ComputeOccupancy(Tiled(row.tile, row.registers), gpu);
  // The app takes the registers from the recorded table: the hand row must have used that figure.
  const sim::KernelChoice choice{sim::KernelKind::kTiled, {row.tile, row.tile, row.tile}};
  EXPECT_EQ(sim::RecordedRegisters(sim::CompiledKernelName(choice), gpu.cc_major, gpu.cc_minor), row.registers);
  EXPECT_EQ(sim::OccupancyOf(choice, gpu).blocks_per_sm, row.blocks);
  EXPECT_EQ(o.demand.threads, row.threads);
  EXPECT_EQ(o.warps_per_block, row.warps);
  EXPECT_EQ(o.shared_per_block, row.shared_allocated);
  EXPECT_EQ(LimitOf(o, Resource::kThreads), row.by_threads);
  EXPECT_EQ(LimitOf(o, Resource::kWarps), row.by_warps);
  EXPECT_EQ(LimitOf(o, Resource::kBlocks), row.by_blocks);
  EXPECT_EQ(LimitOf(o, Resource::kRegisters), row.by_registers);
  EXPECT_EQ(LimitOf(o, Resource::kSharedMemory), row.by_shared);
  EXPECT_EQ(o.blocks_per_sm, row.blocks);
  EXPECT_EQ(o.limiting, row.limiting);
  EXPECT_EQ(o.active_warps, row.blocks * row.warps);
  EXPECT_TRUE(o.cannot_launch.empty()) << o.cannot_launch;
}

const Resource kT = Resource::kThreads, kW = Resource::kWarps, kB = Resource::kBlocks, kR = Resource::kRegisters;

// H100, cc 9.0: 2048 threads = 64 warps, 32 blocks, 65536 registers in 4 sub-partitions of
// 16384, 228 KiB = 233472 B of shared memory, 1 KiB reserved per block, 128 B units.
// 32 registers × 32 lanes = 1024 per warp (a multiple of 256): 16384 / 1024 = 16 warps per
// sub-partition, 64 per SM.
TEST(Occupancy, H100ByHand) {
  const GpuLimits& h100 = Gpu("h100");
  // TILE 2: 4 threads, 1 warp (4 live lanes); smem 2·2·2·4 = 32 B + 1024 = 1056 → 1152 B;
  // threads 2048/4 = 512, warps 64/1 = 64, blocks 32, registers 64/1 = 64, smem 233472/1152 = 202 → 32 (blocks).
  ExpectRow(h100, {2, 32, 4, 1, 1152, 512, 64, 32, 64, 202, 32, {kB}});
  // TILE 8: 64 threads, 2 warps; smem 512 + 1024 = 1536 B; threads 2048/64 = 32, warps 64/2 = 32,
  // blocks 32, registers 64/2 = 32, smem 233472/1536 = 152 → 32, four limits tie.
  ExpectRow(h100, {8, 32, 64, 2, 1536, 32, 32, 32, 32, 152, 32, {kT, kW, kB, kR}});
  // TILE 16: 256 threads, 8 warps; smem 2048 + 1024 = 3072 B; threads 2048/256 = 8, warps 64/8 = 8,
  // registers 64/8 = 8, smem 233472/3072 = 76 → 8.
  ExpectRow(h100, {16, 32, 256, 8, 3072, 8, 8, 32, 8, 76, 8, {kT, kW, kR}});
  // TILE 32: 1024 threads, 32 warps; smem 8192 + 1024 = 9216 B; threads 2, warps 64/32 = 2,
  // registers 64/32 = 2, smem 233472/9216 = 25 → 2.
  ExpectRow(h100, {32, 32, 1024, 32, 9216, 2, 2, 32, 2, 25, 2, {kT, kW, kR}});
}

// A100, cc 8.0: as the H100 but 164 KiB = 167936 B of shared memory per SM.
TEST(Occupancy, A100ByHand) {
  const GpuLimits& a100 = Gpu("a100");
  // TILE 2: smem 167936/1152 = 145 → 32 (blocks).
  ExpectRow(a100, {2, 32, 4, 1, 1152, 512, 64, 32, 64, 145, 32, {kB}});
  // TILE 8: smem 167936/1536 = 109; 32 by threads, warps, blocks and registers.
  ExpectRow(a100, {8, 32, 64, 2, 1536, 32, 32, 32, 32, 109, 32, {kT, kW, kB, kR}});
  // TILE 16: smem 167936/3072 = 54; 8 by threads, warps and registers.
  ExpectRow(a100, {16, 32, 256, 8, 3072, 8, 8, 32, 8, 54, 8, {kT, kW, kR}});
  // TILE 32: smem 167936/9216 = 18; 2.
  ExpectRow(a100, {32, 32, 1024, 32, 9216, 2, 2, 32, 2, 18, 2, {kT, kW, kR}});
}

// RTX 4090, cc 8.9: 1536 threads = 48 warps, 24 blocks, 100 KiB = 102400 B of shared memory.
// ptxas (sm_89) gives 40 registers to tiled2 and tiled8: 40 × 32 = 1280 per warp, 16384/1280
// = 12 warps per sub-partition, 48 per SM; 38 to tiled16 and tiled32: 1216 → 1280, the same 48.
TEST(Occupancy, Rtx4090ByHand) {
  const GpuLimits& ada = Gpu("rtx4090");
  // TILE 2: threads 1536/4 = 384, warps 48, blocks 24, registers 48/1 = 48, smem 102400/1152 = 88 → 24 (blocks).
  ExpectRow(ada, {2, 40, 4, 1, 1152, 384, 48, 24, 48, 88, 24, {kB}});
  // TILE 8: threads 1536/64 = 24, warps 48/2 = 24, blocks 24, registers 48/2 = 24, smem 102400/1536 = 66 → 24.
  ExpectRow(ada, {8, 40, 64, 2, 1536, 24, 24, 24, 24, 66, 24, {kT, kW, kB, kR}});
  // TILE 16: threads 1536/256 = 6, warps 48/8 = 6, registers 48/8 = 6, smem 102400/3072 = 33 → 6.
  ExpectRow(ada, {16, 38, 256, 8, 3072, 6, 6, 24, 6, 33, 6, {kT, kW, kR}});
  // TILE 32: threads 1536/1024 = 1, warps 48/32 = 1, registers 48/32 = 1, smem 102400/9216 = 11 → 1:
  // a third of the SM's warp slots stay empty.
  ExpectRow(ada, {32, 38, 1024, 32, 9216, 1, 1, 24, 1, 11, 1, {kT, kW, kR}});
}

// T4, cc 7.5: 1024 threads = 32 warps, 16 blocks, 64 KiB = 65536 B of shared memory, no
// per-block reservation, 256 B units. ptxas (sm_75): tiled2 44 registers → 1408 → 1536 per
// warp, 16384/1536 = 10 warps per sub-partition, 40 per SM; tiled8 and tiled32 42 → 1344 →
// 1536, also 40; tiled16 39 → 1248 → 1280, 12 per sub-partition, 48 per SM.
TEST(Occupancy, T4ByHand) {
  const GpuLimits& t4 = Gpu("t4");
  // TILE 2: smem 32 → 256 B; threads 1024/4 = 256, warps 32, blocks 16, registers 40/1 = 40,
  // smem 65536/256 = 256 → 16 (blocks).
  ExpectRow(t4, {2, 44, 4, 1, 256, 256, 32, 16, 40, 256, 16, {kB}});
  // TILE 8: smem 512 B; threads 1024/64 = 16, warps 32/2 = 16, blocks 16, registers 40/2 = 20, smem 128 → 16.
  ExpectRow(t4, {8, 42, 64, 2, 512, 16, 16, 16, 20, 128, 16, {kT, kW, kB}});
  // TILE 16: smem 2048 B; threads 4, warps 32/8 = 4, registers 48/8 = 6, smem 32 → 4.
  ExpectRow(t4, {16, 39, 256, 8, 2048, 4, 4, 16, 6, 32, 4, {kT, kW}});
  // TILE 32: smem 8192 B; threads 1, warps 1, registers 40/32 = 1, smem 8 → 1.
  ExpectRow(t4, {32, 42, 1024, 32, 8192, 1, 1, 16, 1, 8, 1, {kT, kW, kR}});
}

// Registers bind when a thread needs more of them: 40 × 32 = 1280 per warp (a multiple of 256);
// 16384 / 1280 = 12 warps per sub-partition, 48 per SM; TILE 16's 8 warps fit 48/8 = 6 times.
TEST(Occupancy, RegistersCanBeTheLimit) {
  const Occupancy o = sim::ComputeOccupancy(Tiled(16, 40), Gpu("h100"));
  EXPECT_EQ(o.registers_per_warp, 1280);
  EXPECT_EQ(o.blocks_per_sm, 6);
  EXPECT_EQ(o.limiting, std::vector<Resource>{kR});
  EXPECT_EQ(sim::LimitingText(o), "registers");
  // 33 registers round up to 33·32 = 1056 → 1280 per warp: the same 6 blocks.
  EXPECT_EQ(sim::ComputeOccupancy(Tiled(16, 33), Gpu("h100")).blocks_per_sm, 6);
}

// 65 registers × 32 = 2080 → 2304 per warp; TILE 32's 32 warps then need 73728 > 65536.
TEST(Occupancy, ABlockThatCannotFitSaysWhy) {
  const Occupancy o = sim::ComputeOccupancy(Tiled(32, 65), Gpu("h100"));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_NE(o.cannot_launch.find("65536"), std::string::npos) << o.cannot_launch;
  const Occupancy too_many = sim::ComputeOccupancy({33 * 33, 0, 32}, Gpu("h100"));
  EXPECT_EQ(too_many.blocks_per_sm, 0);
  EXPECT_EQ(too_many.cannot_launch, "1089 threads: more than 1024 per block");
}

// Shared memory binds with a big rectangular tile: TM = TN = 16, TK = 512 takes
// 4·(16·512 + 512·16) = 65536 B + 1024 → 66560 B; H100: 233472/66560 = 3 blocks.
TEST(Occupancy, SharedMemoryCanBeTheLimit) {
  const Occupancy o = sim::ComputeOccupancy({256, 65536, 32}, Gpu("h100"));
  EXPECT_EQ(o.shared_per_block, 66560);
  EXPECT_EQ(o.blocks_per_sm, 3);
  EXPECT_EQ(sim::LimitingText(o), "shared memory");
}

TEST(Occupancy, WarpFillSaysHowFullEachWarpIs) {
  EXPECT_EQ(sim::WarpFill(sim::ComputeOccupancy(Tiled(2, 32), Gpu("h100"))), "one warp, 4 live lanes of 32 (28 idle)");
  EXPECT_EQ(sim::WarpFill(sim::ComputeOccupancy(Tiled(16, 32), Gpu("h100"))), "8 full warps");
  // TILE 6: 36 threads → 2 warps, the second with 4 lanes.
  EXPECT_EQ(sim::WarpFill(sim::ComputeOccupancy(Tiled(6, 32), Gpu("h100"))),
            "2 warps, the last with 4 live lanes of 32 (28 idle)");
}

TEST(Occupancy, DemandOfTheTeachingKernels) {
  // rect 32×16×16: 32·16 = 512 threads, 4·(32·16 + 16·16) = 3072 B.
  const sim::BlockDemand rect = sim::DemandOf({sim::KernelKind::kTiledRect, {32, 16, 16}});
  EXPECT_EQ(rect.threads, 512);
  EXPECT_EQ(rect.shared_bytes, 3072);
  // The naive kernel: 16·16 threads, no shared memory, so shared memory sets no limit.
  const sim::KernelChoice naive{sim::KernelKind::kNaive, {16, 16, 16}};
  EXPECT_EQ(sim::DemandOf(naive).shared_bytes, 0);
  EXPECT_EQ(sim::CompiledKernelName(naive), "naive");
  const Occupancy o = sim::OccupancyOf(naive, Gpu("h100"));
  EXPECT_EQ(o.blocks_per_sm, 8);  // 2048 / 256
}

// ptxas's static shared memory for every recorded tiled kernel is the model's 4·(TM·TK + TK·TN).
TEST(Occupancy, RecordedSharedMemoryIsTheFormula) {
  for (int tile : {2, 4, 8, 16, 32}) {
    const sim::KernelChoice choice{sim::KernelKind::kTiled, {tile, tile, tile}};
    EXPECT_EQ(sim::RecordedSharedBytes(sim::CompiledKernelName(choice)), sim::DemandOf(choice).shared_bytes);
  }
  const sim::KernelChoice rect{sim::KernelKind::kTiledRect, {32, 16, 16}};
  EXPECT_EQ(sim::RecordedSharedBytes(sim::CompiledKernelName(rect)), sim::DemandOf(rect).shared_bytes);
}

TEST(Occupancy, AnUncompiledTileHasNoRegisterLimit) {
  const sim::KernelChoice six{sim::KernelKind::kTiled, {6, 6, 6}};
  const Occupancy o = sim::OccupancyOf(six, Gpu("h100"));
  EXPECT_EQ(o.demand.registers_per_thread, 0);
  for (const sim::ResourceLimit& limit : o.limits) {
    if (limit.resource == kR) {
      EXPECT_FALSE(limit.known);
    }
  }
  EXPECT_EQ(o.blocks_per_sm, 32);  // 36 threads = 2 warps: 64/2 = 32, and 32 blocks
}

TEST(Occupancy, ClassroomGpusAreFoundByKey) {
  EXPECT_EQ(sim::ClassroomGpuKeys(), "t4, a100, rtx4090, h100");
  EXPECT_EQ(sim::FindClassroomGpu("v100"), nullptr);
  EXPECT_EQ(sim::BlocksPerSm({sim::KernelKind::kTiled, {16, 16, 16}}, Gpu("t4")), 4);
}

}  // namespace
