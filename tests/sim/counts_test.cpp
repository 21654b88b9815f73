// Every count the model makes equals its closed form, across shapes: square and
// rectangular tiles, the naive kernel, 1×1×1, primes, and K much larger than M and N.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/formulas.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::LessonConfig;
using sim_test::Naive;
using sim_test::Rect;
using sim_test::Tiled;

std::vector<LessonConfig> Shapes() {
  std::vector<LessonConfig> shapes;
  for (auto [m, n, k] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 1}, {4, 4, 4}, {6, 5, 7}, {7, 11, 13}, {3, 2, 97}, {17, 1, 5}, {8, 8, 8}, {1, 9, 2}}) {
    for (int tile : {1, 2, 3, 4, 8}) shapes.push_back(Tiled(m, n, k, tile));
    shapes.push_back(Rect(m, n, k, 4, 2, 4));
    shapes.push_back(Rect(m, n, k, 2, 4, 8));
    shapes.push_back(Rect(m, n, k, 3, 5, 2));
    shapes.push_back(Naive(m, n, k, 4));
  }
  return shapes;
}

std::string Describe(const LessonConfig& c) {
  return std::string(sim::Name(c.kernel)) + " M=" + std::to_string(c.m) + " N=" + std::to_string(c.n) +
         " K=" + std::to_string(c.k) + " tiles " + std::to_string(c.Tiles().tm) + "x" + std::to_string(c.Tiles().tn) +
         "x" + std::to_string(c.Tiles().tk);
}

void ExpectCountsMatch(const LessonConfig& config) {
  SCOPED_TRACE(Describe(config));
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  ASSERT_TRUE(simulation.Finished());
  const sim::Counters& counted = simulation.counters();
  const sim::ClosedForms expected = sim::Expected(config);
  EXPECT_EQ(counted.global_reads_a, expected.global_reads_a);
  EXPECT_EQ(counted.global_reads_b, expected.global_reads_b);
  EXPECT_EQ(counted.global_writes, expected.global_writes);
  EXPECT_EQ(counted.shared_reads, expected.shared_reads);
  EXPECT_EQ(counted.shared_writes, expected.shared_writes);
  EXPECT_EQ(counted.barrier_arrivals, expected.barrier_arrivals);
  EXPECT_EQ(counted.fma_executed, expected.fma);
  EXPECT_EQ(counted.thread_instructions, expected.thread_instructions);
  EXPECT_EQ(counted.hazards, 0u);
  EXPECT_EQ(counted.out_of_bounds, 0u);
  for (const sim::Thread& thread : simulation.snapshot().threads()) {
    const sim::Block& block = simulation.snapshot().blocks()[static_cast<std::size_t>(thread.block)];
    ASSERT_EQ(thread.instructions, sim::StepsPerThread(config, block.bx, block.by, thread.tx, thread.ty));
  }
}

TEST(Counts, EqualClosedFormsAcrossShapes) {
  for (const LessonConfig& config : Shapes()) ExpectCountsMatch(config);
}

TEST(Counts, EqualClosedFormsForEveryScheduler) {
  for (auto scheduler : {sim::SchedulerKind::kThreadOrder, sim::SchedulerKind::kRandom,
                         sim::SchedulerKind::kRaceExposing}) {
    for (LessonConfig config : {Tiled(6, 5, 7, 4), Rect(7, 11, 13, 4, 2, 4), Naive(5, 3, 4, 2)}) {
      config.scheduler = scheduler;
      ExpectCountsMatch(config);
    }
  }
}

TEST(Counts, DefaultLessonReadsHalfOfNaive) {
  const LessonConfig config;  // M = N = K = 4, TILE = 2
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  EXPECT_EQ(simulation.counters().GlobalReads(), 64u);
  EXPECT_EQ(sim::Expected(config).naive_global_reads, 128u);
  EXPECT_DOUBLE_EQ(sim::Expected(config).Saving(), 2.0);
  sim::Simulation naive(Naive(4, 4, 4, 2));
  naive.RunToEnd();
  EXPECT_EQ(naive.counters().GlobalReads(), 128u);
}

TEST(Counts, SquareStepsPerThreadClosedForm) {
  for (int tile : {1, 2, 4, 16}) {
    for (auto b1 : {sim::SyncKind::kSyncthreads, sim::SyncKind::kNone}) {
      LessonConfig config = Tiled(16, 16, 40, tile);
      config.barrier1 = b1;
      const int phases = (40 + tile - 1) / tile;
      const int barriers = b1 == sim::SyncKind::kNone ? 1 : 2;
      EXPECT_EQ(sim::StepsPerThread(config, 0, 0, 0, 0), phases * (4 + tile + barriers) + 1);
    }
  }
}

