// warp_sectors.h — the distinct 32-byte sectors a warp-instruction's lanes touch in one
// matrix, and the L2 halves of their lines: what the counters call global sectors and what the
// realistic scheduler's memory latency depends on.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "sim/model/global_memory.h"
#include "sim/model/scheduler.h"
#include "sim/model/warp.h"

namespace sim {

constexpr int kBytesPerFloat = 4;
constexpr int kSectorBytes = 32;

struct WarpSectors {
  std::array<std::int64_t, kWarpSize> seen;
  int distinct = 0;
  std::int64_t highest = std::numeric_limits<std::int64_t>::min();  // of those seen
  std::uint8_t l2_halves = 0;  // bit h: a line in half h (L2HalfOf)

  void Add(MatrixId matrix, long long element) { AddSector(matrix, element * kBytesPerFloat / kSectorBytes); }
  // The sectors of the elements first..last, each touched (a run of lanes, one element apart or none).
  void AddRun(MatrixId matrix, long long first, long long last) {
    for (std::int64_t sector = first * kBytesPerFloat / kSectorBytes; sector <= last * kBytesPerFloat / kSectorBytes;
         ++sector) {
      AddSector(matrix, sector);
    }
  }
  void AddSector(MatrixId matrix, std::int64_t sector) {
    // Neighbouring lanes mostly share a sector, lanes mostly go up through memory, and a warp
    // touches few: the last one, then the highest (1,235 → 1,229 M instructions at 256³ TILE
    // 16, d7b53d6), then a linear look-up (never measured against sorting).
    if (distinct > 0 && seen[static_cast<std::size_t>(distinct - 1)] == sector) return;
    if (sector <= highest && std::find(seen.begin(), seen.begin() + distinct, sector) != seen.begin() + distinct) return;
    seen[static_cast<std::size_t>(distinct++)] = sector;
    highest = std::max(highest, sector);
    l2_halves |= static_cast<std::uint8_t>(1u << L2HalfOf(static_cast<int>(matrix), sector / kSectorsPerL2Line));
  }
};

}  // namespace sim
