#include "sim/model/machine_core.h"

#include <algorithm>
#include <limits>

namespace sim {

void MachineCore::LayOutThreads() {
  const Geometry& g = geometry;
  state.threads.resize(static_cast<std::size_t>(g.threads()));
  state.warps.resize(static_cast<std::size_t>(g.warps()));
  state.blocks.resize(static_cast<std::size_t>(g.blocks));
  for (int b = 0; b < g.blocks; ++b) {
    Block& block = state.blocks[static_cast<std::size_t>(b)];
    block.bx = b % g.grid_x;
    block.by = b / g.grid_x;
    block.first_thread = b * g.block_threads;
    block.thread_count = g.block_threads;
    block.first_warp = b * g.warps_per_block;
    block.warp_count = g.warps_per_block;
    for (int w = 0; w < g.warps_per_block; ++w) {
      Warp& warp = state.warps[static_cast<std::size_t>(block.first_warp + w)];
      warp.block = b;
      warp.index_in_block = w;
      warp.first_thread = block.first_thread + w * kWarpSize;
      warp.lane_count = std::min(kWarpSize, g.block_threads - w * kWarpSize);
    }
    for (int i = 0; i < g.block_threads; ++i) {
      Thread& thread = state.threads[static_cast<std::size_t>(block.first_thread + i)];
      thread.block = b;
      thread.tx = static_cast<std::int16_t>(i % g.tn);
      thread.ty = static_cast<std::int16_t>(i / g.tn);
      thread.index_in_block = static_cast<std::int16_t>(i);
      thread.warp = block.first_warp + i / kWarpSize;
      thread.lane = static_cast<std::int16_t>(i % kWarpSize);
    }
  }
}

std::uint32_t MachineCore::EarliestLanes(const Warp& warp) const {
  // Lockstep with reconvergence: the lanes at the earliest point of the program issue
  // together; lanes that skipped ahead (a shorter strided loop) wait for them.
  const Thread* const warp_lanes = &state.threads[static_cast<std::size_t>(warp.first_thread)];
  std::uint32_t lanes = 0;
  std::int64_t earliest_key = std::numeric_limits<std::int64_t>::max();
  ProgramCounter earliest{};
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if (!thread.Runnable()) continue;
    // Keys are one-to-one with program counters: a converged warp compares its lanes'
    // counters and computes one key.
    if (lanes == 0 || thread.pc != earliest) {
      const std::int64_t key = thread.pc.Key();
      if (key > earliest_key) continue;
      earliest_key = key;
      earliest = thread.pc;
      lanes = 0;
    }
    lanes |= 1u << lane;
  }
  return lanes;
}

void MachineCore::LogHazards(const SharedAccess& access, const Conflict& conflict, const SharedPlace& cell) {
  // An entry's lanes came in order: the newest first, as its cell's list runs.
  for (std::uint32_t lanes = conflict.earlier_lanes; lanes != 0 && state.hazard_log_size < kMaxLoggedHazards;) {
    const int lane = 31 - __builtin_clz(lanes);
    lanes &= ~(1u << lane);
    Hazard& hazard = logs.hazards.emplace_back(state.hazard_detector.Describe(access, conflict, lane));
    hazard.step = state.step;
    hazard.tile = cell.tile;
    hazard.row = cell.row;
    hazard.col = cell.col;
    state.hazard_log_size = logs.hazards.size();
  }
}

void MachineCore::LogFinding(const Thread& thread, KernelFinding::Kind kind, std::int64_t element, int array, bool write,
                             std::int32_t other_pc) {
  const KernelFinding finding{kind, state.step, thread.block, thread.index_in_block, thread.pc.t,
                              element, static_cast<std::uint8_t>(array), write, other_pc};
  TallyFinding(finding);
  if (logs.kernel_findings.size() >= kMaxLoggedOutOfBounds) return;
  logs.kernel_findings.push_back(finding);
  state.kernel_finding_log_size = logs.kernel_findings.size();
}

void MachineCore::TallyFinding(const KernelFinding& finding) {
  // A kernel has few places that go wrong: the newest first, then the rest.
  std::vector<KernelFindingTally>& tallies = state.kernel_findings;
  for (auto it = tallies.rbegin(); it != tallies.rend(); ++it) {
    if (it->SamePlace(finding)) {
      ++it->count;
      return;
    }
  }
  tallies.push_back(KernelFindingTally{finding, 1});
}

bool MachineCore::Found(KernelFinding::Kind kind) const {
  for (const KernelFindingTally& tally : state.kernel_findings) {
    if (tally.first.kind == kind) return true;
  }
  return false;
}

void MachineCore::Restore(const MachineState& at) {
  state = at;
  logs.reads.Resize(at.read_log_size);
  logs.hazards.resize(at.hazard_log_size);
  logs.out_of_bounds.resize(at.out_of_bounds_log_size);
  logs.kernel_findings.resize(at.kernel_finding_log_size);
}

}  // namespace sim
