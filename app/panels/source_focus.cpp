#include "app/panels/source_focus.h"

namespace gui {

// Global indices of the threads the view follows.
std::vector<int> FocusThreads(const sim::Snapshot& snapshot, const sim::Thread* picked) {
  if (picked != nullptr) return {picked->block * snapshot.geometry().block_threads + picked->index_in_block};
  const sim::Unit unit = snapshot.last_unit();
  if (!unit.is_warp) return {unit.index};
  const sim::Warp& warp = snapshot.warps()[static_cast<std::size_t>(unit.index)];
  std::vector<int> lanes(static_cast<std::size_t>(warp.lane_count));
  for (int lane = 0; lane < warp.lane_count; ++lane) lanes[static_cast<std::size_t>(lane)] = warp.first_thread + lane;
  return lanes;
}

std::string FocusName(const sim::Snapshot& snapshot, const std::vector<int>& threads) {
  const sim::Thread& first = snapshot.threads()[static_cast<std::size_t>(threads.front())];
  const sim::Block& block = snapshot.blocks()[static_cast<std::size_t>(first.block)];
  const std::string where = " of block " + sim::Coordinates(block.bx, block.by);
  if (threads.size() == 1) {
    return "thread " + sim::Coordinates(first.tx, first.ty) + where + " (warp " +
           std::to_string(first.warp - block.first_warp) + ")";
  }
  return "warp " + std::to_string(first.warp - block.first_warp) + where + " (" + std::to_string(threads.size()) +
         " lanes)";
}

}  // namespace gui
