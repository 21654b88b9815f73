// shared_memory.h — the shared tiles As (TM×TK) and Bs (TK×TN) of every block.
//
// Every cell remembers its value, the thread that wrote it and the phase it was written
// in, so a view can show fresh cells (this phase's data) apart from stale ones (the
// previous phase's) and never-written cells, which hold a poison NaN shown as "?".
// Words are laid out as the kernel declares them: As first, then Bs, 4 bytes each; the
// bank of a word is its index modulo 32.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sim {

enum class TileId : std::uint8_t { kAs, kBs };

constexpr int kSharedBanks = 32;

// The value a never-written cell holds: a quiet NaN with a recognisable payload.
inline float SharedPoison() {
  const std::uint32_t bits = 0x7fc0dead;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

struct SharedCell {
  float value = SharedPoison();
  std::int32_t writer = -1;  // index_in_block of the writing thread; -1: never written
  std::int32_t phase = -1;   // phase it was written in

  bool written() const { return writer >= 0; }
  bool operator==(const SharedCell& o) const;
};

// A cell by its tile, row and column (a student's kernel: its shared array and flat index).
struct SharedPlace {
  TileId tile;
  int row;
  int col;
};

// A read-only view of one tile of one block.
struct SharedTile {
  const SharedCell* cells = nullptr;
  int rows = 0;
  int cols = 0;
  const SharedCell& at(int row, int col) const { return cells[row * cols + col]; }
};

class SharedMemory {
 public:
  SharedMemory() = default;
  SharedMemory(int blocks, int tm, int tn, int tk, bool bs_transposed = false);
  // A student's kernel: `words` per block, its __shared__ arrays one after another (the
  // layout of the tiles with no As and all Bs: Cell(block, word) is the word).
  static SharedMemory Words(int blocks, int words) { return SharedMemory(blocks, 0, words, 1); }

  int CellsPerBlock() const { return as_words_ + bs_words_; }
  // Word index inside the block's shared memory (As first, then Bs): bank = word % 32.
  int Word(TileId tile, int row, int col) const {
    return tile == TileId::kAs ? row * tk_ + col : as_words_ + row * tn_ + col;
  }
  // The word the kernel's address of that cell falls on, which decides its bank: the same as
  // Word() except for a transposed Bs, which keeps element (k, c) at Bs[c][k].
  int AddressWord(TileId tile, int row, int col) const {
    return tile == TileId::kBs && bs_transposed_ ? as_words_ + col * tk_ + row : Word(tile, row, col);
  }
  SharedCell& Cell(int block, int word) { return cells_[static_cast<std::size_t>(block) * CellsPerBlock() + word]; }
  const SharedCell& Cell(int block, int word) const {
    return cells_[static_cast<std::size_t>(block) * CellsPerBlock() + word];
  }
  SharedTile Tile(int block, TileId tile) const;
  std::size_t Bytes() const { return cells_.capacity() * sizeof(SharedCell); }
  bool operator==(const SharedMemory& o) const { return cells_ == o.cells_; }

 private:
  int tm_ = 0;
  int tn_ = 0;
  int tk_ = 0;
  int as_words_ = 0;
  int bs_words_ = 0;
  bool bs_transposed_ = false;
  std::vector<SharedCell> cells_;
};

}  // namespace sim
