// lesson_global_access.h — a lesson's loads of A and B and stores of C: the elements read
// (counted per element and per block, and logged for the views), the guard's zero padding,
// accesses outside a matrix when the guard is off, and the 32-byte sectors each
// warp-instruction touches.
#pragma once
#include <array>
#include <cstdint>

#include "sim/model/lesson_step_part.h"
#include "sim/model/warp_sectors.h"

namespace sim {

class LessonGlobalAccess : LessonStepPart {
 public:
  LessonGlobalAccess(MachineCore& machine, const LessonTables& tables) : LessonStepPart(machine, tables) {}

  // Runs a load for its lanes, starting each, and moves them on; true when any read memory.
  // `counts_sectors`: the lanes are all the warp's and lead their warp-instruction, so they
  // count its sectors as they run (CountWarpInstruction does not), not a second walk over them
  // (256³ TILE 16 under callgrind: 1,869 → 1,795 M instructions; 9759315).
  bool LoadGlobal(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, bool counts_sectors);
  void StoreC(Thread& thread);
  // The sectors of the warp-instruction `leader` leads, over every lane whose program has it.
  WarpSectors SectorsOf(const Thread& leader) const;
  // Counts a global access's sectors (leader: the lane that leads it) for the scheduler and the counters.
  void CountSectors(const Thread& leader, const WarpSectors& sectors);
  // The L2 halves of the sectors counted (bit h: a line in half h), for the scheduler's latency.
  std::uint8_t l2_halves() const { return l2_halves_; }

 private:
  // A load outside its matrix: zero padding under the guard, else a flagged read.
  bool LoadOutside(Thread& thread, const GlobalPlace& place, std::int16_t phase_index, float& reg);
  // Whether every lane of a whole warp's global access at `places` lies inside its matrix.
  bool WarpInside(const Thread* warp_lanes, const GlobalPlaces& places) const;
  // LoadGlobal for a whole warp whose lanes all load inside their matrix, row by row; adds the
  // sectors to `sectors` unless null. A run of lanes is a run of elements and of sectors (256³
  // TILE 16, bare, under callgrind: LoadGlobal 220 → 94 M instructions; d439ff6).
  void LoadWarpInside(Thread* warp_lanes, LaneStart start, const GlobalPlaces& places, ProgramCounter next,
                      std::int16_t phase_index, WarpSectors* sectors);
  void RecordOutOfBounds(const Thread& thread, MatrixId id, long long row, long long col, bool write, bool inside,
                         float value);
  // Whether the read log takes `reads` more reads, all of this step.
  bool ReadLogTakes(std::size_t reads) const {
    return m_.state.read_log_size + reads <= kMaxLoggedReads && m_.state.step < ReadLog::kStepLimit;
  }
  // The load this step's reads by the warp whose lane 0 is `lane0` belong to.
  ReadLog::LoggedLoad LoadOf(const Thread& lane0, MatrixId id, std::int16_t phase_index) const {
    return ReadLog::Load(m_.state.step, phase_index, static_cast<std::int32_t>(&lane0 - m_.state.threads.data()), id);
  }
  void LogRead(const Thread& thread, MatrixId id, long long element, std::int16_t phase_index) {
    if (!ReadLogTakes(1)) return;
    const ReadLog::LoggedLoad load = LoadOf(*(&thread - thread.lane), id, phase_index);
    if (!m_.logs.reads.LastLoadIs(load)) m_.logs.reads.StartLoad(load);
    m_.logs.reads.Append(static_cast<std::int32_t>(element), thread.lane);
    ++m_.state.read_log_size;
  }
  // Logs a whole warp's reads, of `elements` by lane, as many as the log takes.
  void LogWarpReads(const Thread* warp_lanes, MatrixId id, const std::array<std::int32_t, kWarpSize>& elements,
                    std::int16_t phase_index) {
    if (!ReadLogTakes(kWarpSize)) {
      for (int lane = 0; lane < kWarpSize; ++lane) LogRead(warp_lanes[lane], id, elements[lane], phase_index);
      return;
    }
    m_.logs.reads.StartLoad(LoadOf(warp_lanes[0], id, phase_index));
    m_.logs.reads.AppendWarp(elements);
    m_.state.read_log_size += kWarpSize;
  }

  std::uint8_t l2_halves_ = 0;
};

}  // namespace sim
