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
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/bits.h"
#include "sim/model/instruction.h"
#include "sim/model/shared_memory.h"
#include "sim/model/warp.h"

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
  static constexpr std::int32_t kArenaChunkEntries = 128;
  bool operator==(const HazardDetector& o) const;

 private:
  // The lane of an access's thread in its warp (warps are cut from the block's threads in
  // order, 32 each).
  static std::uint32_t LaneBit(const SharedAccess& access) { return 1u << (access.thread - access.warp * kWarpSize); }
  // Accesses of one cell by lanes of one warp-instruction (bit l: thread warp · kWarpSize + l).
  struct Entry {
    // No member initializers: a new chunk is zeroed at once rather than built entry by entry
    // (its entries past the arena's size are never read; 128³ TILE 16 without the 1st barrier:
    // AppendToOwnChunk 12.9 → 5.9 M instructions, CPU unchanged within noise; 220d773), and an
    // entry is filled field by field where it lies (see Arena::Append).
    void Fill(std::int32_t next_entry, const SharedAccess& access, std::uint32_t access_lanes) {
      next = next_entry;
      stage = access.stage;
      warp_epoch = access.warp_epoch;
      lanes = access_lanes;
      warp = static_cast<std::int16_t>(access.warp);
      op = access.op;
      write = access.write;
      value = access.value;
      old_value = access.old_value;
    }
    std::int32_t next;
    std::int32_t stage;
    std::int32_t warp_epoch;
    std::uint32_t lanes;
    std::int16_t warp;
    Op op;
    bool write;
    float value;
    float old_value;
    bool operator==(const Entry& o) const;
  };
  // One block's accesses of its current generation, append-only until the next barrier, in
  // fixed chunks that states share: a checkpoint copies the pointers of the full chunks, which
  // never change again, and the partly filled last chunk itself. Without a __syncthreads() a
  // block's arena holds its whole run, and the realistic scheduler runs every block at once:
  // copied whole, each checkpoint took all of them again (256³ TILE 16 without the 1st
  // barrier: peak RSS 591 → 261 MiB, CPU 5.9 → 4.2 s; 5a99d8c). The chunk appends go into is
  // thus every state's own from the start, and an append asks nothing of it: asking its
  // shared_ptr's count cost a cache miss on most stores, the realistic scheduler coming back
  // to a block's arena long after (with entries filled where they lie, bare 256³ without the
  // 1st barrier: CheckStore 375 → 346 M instructions, its perf share 11.0 → 9.4%; 8d21e02).
  class Arena {
   public:
    static constexpr std::int32_t kChunkEntries = kArenaChunkEntries;
    Arena() = default;
    // A copy takes the chunks that hold entries, not those kept for later generations (Clear).
    Arena(const Arena& o) : chunks_(o.chunks_.begin(), o.chunks_.begin() + o.ChunksInUse()), size_(o.size_) { OwnLastChunk(); }
    Arena& operator=(const Arena& o) {
      if (this != &o) {
        chunks_.assign(o.chunks_.begin(), o.chunks_.begin() + o.ChunksInUse());
        size_ = o.size_;
        OwnLastChunk();
      }
      return *this;
    }
    Arena(Arena&&) = default;
    Arena& operator=(Arena&&) = default;
    const Entry& operator[](std::int32_t at) const { return (*chunks_[ChunkOf(at)])[SlotOf(at)]; }
    // An entry appended since this state was last copied or restored: its chunk is its own.
    Entry& AppendedSince(std::int32_t at) { return (*chunks_[ChunkOf(at)])[SlotOf(at)]; }
    // Appends an entry for the caller to fill in where it lies: one built aside and copied in
    // stalls on its own narrow stores. Inline but for a chunk's first: most appends.
    struct Appended {
      Entry& entry;
      std::int32_t at;
    };
    Appended Append() {
      if (SlotOf(size_) == 0) StartChunk();
      Entry& entry = (*chunks_[ChunkOf(size_)])[SlotOf(size_)];
      return {entry, size_++};
    }
    // Starts fetching the chunk list, which every entry's address goes through.
    void PrefetchChunks() const {
      if (!chunks_.empty()) __builtin_prefetch(chunks_.data());
    }
    void Clear();
    void Release() { std::vector<std::shared_ptr<Chunk>>().swap(chunks_), size_ = 0; }
    std::int32_t size() const { return size_; }
    // This state's share of the chunks: a chunk held by n states counts 1/n in each, so the
    // states of a history add up to what they hold together.
    std::size_t Bytes() const;
    bool operator==(const Arena& o) const;

   private:
    using Chunk = std::array<Entry, kChunkEntries>;
    // Indices are never negative: unsigned arithmetic makes these a shift and a mask.
    static std::size_t ChunkOf(std::int32_t at) { return static_cast<std::uint32_t>(at) / kChunkEntries; }
    static std::size_t SlotOf(std::int32_t at) { return static_cast<std::uint32_t>(at) % kChunkEntries; }
    std::ptrdiff_t ChunksInUse() const { return (size_ + kChunkEntries - 1) / kChunkEntries; }
    // A copy's partly filled last chunk: its own copy of it.
    void OwnLastChunk() {
      if (SlotOf(size_) != 0) chunks_.back() = std::make_shared<Chunk>(*chunks_.back());
    }
    // Makes room for a chunk's first entry: a new chunk, unless this state kept one from an
    // earlier generation.
    void StartChunk();
    std::vector<std::shared_ptr<Chunk>> chunks_;
    std::int32_t size_ = 0;
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
