// The model side of the kernels: the lesson a registry row maps to, and the model's C on
// the generator's small-integer cases (exact in float, so it must equal C to the bit).
#include "kernels/model_replay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "kernels/random_fill.h"
#include "kernels/registry.h"
#include "test_vector_generator.h"

namespace kernels {
namespace {

TEST(ModelReplay, LessonCarriesEveryParameterOfTheRow) {
  const sim::LessonConfig rect = ModelLessonFor(*FindKernel("rect32x16x16"), Shape{37, 29, 53}, {}, {});
  EXPECT_EQ(rect.kernel, sim::KernelKind::kTiledRect);
  EXPECT_EQ(rect.m, 37);
  EXPECT_EQ(rect.n, 29);
  EXPECT_EQ(rect.k, 53);
  EXPECT_EQ(rect.rect.tm, 32);
  EXPECT_EQ(rect.rect.tn, 16);
  EXPECT_EQ(rect.rect.tk, 16);

  const sim::LessonConfig race = ModelLessonFor(*FindKernel("tiled16_nosync1"), Shape::Square(32), {}, {});
  EXPECT_EQ(race.kernel, sim::KernelKind::kTiled);
  EXPECT_EQ(race.tile, 16);
  EXPECT_EQ(race.barrier1, sim::SyncKind::kNone);
  EXPECT_EQ(race.barrier2, sim::SyncKind::kSyncthreads);
  EXPECT_EQ(race.scheduler, sim::SchedulerKind::kRealistic);

  const sim::LessonConfig warp = ModelLessonFor(*FindKernel("tiled4_syncwarp"), Shape::Square(8), {}, {});
  EXPECT_EQ(warp.barrier1, sim::SyncKind::kSyncwarp);
  EXPECT_EQ(warp.barrier2, sim::SyncKind::kSyncwarp);

  const sim::LessonConfig unguarded = ModelLessonFor(*FindKernel("tiled16_unguarded"), Shape::Square(20), {}, {});
  EXPECT_FALSE(unguarded.guard);
  EXPECT_EQ(unguarded.tile_count, sim::TileCount::kFloor);

  EXPECT_EQ(ModelLessonFor(*FindKernel("naive"), Shape::Square(4), {}, {}).kernel, sim::KernelKind::kNaive);
}

TEST(ModelReplay, SmallIntegerProductsAreExactOnTheModel) {
  const kernels_test::GeneratedCase g = kernels_test::MakeCase(37, 53, 29, 11);
  const Shape shape{g.m, g.cols, g.inner};
  for (const char* name : {"naive", "tiled2", "tiled8", "tiled16", "tiled32", "rect32x16x16", "tiled2_syncwarp"}) {
    const ModelRun run = RunOnModel(*FindKernel(name), shape, g.a, g.b);
    ASSERT_TRUE(run.ok()) << name << ": " << run.error;
    EXPECT_EQ(CountDifferingBits(run.c, g.c), 0) << name;
  }
}

TEST(ModelReplay, CublasHasNoModelAndSaysSo) {
  const ModelRun run = RunOnModel(*FindKernel("cublas_fp32"), Shape::Square(2), {1, 2, 3, 4}, {1, 0, 0, 1});
  EXPECT_FALSE(run.ok());
  EXPECT_NE(run.error.find("no model"), std::string::npos) << run.error;
}

TEST(ModelReplay, LessonTheModelCannotRunIsAMessage) {
  // 2^17 columns: past the model's dimension limit, refused before any allocation.
  const ModelRun run = RunOnModel(*FindKernel("tiled16"), Shape{1, 1 << 17, 1}, {1.0f}, std::vector<float>(1 << 17));
  EXPECT_FALSE(run.ok());
  EXPECT_NE(run.error.find("the model cannot run it"), std::string::npos) << run.error;
}

// The runner's model check runs one bare machine, no step-back history, and is held to that
// machine's memory, not a GUI lesson's. Every kernel the runner checks on the model runs at its
// largest checked size (128³ once refused tiled2_syncwarp, a correct kernel, so the GPU test
// found no model check to compare).
TEST(ModelReplay, EveryModelledKernelRunsAtTheLargestCheckedSize) {
  const Shape largest = Shape::Square(128);
  ASSERT_TRUE(WantsModelCheck(*FindKernel("tiled16"), largest));
  for (const KernelSpec* kernel : AllKernels()) {
    if (!WantsModelCheck(*kernel, largest)) continue;
    const ModelRun run = RunOnModel(*kernel, largest, SeededInput(1, 0, 128, 128), SeededInput(1, 1, 128, 128));
    EXPECT_TRUE(run.ok()) << kernel->name << ": " << run.error;
  }
}

// M·N·K once wrapped negative from n = 2^21 (2^63) and passed "≤ 128^3": the runner then
// asked for an M×N host buffer of 2^42 floats, and the worker's bad_alloc ended `bench`.
TEST(ModelReplay, ModelCheckOnlyAtSmallWorkWithoutOverflow) {
  const KernelSpec& tiled = *FindKernel("tiled16");
  EXPECT_TRUE(WantsModelCheck(tiled, Shape::Square(128)));
  EXPECT_FALSE(WantsModelCheck(tiled, Shape::Square(129)));
  EXPECT_FALSE(WantsModelCheck(*FindKernel("cublas_fp32"), Shape::Square(16)));
  EXPECT_FALSE(WantsModelCheck(tiled, Shape::Square(std::int64_t{1} << 21)));
  EXPECT_FALSE(WantsModelCheck(tiled, Shape{kMaxShapeDimension, kMaxShapeDimension, kMaxShapeDimension}));
}

TEST(ModelReplay, SeededInputIsTheRunnersFill) {
  const std::vector<float> a = SeededInput(7, 0, 5, 3);
  ASSERT_EQ(a.size(), 15u);
  std::set<float> distinct;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i], RandomInput(7, 0, i));
    EXPECT_GE(a[i], -1.0f);
    EXPECT_LT(a[i], 1.0f);
    distinct.insert(a[i]);
  }
  EXPECT_GT(distinct.size(), 10u) << "random, not a constant fill";
  EXPECT_NE(SeededInput(7, 1, 5, 3), a) << "B is not A";
}

TEST(ModelReplay, DifferingBitsCountsSignedZeroAndKeepsEqualNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(CountDifferingBits({1.0f, 0.0f, nan}, {1.0f, -0.0f, nan}), 1);
  EXPECT_EQ(CountDifferingBits({1.0f, 2.0f}, {1.0f, 2.0f}), 0);
  EXPECT_EQ(CountDifferingBits({1.0f}, {1.0f, 2.0f}), 2) << "a size mismatch counts every element";
}

}  // namespace
}  // namespace kernels
