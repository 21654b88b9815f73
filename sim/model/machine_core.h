// machine_core.h — what a step works on, whichever instructions it runs.
//
// The machine's fixed parts (the lesson's config and geometry, its Program, A and B), its
// state and logs, and the bookkeeping that a lesson's step (lesson_step.h) and a student
// kernel's step (kernel_step.h) share: which lanes can run, the start of a step, and the
// logging and counting of what the hazard detector finds. The Machine owns one; a step's
// parts are made for the step and handed it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "sim/model/geometry.h"
#include "sim/model/global_memory.h"
#include "sim/model/hazard_tally.h"
#include "sim/model/kernel_config.h"
#include "sim/model/machine_state.h"
#include "sim/model/program.h"

namespace sim {

struct MachineCore {
  KernelConfig config;
  Geometry geometry;
  Program program;
  GlobalMemory memory;
  MachineState state;
  MachineLogs logs;
  bool shared_accesses_can_race = true;  // else the hazard detector sees no access

  // Lays out blocks, warps and threads from the geometry, none started yet.
  void LayOutThreads();
  // Counts a step the scheduler gave (`unit`) before it runs.
  void CountStep(const Unit& unit) {
    ++state.step;
    ++state.counters.steps;
    state.counters.barrier_stall_steps += static_cast<std::uint64_t>(state.waiting_threads);
    state.last_unit = unit;
  }
  // `count` lanes of the warp became runnable (negative: stopped being). The scheduler hears
  // of the warp when it gains its first runnable lane or loses its last; `released`: by a
  // barrier (the scheduler's resume latency).
  void AddRunnableLanes(int warp_index, int count, bool released = false) {
    Warp& warp = state.warps[static_cast<std::size_t>(warp_index)];
    const int before = warp.runnable_lanes;
    warp.runnable_lanes += count;
    if ((before > 0) != (warp.runnable_lanes > 0)) state.scheduler.SetWarpRunnable(warp_index, warp.runnable_lanes > 0, released);
  }
  void SetRunnable(Thread& thread, bool runnable) {
    state.scheduler.SetThreadRunnable(static_cast<int>(&thread - state.threads.data()), runnable);
    AddRunnableLanes(thread.warp, runnable ? 1 : -1);
  }
  // The runnable lanes at the warp's earliest instruction (bit l: lane l).
  std::uint32_t EarliestLanes(const Warp& warp) const;
  Thread* LanesOf(const Warp& warp) { return &state.threads[static_cast<std::size_t>(warp.first_thread)]; }

  // Logs the hazards of `access` with each of the conflict's earlier lanes, while the log has room.
  void LogHazards(const SharedAccess& access, const Conflict& conflict, const SharedPlace& cell);
  void CountHazards(const HazardTally& tally, PhaseCounters& phase) { tally.AddTo(state.counters, phase); }
  // Counts `race.count` hazards of a student kernel at the race's place.
  // Inline: a racing kernel's every shared access finds some (a kernel has few places, the
  // newest first).
  void TallyRace(const RaceTally& race) {
    std::vector<RaceTally>& tallies = state.kernel_races;
    for (auto it = tallies.rbegin(); it != tallies.rend(); ++it) {
      if (it->SamePlace(race)) {
        it->count += race.count;
        return;
      }
    }
    tallies.push_back(race);
  }
  // Whether a student kernel's run has found a `kind` yet.
  bool Found(KernelFinding::Kind kind) const;
  // Counts a student kernel's finding at the thread's instruction, and logs it while the log has room.
  void LogFinding(const Thread& thread, KernelFinding::Kind kind, std::int64_t element = 0, int array = 0,
                  bool write = false, std::int32_t other_pc = -1);

  // Counts `finding` at its place (KernelFindingTally).
  void TallyFinding(const KernelFinding& finding);

  // Whether the logs hold every record `state` counts.
  bool LogsReach(const MachineState& at) const {
    return logs.reads.size() >= at.read_log_size && logs.hazards.size() >= at.hazard_log_size &&
           logs.out_of_bounds.size() >= at.out_of_bounds_log_size &&
           logs.kernel_findings.size() >= at.kernel_finding_log_size;
  }
  // Takes `at` back, the logs cut to the lengths it recorded.
  void Restore(const MachineState& at);
};

}  // namespace sim