TEST(Counts, FloorTileCountSkipsTheTail) {
  LessonConfig config = Tiled(5, 5, 7, 2);
  config.tile_count = sim::TileCount::kFloor;
  ExpectCountsMatch(config);
  EXPECT_EQ(sim::Expected(config).phases, 3);
}

TEST(Counts, UnguardedCountsEveryLoad) {
  LessonConfig config = Tiled(5, 6, 7, 4);
  config.guard = false;
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  const sim::ClosedForms expected = sim::Expected(config);
  EXPECT_EQ(simulation.counters().global_reads_a, expected.global_reads_a);
  EXPECT_EQ(simulation.counters().global_reads_b, expected.global_reads_b);
  EXPECT_GT(simulation.counters().out_of_bounds, 0u);
  EXPECT_FALSE(simulation.out_of_bounds().empty());
}

// Sectors: with T ≥ 8 and sizes that keep rows 32-byte aligned, a warp covers 32/T rows of
// T floats: 32/T · T/8 = 4 sectors per load or store instruction.
TEST(Counts, SectorsPerWarpInstructionAligned) {
  for (int tile : {8, 16, 32}) {
    const LessonConfig config = Tiled(64, 64, 64, tile);
    sim::Simulation simulation(config);
    simulation.RunToEnd();
    const std::uint64_t warps = std::uint64_t(simulation.geometry().warps());
    const std::uint64_t phases = std::uint64_t(simulation.geometry().phases);
    EXPECT_EQ(simulation.counters().global_sectors, warps * (2 * phases + 1) * 4) << "tile " << tile;
  }
}

// TILE 2 on 4×4: a warp's 2×2 patch spans two 16-byte rows of one 32-byte sector.
TEST(Counts, SectorsDefaultLesson) {
  sim::Simulation simulation(LessonConfig{});
  simulation.RunToEnd();
  EXPECT_EQ(simulation.counters().global_sectors, 4u * (2 * 2 + 1));
}

// The hardware's view of memory, counted again straight from the CUDA source (01_naive.cu,
// 02_tiled.cu, 03_tiled_rect.cu) and not through the model. A warp-instruction is the lanes
// of one warp that run the same instruction instance (lanes are threads by linear id
// ty·blockDim.x + tx, 32 to a warp; since Volta, lanes with fewer loop iterations simply drop
// out). A global access costs one transaction per distinct 32-byte sector its lanes touch; a
// shared access needs one extra wavefront for each further distinct word that one of the 32
// four-byte banks must serve (equal words are broadcast).
struct MemoryTraffic {
  std::uint64_t sectors = 0;
  std::uint64_t bank_conflicts = 0;
};

constexpr std::int64_t kFloatsPerSector = 32 / 4;
constexpr std::int64_t kBanks = 32;

std::uint64_t Sectors(const std::vector<std::int64_t>& elements) {
  std::set<std::int64_t> sectors;
  for (std::int64_t e : elements) sectors.insert(e / kFloatsPerSector);
  return sectors.size();
}

std::uint64_t ExtraWavefronts(const std::vector<std::int64_t>& words) {
  const std::set<std::int64_t> distinct(words.begin(), words.end());
  std::array<std::uint64_t, kBanks> per_bank{};
  for (std::int64_t w : distinct) ++per_bank[static_cast<std::size_t>(w % kBanks)];
  const std::uint64_t worst = *std::max_element(per_bank.begin(), per_bank.end());
  return worst == 0 ? 0 : worst - 1;
}

struct Lane {
  int tx, ty;
  std::int64_t row, col;
};

// One warp's share of a block of the naive kernel: threads outside C return at once.
void CountNaiveWarp(const LessonConfig& c, const std::vector<Lane>& lanes, MemoryTraffic& traffic) {
  std::vector<Lane> live;
  for (const Lane& l : lanes) {
    if (l.row < c.m && l.col < c.n) live.push_back(l);
  }
  if (live.empty()) return;
  for (std::int64_t k = 0; k < c.k; ++k) {
    std::vector<std::int64_t> a, b;
    for (const Lane& l : live) {
      a.push_back(l.row * c.k + k);
      b.push_back(k * c.n + l.col);
    }
    traffic.sectors += Sectors(a) + Sectors(b);
  }
  std::vector<std::int64_t> stores;
  for (const Lane& l : live) stores.push_back(l.row * c.n + l.col);
  traffic.sectors += Sectors(stores);
}

