// hazard_warp_reads.h — the hazard detector's path for an inner-product step of a lesson: one
// warp-instruction's reads of its block's cells, what they share looked up once.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/model/bits.h"
#include "sim/model/hazard_detector.h"

namespace sim {

// One warp-instruction's reads of its block's cells (an inner-product step reads two a lane),
// what they share looked up once. Each read is checked like OnAccess, then remembered: in the
// entry of an earlier lane of the warp-instruction that read the cell, if there is one.
class HazardDetector::WarpReads {
 public:
  // `shared`: the block, warp, its __syncwarp() generation, the stage and op of the reads.
  // `remembered`: whether a write may yet come in this block generation, the only access
  // that checks reads; where none can, the reads are checked but not kept.
  WarpReads(HazardDetector& detector, const SharedAccess& shared, int block_epoch, bool remembered)
      : arena_(detector.arenas_[static_cast<std::size_t>(shared.block)]),
        cells_(detector.cells_.data() + static_cast<std::size_t>(shared.block) * detector.cells_per_block_),
        access_(shared),
        read_(ReadEntry(shared)),
        block_epoch_(block_epoch),
        since_(arena_.size()),
        remembered_(remembered) {
    arena_.PrefetchChunks();
  }

  // `thread` read `value` from `word`; calls report(const Conflict&) for each hazard.
  template <typename Report>
  void Read(int thread, int word, float value, Report&& report) {
    access_.thread = thread;
    access_.word = word;
    access_.value = access_.old_value = value;
    const CellShadow& cell = Shadow(word);
    for (std::int32_t at = cell.writes; at >= 0;) {
      const Entry& earlier = arena_[at];
      Check(earlier, at, access_, report);
      at = earlier.next;
    }
    if (remembered_) RememberLanes(word, value, LaneBit(access_));
  }
  // Where only the count matters (past the hazard log's limit). The lanes that read a cell in
  // one warp-instruction find the same writes, so a cell holding at most one write this
  // generation (a phase's store) is judged once for all of them. Gather notes the reads of
  // `word` (of `table`: 0 for As, 1 for Bs) by `lane`; Judge judges and remembers each cell
  // gathered; and the lanes Listed names, whose cell has more writes, then go through Read.
  void Gather(int table, int word, int lane) {
    const auto t = static_cast<std::size_t>(table);
    // A row's lanes read one As cell one after another: the newest cell first.
    for (std::size_t i = gathered_count_[t]; i-- > 0;) {
      if (gathered_[t][i].word == word) {
        gathered_[t][i].readers |= 1u << lane;
        ++gathered_[t][i].reader_count;
        return;
      }
    }
    GatherDistinct(table, word, 1u << lane, 1);
  }
  // Gather, for `lanes` (`lane_count` of them) that read a cell no read of `table` gathered
  // before names (a whole warp's cells, which the caller knows in closed form).
  void GatherDistinct(int table, int word, std::uint32_t lanes, int lane_count) {
    const auto t = static_cast<std::size_t>(table);
    // The realistic scheduler runs every block at once, so a step's shadows are rarely in
    // cache: each is asked for before Judge waits for any (with PrefetchChunks, 256³ TILE 16
    // without the 1st barrier: best CPU 0.584 → 0.539 s, though callgrind counts 4,316 → 4,563 M
    // instructions; b42349f).
    __builtin_prefetch(&cells_[word]);
    Gathered& gathered = gathered_[t][gathered_count_[t]++];  // Judge finds its shadow and write
    gathered.word = word;
    gathered.readers = lanes;
    gathered.reader_count = lane_count;
  }
  // The hazards the reads of one cell found against its write: each of `others` found `each`,
  // each of `own` each - 1 (a lane of the write's own warp does not conflict with its own
  // store), `total` in all.
  struct CellHazards {
    std::uint32_t others;
    std::uint32_t own;
    std::uint32_t each;
    std::uint32_t total;
  };
  // Judges each cell gathered, which holds cells[word].value, against its one write, and
  // reports count(conflict, table, const CellHazards&) for each whose reads found hazards.
  // Then remembers the cell's reads as one entry. The realistic scheduler runs every block at
  // once, so a step's cells and their writes are rarely in cache: each is asked for before any
  // is waited for, not a cell's misses one after another (perf cpu-clock samples of
  // CheckTileReads, 256³ TILE 16 without the 1st barrier: 216–280 → 178–211 ms; 8573dc0).
  template <typename Count>
  void Judge(const SharedCell* cells, Count&& count) {
    for (std::size_t t = 0; t < gathered_.size(); ++t) {
      for (std::size_t i = 0; i < gathered_count_[t]; ++i) {
        Gathered& gathered = gathered_[t][i];
        gathered.shadow = &Shadow(gathered.word);
        gathered.write = gathered.shadow->writes >= 0 ? &arena_[gathered.shadow->writes] : nullptr;
        __builtin_prefetch(gathered.write);
        __builtin_prefetch(&cells[gathered.word]);
      }
    }
    for (std::size_t t = 0; t < gathered_.size(); ++t) {
      for (std::size_t i = 0; i < gathered_count_[t]; ++i) {
        const Gathered& gathered = gathered_[t][i];
        CellShadow& cell = *gathered.shadow;
        const float value = cells[gathered.word].value;
        if (gathered.write != nullptr) {
          if (gathered.write->next >= 0) {
            listed_[t] |= gathered.readers;  // Read checks them against each write, and keeps them
            continue;
          }
          JudgeCell(*gathered.write, cell.writes, value, static_cast<int>(t), gathered, count);
        }
        if (remembered_) cell.reads = Remember(cell.reads, gathered.readers, value);
      }
    }
  }
  bool AnyListed() const { return (listed_[0] | listed_[1]) != 0; }
  bool Listed(int table, int lane) const { return (listed_[static_cast<std::size_t>(table)] >> lane & 1) != 0; }
  // The last read, as Describe wants it.
  const SharedAccess& access() const { return access_; }

