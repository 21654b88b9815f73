// hazard_detector.h — shared-memory races, judged the way compute-sanitizer racecheck
// judges them: from the accesses, not from the timing.
//
// Two accesses to the same shared word by different threads, at least one a write, are a
// hazard unless an enabled barrier passed by both lies between them. __syncthreads()
// generations are shared by the whole block (no thread passes generation g + 1 before all
// reached it), so accesses in different block generations are ordered; __syncwarp()
// generations order two lanes of one warp and nothing across warps. Every access of the
// current block generation is therefore kept per cell, and each new access is checked
// against those of the other threads: the verdict does not depend on which schedule ran,
// so a lockstep warp whose C comes out right still reports its hazard.
//
// The kind is named by the order the missing barrier would have imposed — program order,
// which is the stage (phase, part of the phase) of each access: write then read is RAW,
// read then write WAR, two writes WAW. The order actually observed is recorded too, with
// the value the reader saw and the one it should have seen.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/instruction.h"
#include "sim/shared_memory.h"

namespace sim {

enum class HazardKind : std::uint8_t { kRaw, kWar, kWaw };
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

class HazardDetector {
 public:
  HazardDetector() = default;
  HazardDetector(int blocks, int cells_per_block);

  // Checks `access` against the other threads' accesses to its cell in this block
  // generation, appends what conflicts to `found`, then remembers the access.
  void OnAccess(const SharedAccess& access, int block_epoch, std::vector<Hazard>& found);
  // The block passed a __syncthreads(): earlier accesses are ordered before all later ones.
  void OnBlockBarrier(int block);
  // Every thread of the block exited: its accesses can race with nothing any more.
  void OnBlockExit(int block);
  std::size_t Bytes() const;
  bool operator==(const HazardDetector& o) const;

 private:
  struct Entry {
    std::int32_t next;
    std::int32_t stage;
    std::int32_t warp_epoch;
    std::int16_t thread;
    std::int16_t warp;
    Op op;
    bool write;
    float value;
    float old_value;
    bool operator==(const Entry& o) const;
  };
  // Heads of the cell's lists of writes and reads in generation `epoch`.
  struct CellShadow {
    std::int32_t epoch = -1;
    std::int32_t writes = -1;
    std::int32_t reads = -1;
    bool operator==(const CellShadow& o) const {
      return epoch == o.epoch && writes == o.writes && reads == o.reads;
    }
  };

  void Check(const SharedAccess& access, std::int32_t head, std::vector<Hazard>& found) const;
  Hazard Describe(const Entry& earlier, const SharedAccess& later) const;

  int cells_per_block_ = 0;
  std::vector<CellShadow> cells_;
  std::vector<std::vector<Entry>> arenas_;  // per block: this generation's accesses
};

}  // namespace sim
