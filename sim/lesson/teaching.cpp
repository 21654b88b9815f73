#include "sim/lesson/teaching.h"

#include "sim/model/warp.h"

namespace sim {
namespace {

// "16×16 = 256 threads".
std::string BlockText(const Geometry& g) {
  return std::to_string(g.tn) + "\u00D7" + std::to_string(g.tm) + " = " + std::to_string(g.block_threads) +
         " threads";
}

}  // namespace

std::string CountOf(std::uint64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

const char* OneWarpRaceNote(SchedulerKind scheduler) {
  switch (scheduler) {
    case SchedulerKind::kRealistic:
      return "One warp per block: lockstep hides this race on today's GPUs, but it is not guaranteed.";
    case SchedulerKind::kRaceExposing:
      return "One warp per block, but this scheduler lets its lowest lane run ahead, as nothing in CUDA forbids: here "
             "the race bites. On today's GPUs lockstep hides it.";
    case SchedulerKind::kRandom:
      return "One warp per block, but this scheduler interleaves its lanes at random, as nothing in CUDA forbids: here "
             "the race can bite. On today's GPUs lockstep hides it.";
    case SchedulerKind::kThreadOrder:
      return "One warp per block, but this scheduler runs its lanes one at a time, as nothing in CUDA forbids: here "
             "the race can bite. On today's GPUs lockstep hides it.";
  }
  return "";
}

std::string WarpsOfBlock(const Geometry& g) {
  if (g.warps_per_block == 1) {
    const int idle = kWarpSize - g.block_threads;
    return "one warp of " + std::to_string(g.block_threads) + (g.block_threads == 1 ? " live lane" : " live lanes") +
           (idle > 0 ? " (" + std::to_string(idle) + " idle)" : "");
  }
  const int last_warp_lanes = g.block_threads - (g.warps_per_block - 1) * kWarpSize;
  return std::to_string(g.warps_per_block) + " warps" +
         (last_warp_lanes < kWarpSize ? " (the last has " + std::to_string(last_warp_lanes) + " lanes)" : "");
}

const char* SchedulerSummary(SchedulerKind scheduler) {
  switch (scheduler) {
    case SchedulerKind::kRealistic:
      return "realistic: warps in lockstep, oldest ready warp first";
    case SchedulerKind::kThreadOrder:
      return "thread: one thread at a time, in thread order";
    case SchedulerKind::kRandom:
      return "random: seeded random interleaving";
    case SchedulerKind::kRaceExposing:
      return "race: the lowest thread runs ahead until it blocks, so a missing barrier corrupts C";
  }
  return "";
}

std::string RaceCaseHeadline(const KernelConfig& lesson, const Geometry& g) {
  if (g.naive) return "Naive kernel: no shared memory, no barrier, nothing to race on.";
  const std::string block = BlockText(g);
  if (g.warps_per_block == 1) {
    return "One warp per block (" + block + "): " +
           (lesson.scheduler == SchedulerKind::kRealistic
                ? "lockstep hides a missing barrier."
                : "lockstep would hide a missing barrier, but this scheduler runs the lanes apart.");
  }
  return std::to_string(g.warps_per_block) + " warps per block (" + block +
         "): the GPU runs them independently, so a missing barrier can corrupt C.";
}

std::string RaceCaseStatement(const KernelConfig& lesson, const Geometry& g) {
  if (g.naive) {
    return "The naive kernel keeps nothing in shared memory and has no barrier: there is nothing to race on. "
           "Open a tiled lesson to switch a barrier off.";
  }
  const std::string block = BlockText(g);
  if (g.warps_per_block == 1) {
    return "One warp per block: a block of " + block + " is a single warp (" + std::to_string(32 - g.block_threads) +
           " of its 32 lanes idle). The realistic scheduler, like today's GPUs, runs a warp's lanes in lockstep, so "
           "even without a barrier every lane stores before any lane reads and C comes out right." +
           (lesson.scheduler == SchedulerKind::kRealistic
                ? std::string()
                : std::string(" The scheduler chosen now does not: it runs the lanes apart, so here C can come out "
                              "wrong.")) +
           " The hazard is real either way: racecheck reports it, and lockstep is not guaranteed (independent thread "
           "scheduling since Volta). "
           "__syncwarp() in place of each barrier orders the lanes: no hazard, C right." +
           std::string(lesson.kernel == KernelKind::kTiled
                           ? " Compare TILE 16 (eight warps): run the race_tile16 preset."
                           : "");
  }
  return std::to_string(g.warps_per_block) + " warps per block: a block of " + block + " is " +
         std::to_string(g.warps_per_block) +
         " warps, which the GPU runs independently. Without the 1st __syncthreads() a warp reads As and Bs before the "
         "other warps stored them, and C goes wrong. Without the 2nd a warp may refill the tiles while others still "
         "read them: whether that bites depends on how far a warp falls behind the others, so on the GPU C can be "
         "right at one size and wrong at another (run it below to count). __syncwarp() orders the lanes of one warp "
         "only: not enough here, and the model reports errors across warps.";
}

const char* SchedulerSentence(SchedulerKind scheduler) {
  switch (scheduler) {
    case SchedulerKind::kRealistic:
      return "Realistic: a warp's lanes issue together, the oldest ready warp first, each global load a seeded "
             "latency, as on the GPU. One-warp blocks never reorder their lanes.";
    case SchedulerKind::kRandom:
      return "Random interleaving: any runnable thread, chosen by the seed. Whether a race bites depends on the "
             "seed: run 100 seeds to see how often.";
    case SchedulerKind::kRaceExposing:
      return "Race-exposing: the lowest runnable thread runs ahead until it blocks, so every switched-off barrier "
             "is crossed in the wrong order. Legal on the GPU (nothing guarantees lockstep), and the worst case.";
    case SchedulerKind::kThreadOrder:
      return "One thread at a time: each thread runs one instruction in turn, for slow explanation.";
  }
  return "";
}

namespace {

// Grid cells where the model's mean wrong fraction lies outside the H100's trials widened by
// 10 points, each with the reason (see docs/results/model-race-grid-2026-11-27.txt).
constexpr const char* kLoneBlockGap =
    "Not calibrated here: this is one block of 32 warps alone on its SM, and the H100 spreads such a block's warps "
    "further apart than the model does, so on the GPU C goes wrong in more of the runs than the model shows.";
constexpr const char* kTwoWarpsRaceMoreGap =
    "Not calibrated here: with two warps per block over many phases the model lets the warps race in more phases "
    "than the H100 does, so it shows more of C wrong than the GPU.";
constexpr const char* kTwoWarpsDriftGap =
    "Not calibrated here: with two warps per block and no __syncthreads() at all, the H100's warps drift further "
    "apart than the model's, so on the GPU more of C goes wrong than the model shows.";

struct CalibrationGap {
  int tile;
  SyncKind barrier1;
  SyncKind barrier2;
  int m, n, k;
  const char* reason;
};

constexpr CalibrationGap kCalibrationGaps[] = {
    {32, SyncKind::kNone, SyncKind::kSyncthreads, 32, 32, 64, kLoneBlockGap},
    {8, SyncKind::kNone, SyncKind::kSyncthreads, 128, 128, 128, kTwoWarpsRaceMoreGap},
    {8, SyncKind::kNone, SyncKind::kNone, 64, 64, 64, kTwoWarpsDriftGap},
    {8, SyncKind::kNone, SyncKind::kNone, 128, 128, 128, kTwoWarpsDriftGap},
    {8, SyncKind::kSyncwarp, SyncKind::kSyncwarp, 64, 64, 64, kTwoWarpsDriftGap},
};

}  // namespace

std::string RealisticCalibrationCaveat(const KernelConfig& lesson) {
  if (lesson.kernel != KernelKind::kTiled) {
    return "The realistic scheduler is calibrated against the H100 on the square tiled kernel: for this kernel its "
           "race count is the model's estimate, not a measured figure.";
  }
  // TILE 2 and 4 are one warp: in lockstep C is right, as on the GPU; 8, 16 and 32 were measured.
  if (lesson.tile != 2 && lesson.tile != 4 && lesson.tile != 8 && lesson.tile != 16 && lesson.tile != 32) {
    return "The realistic scheduler is calibrated against the H100 at TILE 8, 16 and 32: at TILE " +
           std::to_string(lesson.tile) + " its race count is the model's estimate.";
  }
  if (std::int64_t{lesson.m} * lesson.n > kCalibratedMaxElements || lesson.k > kCalibratedMaxK) {
    return "The realistic scheduler is calibrated against the H100 up to 256\u00D7256: larger grids run on the GPU "
           "in waves of blocks whose loads contend for memory, which the model leaves out, so there the GPU goes "
           "wrong more often (even without the 2nd barrier alone) than the model says.";
  }
  for (const CalibrationGap& gap : kCalibrationGaps) {
    if (gap.tile == lesson.tile && gap.barrier1 == lesson.barrier1 && gap.barrier2 == lesson.barrier2 &&
        gap.m == lesson.m && gap.n == lesson.n && gap.k == lesson.k) {
      return gap.reason;
    }
  }
  return "";
}

}  // namespace sim
