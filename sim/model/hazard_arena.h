// hazard_arena.h — where the hazard detector keeps a block generation's shared accesses: an
// entry per access (the lanes of a warp-instruction that read one cell share one), appended to
// the block's arena in chunks that the states of a step-back history share.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/hazard.h"

namespace sim {

// Accesses of one cell by lanes of one warp-instruction (bit l: thread warp · kWarpSize + l).
struct HazardEntry {
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
  bool operator==(const HazardEntry& o) const;
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
class HazardArena {
 public:
  using Entry = HazardEntry;
  static constexpr std::int32_t kChunkEntries = 128;
  HazardArena() = default;
  // A copy takes the chunks that hold entries, not those kept for later generations (Clear).
  HazardArena(const HazardArena& o) : chunks_(o.chunks_.begin(), o.chunks_.begin() + o.ChunksInUse()), size_(o.size_) { OwnLastChunk(); }
  HazardArena& operator=(const HazardArena& o) {
    if (this != &o) {
      chunks_.assign(o.chunks_.begin(), o.chunks_.begin() + o.ChunksInUse());
      size_ = o.size_;
      OwnLastChunk();
    }
    return *this;
  }
  HazardArena(HazardArena&&) = default;
  HazardArena& operator=(HazardArena&&) = default;
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
  bool operator==(const HazardArena& o) const;

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

}  // namespace sim
