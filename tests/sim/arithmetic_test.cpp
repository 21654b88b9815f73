// C equals a straightforward fmaf reference, written here and not through the model, bit
// for bit; with both barriers on, no scheduler and no seed changes C or reports a hazard.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/model/fused_multiply_add.h"
#include "sim/model/random.h"
#include "sim/model/reference.h"
#include "sim/model/run_check.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::LessonConfig;

std::vector<float> FmafProduct(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(static_cast<std::size_t>(m * n));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum = std::fma(a[i * k + p], b[p * n + j], sum);
      c[i * n + j] = sum;
    }
  }
  return c;
}

int DifferingBits(const std::vector<float>& x, const std::vector<float>& y) {
  int differing = 0;
  for (std::size_t i = 0; i < x.size(); ++i) differing += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return differing;
}

LessonConfig RandomShape(sim::SplitMix64& random, int variant) {
  const int m = 1 + int(random.Below(19)), n = 1 + int(random.Below(19)), k = 1 + int(random.Below(40));
  LessonConfig config = sim_test::Tiled(m, n, k, 1 + int(random.Below(8)));
  if (variant == 1) config = sim_test::Rect(m, n, k, 1 + int(random.Below(6)), 1 + int(random.Below(6)), 1 + int(random.Below(9)));
  if (variant == 2) config = sim_test::Naive(m, n, k, 1 + int(random.Below(6)));
  return sim_test::WithRandomFill(config, random.Next());
}

TEST(Arithmetic, BitIdenticalToFmafReference) {
  sim::SplitMix64 random(42);
  for (int i = 0; i < 60; ++i) {
    const LessonConfig config = RandomShape(random, i % 3);
    const std::vector<float> a = sim::FillMatrix(config.fill_a, config.m, config.k);
    const std::vector<float> b = sim::FillMatrix(config.fill_b, config.k, config.n);
    EXPECT_EQ(DifferingBits(sim::ComputeC(config), FmafProduct(config.m, config.n, config.k, a, b)), 0)
        << sim::Name(config.kernel) << " " << config.m << "x" << config.n << "x" << config.k;
  }
}

TEST(Arithmetic, GivenInputsGiveTheirProduct) {
  const LessonConfig config = sim_test::Tiled(3, 5, 9, 4);
  std::vector<float> a(27), b(45);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.1f * float(i) - 1.0f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0f / float(i + 1);
  EXPECT_EQ(DifferingBits(sim::ComputeC(config, a, b), FmafProduct(3, 5, 9, a, b)), 0);
}

TEST(Arithmetic, SeparateMultiplyAddWouldDiffer) {
  // The point of fmaf: on random inputs a separate multiply and add rounds differently.
  const LessonConfig config = sim_test::WithRandomFill(sim_test::Tiled(16, 16, 64, 4), 7);
  const std::vector<float> a = sim::FillMatrix(config.fill_a, 16, 64), b = sim::FillMatrix(config.fill_b, 64, 16);
  std::vector<float> separate(256);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < 64; ++p) {
        volatile float product = a[i * 64 + p] * b[p * 16 + j];
        sum = sum + product;
      }
      separate[i * 16 + j] = sum;
    }
  }
  EXPECT_GT(DifferingBits(sim::ComputeC(config), separate), 0);
}

TEST(Arithmetic, BarriersOnNoSchedulerNoSeedChangesC) {
  sim::SplitMix64 random(9);
  for (int i = 0; i < 12; ++i) {
    LessonConfig base = RandomShape(random, i % 2);
    for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder,
                           sim::SchedulerKind::kRandom, sim::SchedulerKind::kRaceExposing}) {
      for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        LessonConfig config = base;
        config.scheduler = scheduler;
        config.seed = seed;
        sim::Simulation simulation(config);
        simulation.RunToEnd();
        const sim::RunOutcome outcome = sim::Assess(simulation);
        ASSERT_EQ(outcome.wrong_elements, 0u) << sim::Name(scheduler) << " seed " << seed;
        ASSERT_EQ(simulation.counters().hazards, 0u) << sim::Name(scheduler) << " seed " << seed;
        ASSERT_EQ(outcome.verdict, sim::Verdict::kCorrect);
      }
    }
  }
}

