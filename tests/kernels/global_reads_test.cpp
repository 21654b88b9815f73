// The live panel's model link: for every naive and tiled kernel of the registry, the closed
// form the panel uses above 256³ equals what the model counts, at sizes up to 256 (256³
// itself for the naive and the TILE 16 kernels); and the counter hands the model's
// count over from its worker thread.
#include "kernels/global_reads.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kernels/model_replay.h"
#include "kernels/registry.h"

namespace kernels {
namespace {

const std::atomic<bool> kNeverStop{false};

void ExpectFormulaEqualsModel(const kernels::KernelSpec& spec, const kernels::Shape& shape) {
  SCOPED_TRACE(std::string(spec.name) + " at " + kernels::ToString(shape));
  const std::optional<sim::LessonConfig> lesson = ModelLessonFor(spec, shape);
  ASSERT_TRUE(lesson.has_value());
  const std::optional<std::uint64_t> counted = CountReads(*lesson, kNeverStop);
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ(*counted, FormulaReads(*lesson));
}

TEST(GlobalReads, FormulaEqualsTheModelForEveryKernelAtSmallSizes) {
  for (const kernels::KernelSpec* spec : kernels::AllKernels()) {
    if (!kernels::HasModel(*spec)) continue;  // cuBLAS and the ladder run on the GPU only
    for (const kernels::Shape& shape : {kernels::Shape::Square(48), kernels::Shape{37, 29, 53}}) {
      ExpectFormulaEqualsModel(*spec, shape);
    }
  }
}

TEST(GlobalReads, FormulaEqualsTheModelAt256Cubed) {
  for (const char* name : {"naive", "tiled16"}) {
    ExpectFormulaEqualsModel(*kernels::FindKernel(name), kernels::Shape::Square(kModelCountLimit));
  }
}

TEST(GlobalReads, NaiveReadsTwoMnkAndTilingDividesByTheTile) {
  const std::uint64_t n = 4096;
  const auto reads = [n](const char* name) {
    return FormulaReads(*ModelLessonFor(*kernels::FindKernel(name), kernels::Shape::Square(n)));
  };
  EXPECT_EQ(reads("naive"), 2 * n * n * n);
  EXPECT_EQ(reads("tiled16"), 2 * n * n * n / 16);
  EXPECT_EQ(reads("tiled32"), 2 * n * n * n / 32);
}

TEST(GlobalReads, CublasHasNoModel) {
  EXPECT_FALSE(ModelLessonFor(*kernels::FindKernel("cublas_fp32"), kernels::Shape::Square(256)).has_value());
}

TEST(GlobalReads, RequestedBandwidthIsBytesOverTime) {
  EXPECT_DOUBLE_EQ(RequestedGBs(250'000'000, 1.0), 1000.0);  // 1 GB in 1 ms = 1000 GB/s.
  EXPECT_EQ(RequestedGBs(1, 0.0), 0.0);
}

TEST(GlobalReads, CounterUsesTheFormulaAboveTheLimitAndTheModelBelow) {
  GlobalReadsCounter counter;
  const kernels::KernelSpec& tiled = *kernels::FindKernel("tiled16");
  const std::optional<GlobalReads> large = counter.Get(tiled, kernels::Shape::Square(4096));
  ASSERT_TRUE(large.has_value());
  EXPECT_EQ(large->source, ReadsSource::kFormula);
  EXPECT_NE(Describe(large->source).find("checked against the model up to 256"), std::string::npos);

  const kernels::Shape small = kernels::Shape::Square(128);
  std::optional<GlobalReads> counted = counter.Get(tiled, small);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!counted && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    counted = counter.Get(tiled, small);
  }
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ(counted->source, ReadsSource::kModel);
  EXPECT_EQ(counted->reads, 2ull * 128 * 128 * 128 / 16);
}

TEST(GlobalReads, CounterStopsItsCountWhenDestroyed) {
  const auto start = std::chrono::steady_clock::now();
  {
    GlobalReadsCounter counter;
    EXPECT_FALSE(counter.Get(*kernels::FindKernel("naive"), kernels::Shape::Square(256)).has_value());
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace kernels