 private:
  // Reads of one cell by `readers` (bit l: lane l) of the warp-instruction; Judge looks up the
  // rest before it judges any (an entry stays where it lies as others are appended).
  struct Gathered {
    std::int32_t word;
    std::uint32_t readers;
    int reader_count;
    CellShadow* shadow;
    const Entry* write;  // the newest write of this generation (null: none)
  };
  // Judges the reads of a cell that saw `value` against its one write, the entry at `at`.
  template <typename Count>
  void JudgeCell(const Entry& write, std::int32_t at, float value, int table, const Gathered& reads, Count& count) {
    const bool same_warp = write.warp == access_.warp;
    // A __syncwarp() passed by both lanes of one warp orders them; it orders nothing across warps.
    if (same_warp && write.warp_epoch != access_.warp_epoch) return;
    CellHazards found;
    found.own = same_warp ? reads.readers & write.lanes : 0;
    found.others = reads.readers & ~found.own;
    // A write's entry is one lane's store (OnAccess): its one bit needs no count, and its own
    // lane, if it read the cell, is one.
    if ((write.lanes & (write.lanes - 1)) == 0) {
      found.each = 1;
      found.total = static_cast<std::uint32_t>(reads.reader_count) - (found.own != 0 ? 1 : 0);
    } else {
      found.each = static_cast<std::uint32_t>(CountBits(write.lanes));
      found.total = found.each * static_cast<std::uint32_t>(reads.reader_count) - static_cast<std::uint32_t>(CountBits(found.own));
    }
    if (found.total == 0) return;
    Conflict conflict = ConflictOf(JudgeRead(write, access_.stage, value), same_warp, at);
    conflict.earlier_lanes = write.lanes;
    count(conflict, table, found);
  }
  // Remembers the reads of `word` by `lanes` of the warp, which saw `value` (lane by lane).
  void RememberLanes(int word, float value, std::uint32_t lanes) {
    CellShadow& cell = Shadow(word);
    if (cell.reads >= since_) {
      // Appended since the warp-instruction began, so in a chunk no other state holds.
      arena_.AppendedSince(cell.reads).lanes |= lanes;
    } else {
      cell.reads = Remember(cell.reads, lanes, value);
    }
  }
  // What the entries of the reads `shared` describes share.
  static Entry ReadEntry(const SharedAccess& shared) {
    Entry entry;
    entry.Fill(-1, shared, 0);
    return entry;
  }
  // Appends the entry of the reads by `lanes` that saw `value`, ahead of `next` in their
  // cell's list; its index.
  std::int32_t Remember(std::int32_t next, std::uint32_t lanes, float value) {
    const Arena::Appended appended = arena_.Append();
    Entry& entry = appended.entry;
    entry = read_;
    entry.next = next;
    entry.lanes = lanes;
    entry.value = entry.old_value = value;
    return appended.at;
  }
  // The cell's shadow, emptied if it is of an earlier generation.
  CellShadow& Shadow(int word) {
    CellShadow& cell = cells_[word];
    if (cell.epoch != block_epoch_) cell = CellShadow{block_epoch_, -1, -1};
    return cell;
  }

  Arena& arena_;
  CellShadow* cells_;
  SharedAccess access_;
  const Entry read_;  // what the entries of the reads share (next, lanes and value are each one's)
  int block_epoch_;
  std::int32_t since_;
  bool remembered_;
  // Gather's cells of this warp-instruction, As's and Bs's, in the order of their lowest lanes
  // (each lane reads one cell of each tile); bit l of listed_[t] set where lane l's read of
  // tile t must go through Read.
  std::array<std::array<Gathered, kWarpSize>, 2> gathered_;
  std::array<std::size_t, 2> gathered_count_{};
  std::array<std::uint32_t, 2> listed_{};
};

}  // namespace sim