// One warp's share of a block of the guarded tiled kernels (square: TM = TN = TK = TILE).
void CountTiledWarp(const LessonConfig& c, const std::vector<Lane>& lanes, MemoryTraffic& traffic) {
  const sim::TileShape s = c.Tiles();
  const int phases = (c.k + s.tk - 1) / s.tk;
  for (int t = 0; t < phases; ++t) {
    // for (i = tx; i < TK; i += TN): iteration j runs on the lanes with tx + j·TN < TK.
    for (int j = 0; j * s.tn < s.tk; ++j) {
      std::vector<std::int64_t> loads, words;
      for (const Lane& l : lanes) {
        const int i = l.tx + j * s.tn;
        if (i >= s.tk) continue;
        const std::int64_t a_col = std::int64_t(t) * s.tk + i;
        if (l.row < c.m && a_col < c.k) loads.push_back(l.row * c.k + a_col);
        words.push_back(std::int64_t(l.ty) * s.tk + i);  // As[ty][i]
      }
      traffic.sectors += Sectors(loads);
      traffic.bank_conflicts += ExtraWavefronts(words);
    }
    for (int j = 0; j * s.tm < s.tk; ++j) {
      std::vector<std::int64_t> loads, words;
      for (const Lane& l : lanes) {
        const int i = l.ty + j * s.tm;
        if (i >= s.tk) continue;
        const std::int64_t b_row = std::int64_t(t) * s.tk + i;
        if (b_row < c.k && l.col < c.n) loads.push_back(b_row * c.n + l.col);
        words.push_back(std::int64_t(i) * s.tn + l.tx);  // Bs[i][tx]
      }
      traffic.sectors += Sectors(loads);
      traffic.bank_conflicts += ExtraWavefronts(words);
    }
    for (int k = 0; k < s.tk; ++k) {  // fmaf(As[ty][k], Bs[k][tx], sum): two shared loads
      std::vector<std::int64_t> as_words, bs_words;
      for (const Lane& l : lanes) {
        as_words.push_back(std::int64_t(l.ty) * s.tk + k);
        bs_words.push_back(std::int64_t(k) * s.tn + l.tx);
      }
      traffic.bank_conflicts += ExtraWavefronts(as_words) + ExtraWavefronts(bs_words);
    }
  }
  std::vector<std::int64_t> stores;
  for (const Lane& l : lanes) {
    if (l.row < c.m && l.col < c.n) stores.push_back(l.row * c.n + l.col);
  }
  traffic.sectors += Sectors(stores);
}

MemoryTraffic TrafficFromSource(const LessonConfig& c) {
  const sim::TileShape s = c.Tiles();
  const int block_width = s.tn;  // blockDim.x (the naive kernel's block is TILE×TILE too)
  const int threads = s.tm * s.tn;
  MemoryTraffic traffic;
  for (int by = 0; by * s.tm < c.m; ++by) {
    for (int bx = 0; bx * s.tn < c.n; ++bx) {
      for (int first = 0; first < threads; first += 32) {
        std::vector<Lane> lanes;
        for (int id = first; id < std::min(first + 32, threads); ++id) {
          const int tx = id % block_width, ty = id / block_width;
          lanes.push_back({tx, ty, std::int64_t(by) * s.tm + ty, std::int64_t(bx) * s.tn + tx});
        }
        if (c.kernel == sim::KernelKind::kNaive) {
          CountNaiveWarp(c, lanes, traffic);
        } else {
          CountTiledWarp(c, lanes, traffic);
        }
      }
    }
  }
  return traffic;
}

TEST(Counts, SectorsAndBankConflictsEqualACountFromTheSource) {
  std::vector<LessonConfig> shapes = Shapes();
  // Several warps per block, rows that start mid-sector, tiles that are not powers of two.
  for (LessonConfig config : {Tiled(40, 37, 29, 16), Tiled(33, 35, 21, 6), Tiled(19, 23, 31, 5), Tiled(64, 64, 40, 32),
                              Rect(45, 70, 33, 8, 32, 16), Rect(21, 13, 50, 6, 10, 24), Rect(30, 30, 30, 16, 4, 8),
                              Naive(37, 29, 11, 8), Naive(20, 41, 6, 16)}) {
    shapes.push_back(config);
  }
  for (const LessonConfig& config : shapes) {
    SCOPED_TRACE(Describe(config));
    sim::Simulation simulation(config);
    simulation.RunToEnd();
    const MemoryTraffic expected = TrafficFromSource(config);
    EXPECT_EQ(simulation.counters().global_sectors, expected.sectors);
    EXPECT_EQ(simulation.counters().bank_conflicts, expected.bank_conflicts);
  }
}

TEST(Counts, NoBankConflictsForPowerOfTwoSquareTiles) {
  for (int tile : {2, 4, 8, 16, 32}) {
    sim::Simulation simulation(Tiled(32, 32, 64, tile));
    simulation.RunToEnd();
    EXPECT_EQ(simulation.counters().bank_conflicts, 0u) << "tile " << tile;
  }
}

