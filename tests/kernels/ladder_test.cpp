// The ladder view's figures: every kernel's idea, and the loads behind its arithmetic
// intensity — counted by the model where the model runs the kernel, and by walking the
// blocks one by one for the ladder's block tiles.
#include "kernels/ladder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "kernels/global_reads.h"
#include "kernels/model_replay.h"
#include "kernels/registry.h"

namespace kernels {
namespace {

TEST(Ladder, EveryKernelHasAnIdea) {
  for (const KernelSpec* spec : AllKernels()) EXPECT_FALSE(std::string(IdeaOf(*spec)).empty()) << spec->name;
}

// Where the model runs the kernel, its count of global reads is the figure.
TEST(Ladder, LoadsOfModelKernelsAreWhatTheModelCounts) {
  const std::atomic<bool> never{false};
  for (const char* name : {"naive", "tiled2", "tiled16", "rect32x16x16"}) {
    for (const Shape shape : {Shape{37, 29, 53}, Shape::Square(32), Shape{5, 70, 9}}) {
      const KernelSpec& spec = *FindKernel(name);
      const auto lesson = ModelLessonFor(spec, shape);
      ASSERT_TRUE(lesson.has_value()) << name;
      EXPECT_EQ(RequestedLoads(spec, shape), CountReads(*lesson, never)) << name << " at " << ToString(shape);
    }
  }
}

// A block tile BM×BN loads, per block, its rows of A and columns of B that lie inside the
// matrices, K deep: summed over the grid block by block.
std::uint64_t WalkBlocks(const KernelSpec& spec, const Shape& shape) {
  std::uint64_t loads = 0;
  for (std::int64_t row = 0; row < shape.m; row += spec.tile_m) {
    for (std::int64_t col = 0; col < shape.n; col += spec.tile_n) {
      const std::int64_t rows = std::min<std::int64_t>(spec.tile_m, shape.m - row);
      const std::int64_t cols = std::min<std::int64_t>(spec.tile_n, shape.n - col);
      loads += static_cast<std::uint64_t>((rows + cols) * shape.k);
    }
  }
  return loads;
}

TEST(Ladder, LoadsOfEveryRungAreItsBlocksWalkedOneByOne) {
  int rungs = 0;
  for (const KernelSpec* spec : AllKernels()) {
    if (spec->family != KernelFamily::kLadder) continue;
    ++rungs;
    for (const Shape shape : {Shape::Square(1), Shape{37, 29, 53}, Shape{1000, 300, 77}, Shape::Square(512)}) {
      EXPECT_EQ(RequestedLoads(*spec, shape), WalkBlocks(*spec, shape)) << spec->name << " at " << ToString(shape);
    }
  }
  EXPECT_GT(rungs, 0);
}

TEST(Ladder, CublasHasNoIntensityOfOurs) {
  EXPECT_FALSE(LoadIntensity(*FindKernel("cublas_fp32"), Shape::Square(1024)).has_value());
}

// For a large square size the intensity tends to 1/(2·(1/BM + 1/BN)) FLOP per byte: a
// quarter for the naive kernel, TILE/4 for the tiled one.
TEST(Ladder, IntensityTendsToTheBlockTilesLimit) {
  const Shape big = Shape::Square(8192);
  EXPECT_NEAR(*LoadIntensity(*FindKernel("naive"), big), 0.25, 0.01);
  EXPECT_NEAR(*LoadIntensity(*FindKernel("tiled32"), big), 32.0 / 4.0, 0.1);
  const KernelSpec& rung = *FindKernel("blocktile_2d");
  EXPECT_NEAR(*LoadIntensity(rung, big), 1.0 / (2.0 * (1.0 / rung.tile_m + 1.0 / rung.tile_n)), 0.5);
}

}  // namespace
}  // namespace kernels

