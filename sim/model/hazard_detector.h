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
// so a lockstep warp whose C comes out right still reports its hazard. Only a write checks
// reads: a read made when no thread of the block stores again before the generation ends is
// checked, not kept.
//
// The kind is named by the order the missing barrier would have imposed — program order,
// which is the stage (phase, part of the phase) of each access: write then read is RAW,
// read then write WAR, two writes WAW. The order actually observed is recorded too, with
// the value the reader saw and the one it should have seen.
//
// A warp-instruction's lanes that read one cell are kept as one entry with a lane mask
// (half a warp reads each As cell of an inner-product step): they share all but the thread,
// and a later write finds the entry once, with its lanes (Conflict::earlier_lanes), which the
// hazard log then describes lane by lane, newest first (128³ TILE 16 without the 1st barrier
// under callgrind: 1,238.8 → 1,159.5 M instructions, CPU 1.37 → 1.13 s at 256³; 57be08a).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/model/hazard.h"
#include "sim/model/bits.h"
#include "sim/model/hazard_arena.h"
#include "sim/model/warp.h"

namespace sim {

class HazardDetector {
 public:
  HazardDetector() = default;
  HazardDetector(int blocks, int cells_per_block);

  // Checks `access` against the other threads' accesses to its cell in this block
  // generation, calls `report(const Conflict&)` for each that conflicts (an entry, its lanes
  // the newest, the highest, first), then remembers the access. Inline, with a callback rather
  // than a list: every shared access of a racing lesson comes through here, most of them with
  // a hazard (with af382dd's other changes, 256³ TILE 16 through Simulation under callgrind:
  // 4,021 → 3,442 M instructions).
  template <typename Report>
  void OnAccess(const SharedAccess& access, int block_epoch, Report&& report) {
    CellShadow& cell = CheckAgainst(access, block_epoch, report);
    std::int32_t& head = access.write ? cell.writes : cell.reads;
    const Arena::Appended appended = arenas_[static_cast<std::size_t>(access.block)].Append();
    appended.entry.Fill(head, access, LaneBit(access));
    head = appended.at;
  }
  class WarpReads;
  // The whole hazard between `access` and lane `earlier_lane` of a conflict OnAccess or WarpReads
  // found for it, before the block's next barrier (step and place are the caller's to fill in).
  Hazard Describe(const SharedAccess& access, const Conflict& conflict, int earlier_lane) const;
  // The earlier access of a conflict OnAccess found for `access`, before the block's next barrier.
  const HazardEntry& Earlier(const SharedAccess& access, const Conflict& conflict) const {
    return arenas_[static_cast<std::size_t>(access.block)][conflict.earlier];
  }
  // The block passed a __syncthreads(): earlier accesses are ordered before all later ones.
  void OnBlockBarrier(int block);
  // Every thread of the block exited: its accesses can race with nothing any more.
  void OnBlockExit(int block);
  // Drops every block's accesses (a state kept only for its buffers, to be overwritten).
  void ReleaseArenas();
  std::size_t Bytes() const;
  // For sim/memory_estimate: a shadow per shared cell, an entry per access of a generation
  // (the lanes of a warp-instruction that read one cell share one).
  static std::size_t BytesPerCell();
  static std::size_t BytesPerAccess();
  // Accesses in one chunk of a block's arena (see Arena).
  static constexpr std::int32_t kArenaChunkEntries = HazardArena::kChunkEntries;
  bool operator==(const HazardDetector& o) const;

 private:
  // The lane of an access's thread in its warp (warps are cut from the block's threads in
  // order, 32 each).
  static std::uint32_t LaneBit(const SharedAccess& access) { return 1u << (access.thread - access.warp * kWarpSize); }
  using Entry = HazardEntry;
  using Arena = HazardArena;
  // Heads of the cell's lists of writes and reads in generation `epoch`.
  struct CellShadow {
    std::int32_t epoch = -1;
    std::int32_t writes = -1;
    std::int32_t reads = -1;
    bool operator==(const CellShadow& o) const {
      return epoch == o.epoch && writes == o.writes && reads == o.reads;
    }
  };
  // The kind and the values of a hazard: what it is named by program order, and what the
  // reader saw against what the missing barrier would have given it.
  struct Verdict {
    HazardKind kind;
    bool observed_in_program_order;
    float value_seen;
    float value_expected;
  };

