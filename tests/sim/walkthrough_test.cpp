// The walkthrough `tilescope trace` prints: for every block and phase, the tiles hold the
// slices of A and B the kernel's indexing names (zero padding past the edges), the reads
// are the in-bounds elements of those slices, and the partial sums are fmaf sums over the
// phases so far — computed here from A and B, not through the model.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/walkthrough.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/model/bits.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::LessonConfig;

struct Inputs {
  std::vector<float> a;
  std::vector<float> b;
  int m, n, k;
  float A(int row, int col) const { return row < m && col < k ? a[std::size_t(row) * k + col] : 0.0f; }
  float B(int row, int col) const { return row < k && col < n ? b[std::size_t(row) * n + col] : 0.0f; }
};

void ExpectBlockPhase(const Inputs& in, int tile, int bx, int by, const sim::PhaseRecord& phase) {
  const int t = phase.phase;
  std::uint64_t inside_a = 0, inside_b = 0;
  for (int r = 0; r < tile; ++r) {
    for (int c = 0; c < tile; ++c) {
      const int row = by * tile + r, col = bx * tile + c, depth_a = t * tile + c, depth_b = t * tile + r;
      EXPECT_TRUE(sim::SameBits(phase.as[std::size_t(r) * tile + c], in.A(row, depth_a))) << "As " << r << c;
      EXPECT_TRUE(sim::SameBits(phase.bs[std::size_t(r) * tile + c], in.B(depth_b, col))) << "Bs " << r << c;
      inside_a += row < in.m && depth_a < in.k;
      inside_b += depth_b < in.k && col < in.n;
      float sum = 0.0f;
      for (int p = 0; p < (t + 1) * tile; ++p) sum = std::fma(in.A(row, p), in.B(p, col), sum);
      EXPECT_TRUE(phase.summed[std::size_t(r) * tile + c]);
      EXPECT_TRUE(sim::SameBits(phase.sums[std::size_t(r) * tile + c], sum)) << "sum " << r << c;
    }
  }
  EXPECT_EQ(phase.reads_a, inside_a);
  EXPECT_EQ(phase.reads_b, inside_b);
  EXPECT_EQ(phase.select_zero, 2u * tile * tile - inside_a - inside_b);
  EXPECT_EQ(phase.a_cols.first, t * tile);
  EXPECT_EQ(phase.a_cols.last, t * tile + tile - 1);
  EXPECT_EQ(phase.b_rows.first, t * tile);
  EXPECT_EQ(phase.a_rows.first, by * tile);
  EXPECT_EQ(phase.b_cols.last, bx * tile + tile - 1);
}

TEST(Walkthrough, TilesReadsAndPartialSumsPerBlockAndPhase) {
  for (const LessonConfig& shape :
       {sim_test::Tiled(4, 4, 4, 2), sim_test::WithRandomFill(sim_test::Tiled(6, 5, 7, 4), 3),
        sim_test::WithRandomFill(sim_test::Tiled(3, 9, 10, 4), 8)}) {
    for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kRandom}) {
      LessonConfig config = shape;
      config.scheduler = scheduler;
      SCOPED_TRACE(std::to_string(config.m) + "x" + std::to_string(config.n) + "x" + std::to_string(config.k));
      sim::Simulation simulation(config);
      sim::WalkthroughRecorder recorder(simulation.geometry(), simulation.geometry().blocks);
      simulation.SetSink(&recorder);
      simulation.RunToEnd();
      const Inputs in{simulation.a(), simulation.b(), config.m, config.n, config.k};
      const sim::Geometry& g = simulation.geometry();
      ASSERT_EQ(recorder.blocks().size(), std::size_t(g.blocks));
      std::uint64_t reads = 0;
      for (const sim::BlockRecord& block : recorder.blocks()) {
        ASSERT_EQ(block.phases.size(), std::size_t(g.phases));
        for (const sim::PhaseRecord& phase : block.phases) {
          ExpectBlockPhase(in, config.tile, block.block % g.grid_x, block.block / g.grid_x, phase);
          reads += phase.reads_a + phase.reads_b;
        }
      }
      EXPECT_EQ(reads, simulation.counters().GlobalReads());
    }
  }
}

TEST(Walkthrough, ProductsOfTheFirstElement) {
  const LessonConfig config = sim_test::WithRandomFill(sim_test::Tiled(5, 5, 7, 4), 21);
  sim::Simulation simulation(config);
  sim::WalkthroughRecorder recorder(simulation.geometry(), 0);
  simulation.SetSink(&recorder);
  simulation.RunToEnd();
  EXPECT_TRUE(recorder.blocks().empty());
  const Inputs in{simulation.a(), simulation.b(), config.m, config.n, config.k};
  const std::vector<sim::ProductTerm>& terms = recorder.first_element_terms();
  const int padded_k = simulation.geometry().phases * config.tile;
  ASSERT_EQ(terms.size(), std::size_t(padded_k));
  float sum = 0.0f;
  for (int p = 0; p < padded_k; ++p) {
    const sim::ProductTerm& term = terms[std::size_t(p)];
    EXPECT_EQ(term.phase, p / config.tile);
    EXPECT_TRUE(sim::SameBits(term.a, in.A(0, p)));
    EXPECT_TRUE(sim::SameBits(term.b, in.B(p, 0)));
    sum = std::fma(in.A(0, p), in.B(p, 0), sum);
    EXPECT_TRUE(sim::SameBits(term.sum, sum));
  }
  EXPECT_TRUE(sim::SameBits(terms.back().sum, simulation.c()[0]));
}

TEST(Walkthrough, KeepsOnlyTheBlocksAskedFor) {
  sim::Simulation simulation(sim_test::Tiled(8, 8, 8, 2));
  sim::WalkthroughRecorder recorder(simulation.geometry(), 3);
  simulation.SetSink(&recorder);
  simulation.RunToEnd();
  ASSERT_EQ(recorder.blocks().size(), 3u);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(recorder.blocks()[std::size_t(b)].block, b);
}

}  // namespace
