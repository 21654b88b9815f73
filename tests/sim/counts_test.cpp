// Every count the model makes equals its closed form, across shapes: square and
// rectangular tiles, the naive kernel, 1×1×1, primes, and K much larger than M and N.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "sim/formulas.h"
#include "sim/simulation.h"
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