  // Checks `access` against its cell's entries of this generation; the cell's shadow.
  template <typename Report>
  CellShadow& CheckAgainst(const SharedAccess& access, int block_epoch, Report& report) {
    CellShadow& cell = cells_[static_cast<std::size_t>(access.block) * cells_per_block_ + access.word];
    if (cell.epoch != block_epoch) cell = CellShadow{block_epoch, -1, -1};
    const Arena& arena = arenas_[static_cast<std::size_t>(access.block)];
    // Two reads never race: a read is checked against writes only, a write against both.
    for (std::int32_t at = cell.writes; at >= 0;) {
      const Entry& earlier = arena[at];
      Check(earlier, at, access, report);
      at = earlier.next;
    }
    if (access.write) {
      for (std::int32_t at = cell.reads; at >= 0;) {
        const Entry& earlier = arena[at];
        Check(earlier, at, access, report);
        at = earlier.next;
      }
    }
    return cell;
  }
  template <typename Report>
  static void Check(const Entry& earlier, std::int32_t at, const SharedAccess& access, Report& report) {
    std::uint32_t lanes = earlier.lanes;
    if (earlier.warp == access.warp) {
      // A __syncwarp() passed by both lanes of one warp orders them; it orders nothing across warps.
      if (earlier.warp_epoch != access.warp_epoch) return;
      lanes &= ~LaneBit(access);  // program order orders a thread's own accesses
    }
    if (lanes == 0) return;
    Conflict conflict = ConflictWith(earlier, at, access);
    conflict.earlier_lanes = lanes;
    report(conflict);
  }
  // The conflict of `access` with any lane of the entry at `at` (all judge alike).
  static Conflict ConflictWith(const Entry& earlier, std::int32_t at, const SharedAccess& access) {
    return ConflictOf(Judge(earlier, access.write, access.stage, access.value), earlier.warp == access.warp, at);
  }
  // The conflict a verdict names, with the entry at `at`, of the later access's warp or not.
  static Conflict ConflictOf(const Verdict& verdict, bool same_warp, std::int32_t at) {
    Conflict conflict;
    conflict.kind = verdict.kind;
    conflict.severity = same_warp ? Severity::kWarning : Severity::kError;
    conflict.observed_in_program_order = verdict.observed_in_program_order;
    conflict.corrupted = !verdict.observed_in_program_order && !SameBits(verdict.value_seen, verdict.value_expected);
    conflict.earlier = at;
    return conflict;
  }
  // `earlier` against the later access, a write or read at `stage` of `value`.
  static Verdict Judge(const Entry& earlier, bool write, std::int32_t stage, float value) {
    if (earlier.write && !write) return JudgeRead(earlier, stage, value);
    const bool in_order = earlier.stage <= stage;
    if (earlier.write && write) return {HazardKind::kWaw, in_order, value, in_order ? value : earlier.value};
    const bool write_first_in_program = (earlier.write == in_order);
    const float written = earlier.write ? earlier.value : value;
    const float read = earlier.write ? value : earlier.value;
    if (write_first_in_program) return {HazardKind::kRaw, in_order, read, written};
    // The read should have seen the cell as it was before the write.
    return {HazardKind::kWar, in_order, read, in_order ? read : (earlier.write ? earlier.old_value : read)};
  }
  // Judge of a read at `stage` that saw `value`, against `write`, observed before it (most
  // hazards: a read of a cell whose store this generation has run).
  static Verdict JudgeRead(const Entry& write, std::int32_t stage, float value) {
    // In program order the write comes first (RAW: the read should have seen its value), or
    // the read (WAR: the read should have seen the cell as it was before the write).
    if (write.stage <= stage) return {HazardKind::kRaw, true, value, write.value};
    return {HazardKind::kWar, false, value, write.old_value};
  }

  int cells_per_block_ = 0;
  std::vector<CellShadow> cells_;
  std::vector<Arena> arenas_;  // per block: this generation's accesses
};

}  // namespace sim
