#include "sim/model/bank_conflicts.h"

#include <algorithm>
#include <array>

#include "sim/model/program.h"
#include "sim/model/shared_memory.h"

namespace sim {
namespace {

constexpr int kWarpLanes = 32;

}  // namespace

std::vector<int> WarpWords(const KernelConfig& config, int warp, WarpAccess access, int j) {
  const Geometry g = MakeGeometry(config);
  if (g.naive) return {};
  const Program program(config, g);
  const SharedMemory shared(0, g.tm, g.tn, g.tk, config.bs_layout == SharedLayout::kTransposed);
  std::vector<int> words;
  const int first = warp * kWarpLanes;
  const int last = std::min(first + kWarpLanes, g.block_threads);
  for (int index = first; index < last; ++index) {
    Thread thread;
    thread.index_in_block = static_cast<std::int16_t>(index);
    thread.tx = static_cast<std::int16_t>(index % g.tn);
    thread.ty = static_cast<std::int16_t>(index / g.tn);
    switch (access) {
      case WarpAccess::kStoreAs:
        if (program.Contains(thread, {Op::kStoreAs, 0, j})) {
          words.push_back(shared.AddressWord(TileId::kAs, thread.ty, program.AColumn(thread, j)));
        }
        break;
      case WarpAccess::kStoreBs:
        if (program.Contains(thread, {Op::kStoreBs, 0, j})) {
          words.push_back(shared.AddressWord(TileId::kBs, program.BRow(thread, j), thread.tx));
        }
        break;
      case WarpAccess::kReadAs:
        words.push_back(shared.AddressWord(TileId::kAs, thread.ty, j));
        break;
      case WarpAccess::kReadBs:
        words.push_back(shared.AddressWord(TileId::kBs, j, thread.tx));
        break;
    }
  }
  return words;
}

int BankWays(std::vector<int> words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::array<int, kSharedBanks> per_bank{};
  int ways = 0;
  for (int word : words) ways = std::max(ways, ++per_bank[static_cast<std::size_t>(word % kSharedBanks)]);
  return ways;
}

int BankWays(const KernelConfig& config, int warp, WarpAccess access, int j) {
  return BankWays(WarpWords(config, warp, access, j));
}

}  // namespace sim
