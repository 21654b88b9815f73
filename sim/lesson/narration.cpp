#include "sim/lesson/narration.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "sim/lesson/kernel_narration.h"
#include "sim/model/bits.h"
#include "sim/model/kernel_source.h"

namespace sim {
namespace {

std::string ThreadName(const TraceEvent& event, const Snapshot& snapshot) {
  const Thread& thread = snapshot.thread(event.block, event.thread);
  const Block& block = snapshot.blocks()[static_cast<std::size_t>(event.block)];
  return "Thread " + Coordinates(thread.tx, thread.ty) + " of block " + Coordinates(block.bx, block.by);
}

std::string BlockName(int block_index, const Snapshot& snapshot) {
  const Block& block = snapshot.blocks()[static_cast<std::size_t>(block_index)];
  return "block " + Coordinates(block.bx, block.by);
}

// "3 of 4 threads of this block have loaded": how far the block is with this instruction.
std::string Progress(const TraceEvent& event, const Snapshot& snapshot, const char* verb) {
  if (snapshot.geometry().naive) return "";
  // Loads and stores count from their first loop iteration; the inner product by its k.
  const Thread& thread = snapshot.thread(event.block, event.thread);
  const ProgramCounter pc{event.op, event.phase, event.op == Op::kFma ? thread.regs.k : 0};
  const int done = snapshot.ThreadsAtOrPast(event.block, pc);
  return "; " + std::to_string(done) + " of " + std::to_string(snapshot.geometry().block_threads) +
         " threads of this block have " + verb;
}

// "A[2][0] = 9", or "0 (zero padding: A[4][7] lies outside the matrix)" when the guard kept
// the load from reading.
std::string StoredValue(const TraceEvent& event, const Snapshot& snapshot) {
  const Place& from = event.from;
  const int rows = from.matrix == MatrixId::kA ? snapshot.config().m : snapshot.config().k;
  const int cols = from.matrix == MatrixId::kA ? snapshot.config().k : snapshot.config().n;
  const bool inside = from.row >= 0 && from.col >= 0 && from.row < rows && from.col < cols;
  if (inside || !snapshot.config().guard) return PlaceName(from) + " = " + FormatValue(event.value);
  return FormatValue(event.value) + " (zero padding: " + PlaceName(from) + " lies outside the matrix)";
}

const char* BarrierName(const Snapshot& snapshot, Op op) {
  const SyncKind kind = op == Op::kBarrier1 ? snapshot.config().barrier1 : snapshot.config().barrier2;
  return kind == SyncKind::kSyncwarp ? "__syncwarp()" : "__syncthreads()";
}

}  // namespace

std::string FormatValue(float value) {
  if (SameBits(value, SharedPoison())) return "?";
  if (std::isnan(value)) return "NaN";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", static_cast<double>(value));
  return text;
}

// Whichever is shorter: three significant digits shorten a fraction, but would write an
// integer C such as 1060 as "1.06e+03", twice as wide as the whole number.
std::string FormatValueShort(float value) {
  const std::string full = FormatValue(value);
  if (!std::isfinite(value)) return full;
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
  return std::strlen(text) < full.size() ? std::string(text) : full;
}

std::string NarrateBeforeFirstStep(const std::string& stepping_off) {
  if (stepping_off.empty()) return "Nothing has run yet. Step (\u2192) to run the first instruction; each step is told here.";
  return stepping_off + " No step is told at this size: a smaller one steps again.";
}

std::string PlaceName(const Place& place) {
  std::string name;
  switch (place.space) {
    case Place::Space::kGlobal:
      name = place.matrix == MatrixId::kA ? "A" : (place.matrix == MatrixId::kB ? "B" : "C");
      break;
    case Place::Space::kShared:
      name = place.tile == TileId::kAs ? "As" : "Bs";
      break;
    case Place::Space::kNone:
      return "";
  }
  return name + "[" + std::to_string(place.row) + "][" + std::to_string(place.col) + "]";
}

std::string Narrate(const TraceEvent& event, const Snapshot& snapshot) {
  switch (event.kind) {
    case EventKind::kGlobalLoad:
      return ThreadName(event, snapshot) + " loads " + PlaceName(event.from) + " = " + FormatValue(event.value) +
             " from global memory" + Progress(event, snapshot, "loaded it");
    case EventKind::kSelectZero:
      return ThreadName(event, snapshot) + " would load " + PlaceName(event.from) +
             ", which lies outside the matrix: the guard gives 0 instead (zero padding)";
    case EventKind::kSharedStore:
      return ThreadName(event, snapshot) + " stores " + StoredValue(event, snapshot) + " into " + PlaceName(event.to) +
             Progress(event, snapshot, "stored");
    case EventKind::kFma:
      if (event.from.space == Place::Space::kNone) {
        return ThreadName(event, snapshot) + " adds " + FormatValue(event.operand_a) + " × " +
               FormatValue(event.operand_b) + ": sum = " + FormatValue(event.value);
      }
      return ThreadName(event, snapshot) + " multiplies " + PlaceName(event.from) + " = " +
             FormatValue(event.operand_a) + " by " + PlaceName(event.from2) + " = " + FormatValue(event.operand_b) +
             " and adds: sum = " + FormatValue(event.value);
    case EventKind::kBarrierArrive:
      return ThreadName(event, snapshot) + " waits at " + BarrierName(snapshot, event.op) + " (line " +
             std::to_string(event.line) + ")" + Progress(event, snapshot, "arrived");
    case EventKind::kBarrierRelease:
      return "All " + std::to_string(event.index) + " waiting threads of " + BlockName(event.block, snapshot) +
             " pass " + BarrierName(snapshot, event.op) + " at line " + std::to_string(event.line) + " together";
    case EventKind::kHazard: {
      if (event.index < 0) return "Another shared-memory hazard on " + PlaceName(event.to);
      const Hazard& hazard = snapshot.hazards()[static_cast<std::size_t>(event.index)];
      return std::string(Name(hazard.kind)) + " hazard (" + Name(hazard.severity) + ") on " + PlaceName(event.to) +
             " of " + BlockName(hazard.block, snapshot) + " between threads " + std::to_string(hazard.first.thread) +
             " and " + std::to_string(hazard.second.thread) + ": no barrier orders them" +
             (hazard.observed_in_program_order ? "" : ", and this run crossed them the wrong way");
    }
    case EventKind::kOutOfBounds:
      return ThreadName(event, snapshot) + " accesses " +
             PlaceName(event.from.space == Place::Space::kNone ? event.to : event.from) +
             " outside the matrix (invalid global access; the guard is off)";
    case EventKind::kStoreC:
      // A sum that read a shared cell no thread had stored carries its mark: say so, not "= ?".
      if (SameBits(event.value, SharedPoison())) {
        return ThreadName(event, snapshot) + " writes " + PlaceName(event.to) +
               ": an undefined value, its sum read a tile cell no thread had stored; this element of C is final";
      }
      return ThreadName(event, snapshot) + " writes " + PlaceName(event.to) + " = " + FormatValue(event.value) +
             ": this element of C is final";
    case EventKind::kSkipStoreC:
      return ThreadName(event, snapshot) + " lies outside C: the guard skips its store";
  }
  return "";
}

std::string NarrateStep(const std::vector<TraceEvent>& events, const Snapshot& snapshot) {
  if (events.empty()) return snapshot.step() == 0 ? "Ready: no instruction has run yet" : "";
  // Hazards and barrier releases say the most; otherwise the first lane's instruction.
  for (const TraceEvent& event : events) {
    if (event.kind == EventKind::kHazard || event.kind == EventKind::kBarrierRelease) return Narrate(event, snapshot);
  }
  const TraceEvent& first = events.front();
  int lanes = 0;
  for (const TraceEvent& event : events) lanes += event.kind == first.kind && event.thread >= 0;
  if (lanes <= 1) return Narrate(first, snapshot);
  const Thread& thread = snapshot.thread(first.block, first.thread);
  return "Warp " + std::to_string(snapshot.warps()[static_cast<std::size_t>(thread.warp)].index_in_block) +
         " of " + BlockName(first.block, snapshot) + ", " + std::to_string(lanes) + " lanes together: " +
         Narrate(first, snapshot) + ", and the other lanes likewise (line " + std::to_string(first.line) + ")";
}

std::string NarrateLastStep(const Snapshot& snapshot) {
  if (snapshot.kernel() != nullptr) return NarrateKernelStep(snapshot);
  return NarrateStep(snapshot.last_step_events(), snapshot);
}

}  // namespace sim
