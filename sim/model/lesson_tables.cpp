#include "sim/model/lesson_tables.h"

#include <algorithm>

#include "sim/model/bank_conflicts.h"
#include "sim/model/kernel_source.h"

namespace sim {

LessonTables LessonTables::For(const KernelConfig& config, const Geometry& g, const Program& program) {
  LessonTables tables;
  tables.tk = g.tk;
  for (int op = 0; op < kOpCount; ++op) tables.lines[static_cast<std::size_t>(op)] = LineOf(config.kernel, static_cast<Op>(op));
  for (int w = 0; w < g.warps_per_block; ++w) {
    tables.warp_corners.push_back(program.CornersOf(w * kWarpSize, std::min((w + 1) * kWarpSize, g.block_threads) - 1));
  }
  // Shared words depend only on (tx, ty) and the loop index, never on the block or the
  // phase: every block's warp w has the same conflicts, computed once here.
  if (g.naive) return tables;
  tables.shared_costs.assign(static_cast<std::size_t>(g.warps_per_block) * 3 * g.tk, SharedCost{});
  // An access of N ways takes N − 1 extra wavefronts.
  const auto extra = [&config](int w, WarpAccess access, int j) { return std::max(0, BankWays(config, w, access, j) - 1); };
  const auto set = [&tables](int w, Op op, int j, int accesses, int conflicts) {
    SharedCost& cost = tables.shared_costs[tables.SharedCostSlot(w, {op, 0, j})];
    cost.conflicts = static_cast<std::uint8_t>(conflicts);
    cost.wavefronts = static_cast<std::uint8_t>(accesses + conflicts);
  };
  for (int w = 0; w < g.warps_per_block; ++w) {
    for (int j = 0; j < g.tk; ++j) {
      set(w, Op::kStoreAs, j, 1, extra(w, WarpAccess::kStoreAs, j));
      set(w, Op::kStoreBs, j, 1, extra(w, WarpAccess::kStoreBs, j));
      set(w, Op::kFma, j, 2, extra(w, WarpAccess::kReadAs, j) + extra(w, WarpAccess::kReadBs, j));
    }
  }
  return tables;
}

}  // namespace sim
