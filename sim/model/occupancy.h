// occupancy.h — how many blocks of a teaching kernel one SM holds at once, limit by limit.
//
// A block asks an SM for warp slots, a block slot, registers and shared memory; the SM takes
// as many blocks as its scarcest resource allows. This follows the occupancy calculator's
// rules (cuda_occupancy.h): registers are allocated per warp in units, split over the SM's
// sub-partitions; shared memory per block is rounded up to a unit and carries a per-block
// reservation from cc 8.0 on. The limits of the classroom GPUs come from the CUDA C++
// Programming Guide's "Technical Specifications per Compute Capability" table; the present
// GPU's from the device (kernels/ fills them in). Plain C++: no CUDA here.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/kernel_config.h"

namespace sim {

// What an SM of one GPU offers, and how it hands it out.
struct GpuLimits {
  std::string key;   // "h100": what `tilescope occupancy --gpu` takes
  std::string name;  // "H100 (cc 9.0)"
  int cc_major = 0;
  int cc_minor = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;        // 32-bit registers in the register file
  int max_registers_per_block = 0;
  int max_registers_per_thread = 0;
  int register_unit = 0;           // registers go to a warp in multiples of this
  int sub_partitions = 0;          // the register file is split evenly over these
  int shared_per_sm = 0;           // bytes of shared memory blocks can share
  int max_shared_per_block = 0;    // bytes one block may ask for (opt-in)
  int shared_reserved_per_block = 0;  // bytes the system keeps in every block's share
  int shared_unit = 0;             // a block's shared memory is rounded up to this
};

// T4 (7.5), A100 (8.0), RTX 4090 (8.9), H100 (9.0), in that order.
const std::vector<GpuLimits>& ClassroomGpus();
const GpuLimits* FindClassroomGpu(std::string_view key);
// "t4, a100, rtx4090, h100", for messages and help.
std::string ClassroomGpuKeys();
// The allocation rules (register unit, sub-partitions, shared unit) a compute capability
// follows; the device reports its sizes but not these. False for one before 7.5.
bool FillAllocationRules(GpuLimits& limits);

// What one block of a kernel asks for.
struct BlockDemand {
  int threads = 0;
  int shared_bytes = 0;          // static __shared__ bytes
  int registers_per_thread = 0;  // 0: not known (no compiled kernel for this tile)
};

// The teaching kernel a lesson runs, as occupancy sees it.
struct KernelChoice {
  KernelKind kind = KernelKind::kTiled;
  TileShape tiles{};  // the naive kernel: tm × tn threads, no shared memory

  static KernelChoice Of(const KernelConfig& config);
};
// The kernel table's name of the compiled both-barriers, guarded kernel of this choice
// ("tiled16", "rect32x16x16", "naive16") — tests check it against kernels/kernel_table.h.
std::string CompiledKernelName(const KernelChoice& choice);
// Threads and static shared memory of a block: TM·TN threads; 4·(TM·TK + TK·TN) bytes for
// the tiled kernels, none for the naive one.
BlockDemand DemandOf(const KernelChoice& choice);

// The registers per thread ptxas gave the compiled kernel `name` for `cc` (SASS of the
// nearest lower compiled architecture), measured at build time (sim/model/kernel_resources.json,
// from `nvcc -Xptxas -v`); nullopt when that kernel or architecture was not recorded.
std::optional<int> RecordedRegisters(std::string_view name, int cc_major, int cc_minor);
// Its static shared memory as ptxas counted it.
std::optional<int> RecordedSharedBytes(std::string_view name);
// Which ptxas the table was measured with ("ptxas of CUDA 13.0, sm_75 sm_80 sm_89 sm_90").
std::string RecordedResourcesSource();

enum class Resource { kThreads, kWarps, kBlocks, kRegisters, kSharedMemory };
const char* Name(Resource resource);

// One resource's ceiling on resident blocks, with the arithmetic that gives it.
struct ResourceLimit {
  Resource resource = Resource::kWarps;
  bool known = true;  // false where the resource sets no ceiling: unknown registers, no shared memory
  int blocks = 0;     // blocks of this kernel the resource allows on one SM
  std::string working;  // "64 warps / 8 warps per block = 8"
};

struct Occupancy {
  BlockDemand demand;
  int warps_per_block = 0;
  int live_lanes_in_last_warp = 0;  // 4 for TILE 2: one warp, 28 lanes idle
  int registers_per_warp = 0;       // after rounding to the register unit
  int shared_per_block = 0;         // after the reservation and rounding
  std::vector<ResourceLimit> limits;  // threads, warps, blocks, registers, shared memory
  int blocks_per_sm = 0;
  std::vector<Resource> limiting;   // every resource whose ceiling is the minimum
  int active_warps = 0;             // blocks_per_sm · warps_per_block
  double warp_occupancy = 0;        // active warps / the SM's warp slots
  std::string cannot_launch;        // why no block fits at all ("1089 threads: more than 1024 per block")
};

Occupancy ComputeOccupancy(const BlockDemand& demand, const GpuLimits& gpu);
// The occupancy of a teaching kernel on `gpu`, registers as recorded for its compiled kernel.
Occupancy OccupancyOf(const KernelChoice& choice, const GpuLimits& gpu);
// Blocks of `choice` resident on one SM of `gpu`: the model's answer to "blocks per SM".
int BlocksPerSm(const KernelChoice& choice, const GpuLimits& gpu);
// "warps" or "registers and shared memory": the limiting resources in words.
std::string LimitingText(const Occupancy& occupancy);
// "one warp, 4 live lanes of 32 (28 idle)" or "8 full warps".
std::string WarpFill(const Occupancy& occupancy);
// "tiled, TILE 16" / "rect, TM 32 TN 16 TK 16" / "naive, 16×16 block".
std::string Describe(const KernelChoice& choice);
// The figures of one GPU's occupancy, for --dump-state and `tilescope occupancy --json`.
nlohmann::json OccupancyJson(const Occupancy& occupancy, const GpuLimits& gpu);

}  // namespace sim
