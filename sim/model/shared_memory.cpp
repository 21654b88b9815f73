#include "sim/model/shared_memory.h"

namespace sim {

SharedMemory::SharedMemory(int blocks, int tm, int tn, int tk, bool bs_transposed)
    : tm_(tm),
      tn_(tn),
      tk_(tk),
      as_words_(tm * tk),
      bs_words_(tk * tn),
      bs_transposed_(bs_transposed),
      cells_(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(tm * tk + tk * tn)) {}

SharedTile SharedMemory::Tile(int block, TileId tile) const {
  const SharedCell* base = &cells_[static_cast<std::size_t>(block) * CellsPerBlock()];
  if (tile == TileId::kAs) return SharedTile{base, tm_, tk_};
  return SharedTile{base + as_words_, tk_, tn_};
}

}  // namespace sim