// TN = 8, TM = 4, TK = 32: the 4 rows of As are 32 words apart, so every As access of the
// warp puts 4 distinct words in one bank: 3 extra wavefronts per store (TK/TN per phase)
// and per inner-product step (TK per phase); Bs accesses are conflict-free.
TEST(Counts, BankConflictsRectangularTiles) {
  sim::Simulation simulation(Rect(4, 8, 64, 4, 8, 32));
  simulation.RunToEnd();
  const std::uint64_t phases = 2;
  EXPECT_EQ(simulation.counters().bank_conflicts, phases * (3 * (32 / 8) + 3 * 32));
}

TEST(Counts, PerPhaseFiguresAddUp) {
  sim::Simulation simulation(Tiled(6, 5, 7, 4));
  simulation.RunToEnd();
  const sim::Counters& c = simulation.counters();
  std::uint64_t a = 0, shared = 0, fma = 0;
  for (const sim::PhaseCounters& phase : c.phases) {
    a += phase.global_reads_a;
    shared += phase.shared_reads;
    fma += phase.fma;
  }
  EXPECT_EQ(c.phases.size(), 2u);
  EXPECT_EQ(a, c.global_reads_a);
  EXPECT_EQ(shared, c.shared_reads);
  EXPECT_EQ(fma, c.fma_executed);
}

TEST(Counts, ReadsPerElementAndBlock) {
  sim::Simulation simulation(LessonConfig{});
  simulation.RunToEnd();
  const sim::Snapshot view = simulation.snapshot();
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      // Two block columns read each element of A once each.
      EXPECT_EQ(view.ReadsOf(sim::MatrixId::kA, row, col), 2u);
      const sim::ReaderSummary readers = view.Readers(sim::MatrixId::kB, row, col);
      EXPECT_EQ(readers.reads, 2u);
      ASSERT_EQ(readers.readers.size(), 2u);
      EXPECT_EQ(readers.reads_by_phase[static_cast<std::size_t>(row / 2)], 2u);
    }
  }
  for (int block = 0; block < 4; ++block) EXPECT_EQ(view.ReadsByBlock(sim::MatrixId::kA, block), 8u);
}

}  // namespace

namespace {

// The live panel asks for the closed form of any result it loads; a dimension of 2·10^9
// once overflowed int in the grid and thread counts (UBSan: program.cpp, geometry.h).
TEST(Counts, ClosedFormsOfSizesNoLessonCouldRun) {
  constexpr std::uint64_t kMaxCount = ~std::uint64_t{0};
  const std::uint64_t top = 2147483647;  // INT_MAX: M = N = K, TILE 16
  const sim::ClosedForms largest = sim::Expected(Tiled(2147483647, 2147483647, 2147483647, 16));
  EXPECT_EQ(largest.phases, 134217728) << "ceil((2^31 - 1) / 16)";
  EXPECT_EQ(largest.global_writes, top * top);
  EXPECT_EQ(largest.minimum_global_reads, 2 * top * top);
  EXPECT_EQ(largest.global_reads_a, kMaxCount) << "2^27 · (2^31 - 1)^2 does not fit: saturated, not wrapped";
  EXPECT_EQ(largest.flops, kMaxCount);
  // 2^21 cubed with TILE 16: reads fit 64 bits exactly, 2·M·N·K = 2^64 is just beyond.
  const std::uint64_t size = 1u << 21;
  const sim::ClosedForms large = sim::Expected(Tiled(1 << 21, 1 << 21, 1 << 21, 16));
  EXPECT_EQ(large.global_reads_a, (size / 16) * size * size);
  EXPECT_EQ(large.global_reads(), 2 * (size / 16) * size * size);
  EXPECT_EQ(large.naive_global_reads, kMaxCount);
  EXPECT_EQ(large.shared_writes, (size / 16) * (size / 16) * (size / 16) * (2 * 16 * 16));
  EXPECT_EQ(large.shared_reads, kMaxCount) << "threads · phases · 2 · TILE = 2^64";
}

// A results row with a size below 1 (a damaged file) launches nothing, not 2^64 - 5 rows.
TEST(Counts, SizeBelowOneCountsNothing) {
  LessonConfig config = Tiled(4, 4, 4, 2);
  config.m = -5;
  const sim::ClosedForms forms = sim::Expected(config);
  EXPECT_EQ(forms.global_writes, 0u);
  EXPECT_EQ(forms.global_reads_b, 0u);
  EXPECT_EQ(forms.global_reads_a, 0u);
}

}  // namespace
