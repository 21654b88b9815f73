// Bank ways of the tiled kernel's shared accesses (lesson 6): As[ty][k] is a broadcast,
// Bs[k][tx] is conflict-free, and the transposed Bs (kernels/02_tiled.cu, kBsTransposed)
// conflicts T²/32 ways. Expected ways come from the formulas in the comments, never from
// the model; the model's whole-run count is checked against the same formula.
#include <gtest/gtest.h>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/model/bank_conflicts.h"
#include "sim/model/simulation.h"

namespace {

using sim::WarpAccess;

sim::LessonConfig Square(int tile, sim::SharedLayout layout, int size) {
  sim::LessonConfig config;
  config.m = config.n = config.k = size;
  config.tile = tile;
  config.bs_layout = layout;
  return config;
}

constexpr int kTiles[] = {2, 4, 8, 16, 32};

// A warp holds 32/T whole rows of the T×T block (T ≤ 32): every lane of a row reads the same
// As[ty][k], and the rows' words ty·T + k sit T banks apart, so each bank sees one word.
TEST(BankConflicts, AsTyKIsABroadcast) {
  for (int tile : kTiles) {
    const sim::LessonConfig config = Square(tile, sim::SharedLayout::kRowMajor, tile);
    const int warps = (tile * tile + 31) / 32;
    for (int warp = 0; warp < warps; ++warp) {
      for (int k = 0; k < tile; ++k) EXPECT_EQ(sim::BankWays(config, warp, WarpAccess::kReadAs, k), 1) << tile;
    }
  }
}

// Bs[k][tx]: T consecutive words k·T + tx, one per bank; the warp's other rows read the same ones.
TEST(BankConflicts, BsKTxIsConflictFree) {
  for (int tile : kTiles) {
    const sim::LessonConfig config = Square(tile, sim::SharedLayout::kRowMajor, tile);
    for (int k = 0; k < tile; ++k) {
      EXPECT_EQ(sim::BankWays(config, 0, WarpAccess::kReadBs, k), 1) << tile;
      EXPECT_EQ(sim::BankWays(config, 0, WarpAccess::kStoreBs, 0), 1) << tile;
    }
  }
}

// Transposed, lane tx reads Bs[tx][k], word tx·T + k: T distinct words T apart. 32 banks
// hold 32/T of them each round, so T / (32/T) = T²/32 land in one bank (at least 1).
int TransposedWays(int tile) { return std::max(1, tile * tile / 32); }

TEST(BankConflicts, TransposedBsConflictsTSquaredOver32Ways) {
  for (int tile : kTiles) {
    const sim::LessonConfig config = Square(tile, sim::SharedLayout::kTransposed, tile);
    for (int k = 0; k < tile; ++k) {
      EXPECT_EQ(sim::BankWays(config, 0, WarpAccess::kReadBs, k), TransposedWays(tile)) << "TILE " << tile;
    }
    // The store Bs[tx][ty] = b: the warp's 32/T rows ty each add T words tx·T + ty, in banks
    // of their own, so the ways are the same T²/32.
    EXPECT_EQ(sim::BankWays(config, 0, WarpAccess::kStoreBs, 0), TransposedWays(tile)) << "TILE " << tile;
    // As is untouched by the layout: still a broadcast.
    EXPECT_EQ(sim::BankWays(config, 0, WarpAccess::kReadAs, 0), 1);
  }
  // The headline: TILE 32's warp is one row of 32 lanes, all reading bank k.
  EXPECT_EQ(sim::BankWays(Square(32, sim::SharedLayout::kTransposed, 32), 0, WarpAccess::kReadBs, 5), 32);
}

// The model charges ways − 1 extra wavefronts per warp-instruction. Per warp and phase the
// transposed kernel makes one store of Bs and T reads of it, each TransposedWays(T) ways:
// (T + 1)·(ways − 1) extra wavefronts; times warps per block, blocks and phases.
TEST(BankConflicts, TheModelCountsTheFormulaOverAWholeRun) {
  for (int tile : {8, 16, 32}) {
    const int size = 2 * tile;  // 2×2 blocks, 2 phases
    sim::Simulation transposed(Square(tile, sim::SharedLayout::kTransposed, size));
    transposed.RunToEnd();
    const std::uint64_t warps = (tile * tile + 31) / 32;
    const std::uint64_t per_warp_phase = std::uint64_t(tile + 1) * (TransposedWays(tile) - 1);
    EXPECT_EQ(transposed.counters().bank_conflicts, per_warp_phase * warps * 4 * 2) << "TILE " << tile;
    sim::Simulation row_major(Square(tile, sim::SharedLayout::kRowMajor, size));
    row_major.RunToEnd();
    EXPECT_EQ(row_major.counters().bank_conflicts, 0u) << "TILE " << tile;
    // Only addresses change: C is the same, bit for bit.
    EXPECT_EQ(transposed.c(), row_major.c());
  }
}

TEST(BankConflicts, OnlyTheSquareTiledKernelHasTheTransposedLayout) {
  sim::LessonConfig rect = Square(4, sim::SharedLayout::kTransposed, 8);
  rect.kernel = sim::KernelKind::kTiledRect;
  rect.rect = {4, 2, 4};
  const auto error = sim::Validate(rect);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field, "bs_layout");
}

}  // namespace