TEST(Arithmetic, UnguardedReadsWrapAndPoison) {
  // 3×3 with TILE 2: the tail tile reads past row ends (the next row's elements) and past
  // the allocation (NaN), flagged each time; stores outside C are dropped.
  LessonConfig config = sim_test::Tiled(3, 3, 3, 2);
  config.guard = false;
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  bool wrapped = false, poisoned = false, dropped = false;
  for (const sim::OutOfBoundsAccess& access : simulation.out_of_bounds()) {
    if (!access.write && access.inside_allocation) {
      // A[row][col] past a row's end is A's element at the linear index row·K + col.
      const std::vector<float>& matrix = access.matrix == sim::MatrixId::kA ? simulation.a() : simulation.b();
      const int cols = access.matrix == sim::MatrixId::kA ? config.k : config.n;
      EXPECT_EQ(access.value, matrix[static_cast<std::size_t>(access.row * cols + access.col)])
          << "read of row " << access.row << ", column " << access.col;
    }
    wrapped |= !access.write && access.inside_allocation;
    poisoned |= !access.write && !access.inside_allocation && std::isnan(access.value);
    dropped |= access.write;
  }
  EXPECT_TRUE(wrapped);
  EXPECT_TRUE(poisoned);
  EXPECT_TRUE(dropped);
  EXPECT_EQ(sim::Assess(simulation).verdict, sim::Verdict::kWrong);
}

// The model's loops take the FMA instruction where the CPU has it (WithFusedMultiplyAdd);
// it must give what libm's fmaf gives, to the bit, also where rounding is hardest (products
// that cancel the sum, subnormals, overflow, infinities) and for NaNs with payloads (the
// shared tiles' poison meeting an out-of-bounds read's). Where the CPU has no FMA both are
// libm's.
TEST(Arithmetic, TheFmaInstructionRoundsAsLibmToTheBit) {
  std::vector<float> values{0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 3.0f, 1e-38f, 1e-45f, -1e-45f, 1e38f, 3.4e38f,
                            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), sim::SharedPoison(), sim::GlobalPoison(),
                            1.0f + std::numeric_limits<float>::epsilon(), 1.0f - std::numeric_limits<float>::epsilon() / 2};
  sim::SplitMix64 random(7);
  for (int i = 0; i < 2000; ++i) {
    std::uint32_t bits = static_cast<std::uint32_t>(random.Next());
    float value;
    std::memcpy(&value, &bits, sizeof value);
    values.push_back(value);
  }
  std::vector<float> libm, instruction;
  const auto products = [&values](std::vector<float>& out, auto fmaf) {
    for (std::size_t i = 0; i + 2 < values.size(); ++i) out.push_back(fmaf(values[i], values[i + 1], values[i + 2]));
    for (const float a : {1.0f + std::numeric_limits<float>::epsilon(), 0.1f}) {
      out.push_back(fmaf(a, a, -(a * a)));  // the product's rounding error, exactly
    }
  };
  // libm's own fmaf, one call each as the model's lane loops make them: through a pointer the
  // compiler cannot see through (it would fold, inline or vectorize std::fma here).
  float (*volatile const libm_fmaf)(float, float, float) = std::fma;
  products(libm, libm_fmaf);
  sim::WithFusedMultiplyAdd([&](auto fmaf) { products(instruction, fmaf); });
  ASSERT_EQ(libm.size(), instruction.size());
  EXPECT_EQ(DifferingBits(libm, instruction), 0);
}

TEST(Arithmetic, FloorTileCountIsSilentlyWrong) {
  LessonConfig config = sim_test::Tiled(4, 4, 5, 2);
  config.tile_count = sim::TileCount::kFloor;
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  EXPECT_EQ(simulation.counters().out_of_bounds, 0u);
  EXPECT_EQ(sim::Assess(simulation).wrong_elements, 16u);
}

}  // namespace
