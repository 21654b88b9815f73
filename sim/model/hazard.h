// hazard.h — a shared-memory hazard as the detector reports it: its kind (named by program
// order), its severity (as racecheck grades it), the two accesses and the values involved.
#pragma once
#include <cstdint>

#include "sim/model/instruction.h"
#include "sim/model/shared_memory.h"

namespace sim {

enum class HazardKind : std::uint8_t { kRaw, kWar, kWaw };
constexpr int kHazardKindCount = 3;
// As racecheck reports it: both threads in one warp is a warning ("warp level": right in
// lockstep, not guaranteed; __syncwarp() would make it so), different warps an error.
enum class Severity : std::uint8_t { kWarning, kError };

const char* Name(HazardKind kind);
const char* Name(Severity severity);

// One shared access, as the detector sees it.
struct SharedAccess {
  std::int32_t block = 0;
  std::int32_t word = 0;        // SharedMemory::Word
  std::int32_t thread = 0;      // index_in_block
  std::int32_t warp = 0;        // warp index in the block
  std::int32_t warp_epoch = 0;  // the warp's __syncwarp() generation
  std::int32_t stage = 0;       // ProgramCounter::Stage(): program order
  Op op = Op::kDone;
  bool write = false;
  float value = 0.0f;           // written, or read
  float old_value = 0.0f;       // the cell's value before this access
};

struct HazardSide {
  std::int32_t thread = 0;  // index_in_block
  std::int32_t warp = 0;    // warp index in the block
  Op op = Op::kDone;
  std::int32_t phase = 0;
  bool write = false;
  float value = 0.0f;
  std::int32_t stage = 0;   // SharedAccess::stage (a student's kernel: where in the code it is)
};

struct Hazard {
  std::int64_t step = 0;             // step at which the second access ran
  HazardKind kind = HazardKind::kRaw;
  Severity severity = Severity::kError;
  std::int32_t block = 0;
  TileId tile = TileId::kAs;
  std::int32_t row = 0;
  std::int32_t col = 0;
  HazardSide first;                  // in the order observed
  HazardSide second;
  bool observed_in_program_order = true;  // false: the run witnessed the race
  float current_value = 0.0f;        // the cell before the second access
  float incoming_value = 0.0f;       // what the second access wrote or read
  float value_seen = 0.0f;           // RAW/WAR: what the reader got; WAW: the cell's final value
  float value_expected = 0.0f;       // ... and what the barrier would have given
  std::int32_t phase = 0;            // phase of the second access

  // Witnessed in the wrong order and the values differ: this hazard changed a result.
  bool Corrupted() const;
  bool operator==(const Hazard& o) const;
};

// What counting hazards needs, found while checking an access against an earlier one, which
// lanes of a warp-instruction may share; Describe() gives the rest.
struct Conflict {
  HazardKind kind = HazardKind::kRaw;
  Severity severity = Severity::kError;
  bool observed_in_program_order = true;
  bool corrupted = false;   // Hazard::Corrupted()
  std::int32_t earlier = 0;  // the earlier access, for Describe(): its entry
  std::uint32_t earlier_lanes = 0;  // ... and its lanes that conflict (bit l: lane l), a hazard each
};

}  // namespace sim
