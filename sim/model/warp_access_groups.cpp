#include "sim/model/warp_access_groups.h"

#include <algorithm>

#include "sim/model/shared_memory.h"

namespace sim {

int SharedWavefronts(const std::array<std::int64_t, kWarpSize>& words, std::uint32_t lanes) {
  if (lanes == 0) return 0;
  // Each bank's distinct words so far: a warp mostly touches one a bank, or broadcasts one word
  // to lanes in a row (a tiled kernel's As[ty][k]), so the newest lane's word is checked first.
  std::array<std::uint8_t, kSharedBanks> counts{};
  std::array<std::array<std::int64_t, kWarpSize>, kSharedBanks> distinct;
  int ways = 1;
  std::int64_t previous = -1;
  for (std::uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
    const std::int64_t word = words[static_cast<std::size_t>(__builtin_ctz(rest))];
    if (word == previous) continue;
    previous = word;
    const auto bank = static_cast<std::size_t>(word % kSharedBanks);
    std::array<std::int64_t, kWarpSize>& seen = distinct[bank];
    const int count = counts[bank];
    if (std::find(seen.begin(), seen.begin() + count, word) != seen.begin() + count) continue;
    seen[static_cast<std::size_t>(count)] = word;
    counts[bank] = static_cast<std::uint8_t>(count + 1);
    ways = std::max(ways, count + 1);
  }
  return ways;
}

bool WarpAccessGroup::operator==(const WarpAccessGroup& o) const {
  return order == o.order && joined == o.joined && touched == o.touched && places == o.places;
}

WarpAccessGroup& WarpAccessGroups::At(std::int64_t order) {
  // Lanes run their groups in order, so the one asked for is mostly the newest or near it.
  auto it = std::lower_bound(groups_.begin(), groups_.end(), order,
                             [](const WarpAccessGroup& g, std::int64_t o) { return g.order < o; });
  if (it != groups_.end() && it->order == order) return *it;
  it = groups_.insert(it, WarpAccessGroup{});
  it->order = order;
  return *it;
}

void WarpAccessGroups::Close(std::int64_t order) {
  groups_.erase(std::remove_if(groups_.begin(), groups_.end(), [order](const WarpAccessGroup& g) { return g.order == order; }),
                groups_.end());
}

void WarpAccessGroups::Prune(std::int64_t oldest_needed) {
  groups_.erase(groups_.begin(), std::lower_bound(groups_.begin(), groups_.end(), oldest_needed,
                                                  [](const WarpAccessGroup& g, std::int64_t o) { return g.order < o; }));
  prune_at_ = std::max(kMinPruneAt, 2 * groups_.size());
}

}  // namespace sim