namespace kernels {
namespace {

BenchResult Measured(const char* kernel, Shape shape, double gflops) {
  BenchResult result;
  result.kernel = kernel;
  result.shape = shape;
  result.gflops = gflops;
  result.verified = true;
  return result;
}

TEST(Ladder, RowsAreFp32KernelsInTeachingOrderWithCublasLast) {
  const Shape big = Shape::Square(4096);
  const std::vector<BenchResult> results = {
      Measured("cublas_fp32", big, 50000), Measured("double_buffered", big, 43000), Measured("cublas_tf32", big, 300000),
      Measured("naive", big, 2000), Measured("tiled32", big, 9000), Measured("tiled32", Shape::Square(1024), 8000)};
  const std::vector<LadderRow> rows = LadderAt(results, big);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_STREQ(rows[0].spec->name, "naive");
  EXPECT_STREQ(rows[1].spec->name, "tiled32");
  EXPECT_EQ(rows[1].result->gflops, 9000);
  EXPECT_STREQ(rows[2].spec->name, "double_buffered");
  EXPECT_STREQ(rows[3].spec->name, "cublas_fp32");
  EXPECT_FALSE(rows[3].intensity.has_value());
  EXPECT_EQ(LadderShape(results, ""), big) << "the largest square size by default";
  EXPECT_EQ(LadderShape(results, "1024"), Shape::Square(1024)) << "the chosen size when measured";
  EXPECT_EQ(LadderShape(results, "777"), big) << "a size with no result falls back";
  EXPECT_FALSE(LadderShape({}, "").has_value());
}

// The tensor-core rungs follow the FP32 ladder, each precision in teaching order with its own
// cuBLAS last; every row's bar runs towards that cuBLAS. A precision with only its cuBLAS
// measured is left out (the FP32 test above has cuBLAS TF32 alone).
TEST(Ladder, TensorRungsFollowEachWithTheCublasOfItsPrecision) {
  const Shape big = Shape::Square(4096);
  const std::vector<BenchResult> results = {
      Measured("cublas_bf16", big, 700000), Measured("wgmma_bf16", big, 690000),
      Measured("wgmma_tf32", big, 380000), Measured("cublas_fp32", big, 50000), Measured("warp_specialized", big, 710000),
      Measured("mma_tf32", big, 140000), Measured("cublas_tf32", big, 370000), Measured("all_async", big, 51000)};
  const std::vector<LadderRow> rows = LadderAt(results, big);
  std::vector<std::string> names, references;
  for (const LadderRow& row : rows) {
    names.push_back(row.spec->name);
    references.push_back(row.reference != nullptr ? row.reference->kernel : "");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"all_async", "cublas_fp32", "mma_tf32", "wgmma_tf32", "cublas_tf32",
                                             "wgmma_bf16", "warp_specialized", "cublas_bf16"}));
  EXPECT_EQ(references, (std::vector<std::string>{"cublas_fp32", "cublas_fp32", "cublas_tf32", "cublas_tf32",
                                                  "cublas_tf32", "cublas_bf16", "cublas_bf16", "cublas_bf16"}));
}

// A BF16 rung requests 2-byte elements of A and B, C stays FP32: at 8192³ with a 128×256 tile,
// 2·8192³ flops over 2·(8192³/256 + 8192³/128) + 4·8192² bytes.
TEST(Ladder, Bf16RowsCountTwoBytesAnElement) {
  const double n = 8192.0;
  const double expected = 2.0 * n * n * n / (2.0 * (n * n * n / 256.0 + n * n * n / 128.0) + 4.0 * n * n);
  EXPECT_NEAR(*LoadIntensity(*FindKernel("warp_specialized"), Shape::Square(8192)), expected, 1e-9 * expected);
  const double tf32 = 2.0 * n * n * n / (4.0 * (n * n * n / 256.0 + n * n * n / 128.0) + 4.0 * n * n);
  EXPECT_NEAR(*LoadIntensity(*FindKernel("wgmma_tf32"), Shape::Square(8192)), tf32, 1e-9 * tf32);
}

// A point above the memory roof gets its sentence: the bytes a second it asks for (GFLOPS over
// its intensity) against DRAM's, for each kernel above and none below or with a wrong C.
BenchResult MeasuredAt(const char* kernel, const Shape& shape, double gflops, bool verified = true) {
  BenchResult r;
  r.kernel = kernel;
  r.label = std::string(kernel) + " label";
  r.shape = shape;
  r.gflops = gflops;
  r.verified = verified;
  return r;
}

TEST(Ladder, AboveTheMemoryRoofIsSaidWithTheBytesAskedFor) {
  const Shape shape = Shape::Square(4096);
  const double dram = 1000.0;
  const double naive = *LoadIntensity(*FindKernel("naive"), shape);
  const double tiled = *LoadIntensity(*FindKernel("tiled16"), shape);
  // naive asks for 2.5× DRAM's bandwidth, tiled16 for half of it; tiled32 would, but its C is wrong.
  const std::vector<BenchResult> results = {MeasuredAt("naive", shape, 2.5 * dram * naive),
                                            MeasuredAt("tiled16", shape, 0.5 * dram * tiled),
                                            MeasuredAt("tiled32", shape, 9.0 * dram * tiled, false)};
  const std::string note = AboveMemoryRoofNote(results, shape, dram);
  EXPECT_NE(note.find("more than DRAM's 1000 GB/s: naive label asks for 2500 GB/s (2.5\u00d7)."), std::string::npos)
      << note;
  EXPECT_NE(note.find("L2 and L1 serve"), std::string::npos) << note;
  EXPECT_EQ(note.find("tiled16"), std::string::npos) << "below the roof: " << note;
  EXPECT_EQ(note.find("tiled32"), std::string::npos) << "a wrong C is no point at all: " << note;
  EXPECT_EQ(AboveMemoryRoofNote({results[1]}, shape, dram), "") << "none above: nothing to say";
  EXPECT_EQ(AboveMemoryRoofNote(results, shape, 0.0), "") << "no bandwidth known: no roof to be above";
}

}  // namespace
}  // namespace kernels
