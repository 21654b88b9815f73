// lesson_places.h — where a lesson's instruction reads and writes, from the thread and the
// program counter alone: the element of A, B or C a global access names, the As/Bs cell a
// shared store writes, and what every lane of an instruction does first.
#pragma once
#include <cstdint>

#include "sim/model/geometry.h"
#include "sim/model/global_memory.h"
#include "sim/model/program.h"
#include "sim/model/shared_memory.h"
#include "sim/model/thread.h"

namespace sim {

// The element a thread's global access names (outside its matrix when the guard is off).
struct GlobalPlace {
  MatrixId matrix;
  long long row;
  long long col;
};

// The elements the lanes of a global access at one instruction name, made once for all its
// lanes: a lane's row and column follow from its own by one step and offset (the naive
// kernel's loop index k, the tiled kernels' element t·TK + j of the phase along the tile).
// With the shared words made alike and 8016dae's other changes: 256³ TILE 16 under callgrind
// 2,124 → 2,018 M instructions.
struct GlobalPlaces {
  MatrixId matrix;
  int step;          // per tx along A's columns, per ty down B's rows: 0 (naive) or 1
  long long offset;
  GlobalPlace Of(const Thread& thread) const {
    switch (matrix) {
      case MatrixId::kA:
        return {matrix, thread.regs.row, thread.tx * step + offset};
      case MatrixId::kB:
        return {matrix, thread.ty * step + offset, thread.regs.col};
      case MatrixId::kC:
        break;
    }
    return {matrix, thread.regs.row, thread.regs.col};
  }
};

inline GlobalPlaces GlobalPlacesAt(const Geometry& geometry, const Program& program, const ProgramCounter& pc) {
  const bool naive = geometry.naive;
  const long long tile_base = naive ? pc.t : static_cast<long long>(pc.t) * geometry.tk;
  if (pc.op == Op::kLoadA) return {MatrixId::kA, naive ? 0 : 1, naive ? tile_base : tile_base + program.AColumnOffset(pc.j)};
  if (pc.op == Op::kLoadB) return {MatrixId::kB, naive ? 0 : 1, naive ? tile_base : tile_base + program.BRowOffset(pc.j)};
  return {MatrixId::kC, 0, 0};
}

// The cell a thread's shared store at `pc` writes.
inline SharedPlace StorePlace(const Program& program, const Thread& thread, const ProgramCounter& pc) {
  if (pc.op == Op::kStoreAs) return {TileId::kAs, thread.ty, program.AColumn(thread, pc.j)};
  return {TileId::kBs, program.BRow(thread, pc.j), thread.tx};
}

// What each lane of an instruction does first: note its line, count it, set its loop index
// (the tiled kernels' t, the naive kernel's k). The same for all the lanes of a step, so
// made once and passed by value (a copy the lanes' stores cannot alias).
struct LaneStart {
  std::int16_t line;
  std::int32_t t;
  bool naive;
  void operator()(Thread& thread) const {
    thread.last_line = line;
    ++thread.instructions;
    (naive ? thread.regs.k : thread.regs.t) = t;
  }
};

}  // namespace sim
