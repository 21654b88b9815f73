#include "kernels/bench.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"

namespace kernels {
namespace {

TEST(ParseShapes, SquareListAndShapes) {
  std::vector<Shape> shapes;
  ASSERT_FALSE(ParseShapes("1024, 37x29x53,1", shapes));
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0], Shape::Square(1024));
  EXPECT_EQ(shapes[1], (Shape{37, 29, 53}));
  EXPECT_EQ(shapes[2], Shape::Square(1));
}

TEST(ParseShapes, PowerOfTwoRange) {
  std::vector<Shape> shapes;
  ASSERT_FALSE(ParseShapes("256:8192", shapes));
  EXPECT_EQ(shapes, DefaultShapes());
  EXPECT_EQ(shapes.size(), 6u);
}

TEST(ParseShapes, BadEntriesAreNamedAndLeaveTheListAlone) {
  std::vector<Shape> shapes{Shape::Square(7)};
  for (const char* bad : {"", "0", "-4", "abc", "12x3", "1x0x3", "300:8192", "512:256", "256,,512", "1e3"}) {
    const auto error = ParseShapes(bad, shapes);
    ASSERT_TRUE(error) << bad;
    EXPECT_FALSE(error->empty());
  }
  EXPECT_EQ(shapes, std::vector<Shape>{Shape::Square(7)});
}

TEST(ParseShape, OneSizeIsTakenAndAListOrRangeIsRefusedWithItsCount) {
  Shape shape;
  ASSERT_FALSE(ParseShape(" 37x29x53", shape));
  EXPECT_EQ(shape, (Shape{37, 29, 53}));
  ASSERT_FALSE(ParseShape("64:64", shape));
  EXPECT_EQ(shape, Shape::Square(64));
  const std::pair<const char*, const char*> bad[] = {
      {"256:1024", "'256:1024' is 3 sizes, not one"},
      {"8,16", "'8,16' is 2 sizes, not one"},
      {"four", "size 'four': 'four' is not a whole number"},
  };
  for (const auto& [text, message] : bad) {
    const auto error = ParseShape(text, shape);
    ASSERT_TRUE(error) << text;
    EXPECT_EQ(*error, message);
  }
  EXPECT_EQ(shape, Shape::Square(64));
}

// The rule the runner and the live panel share: A, B and two C as BuffersFor pads them.
TEST(DeviceMemory, ASizeThatCannotFitIsNamedWithWhatItNeeds) {
  const Shape shape = Shape::Square(32768);
  const std::vector<const KernelSpec*> fp32 = {FindKernel("tiled16")};
  const double needed = BuffersFor(32768, 32768, 32768).Bytes();  // four 4 GiB matrices and padding
  EXPECT_EQ(DeviceBytesFor(shape, fp32), needed);
  EXPECT_FALSE(DeviceMemoryError(shape, fp32, static_cast<std::uint64_t>(needed)));
  const std::optional<std::string> error = DeviceMemoryError(shape, fp32, static_cast<std::uint64_t>(needed) - 1);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("n = 32768"), std::string::npos) << *error;
  EXPECT_NE(error->find("needs 16.0 GiB"), std::string::npos) << *error;
}

// A BF16 row adds BF16 copies of A and Bᵀ (2 bytes an element, K padded to 8); a TF32 row that
// reads tensor maps adds FP32 K-major copies (K padded to 4); each once, however many rows.
TEST(DeviceMemory, TheTensorRowsCopiesOfAAndBCount) {
  const Shape shape{4096, 2048, 1001};
  const double plain = BuffersFor(4096, 2048, 1001).Bytes();
  const double bf16_copies = 2.0 * (4096 + 2048) * 1008, fp32_copies = 4.0 * (4096 + 2048) * 1004;
  EXPECT_EQ(DeviceBytesFor(shape, {FindKernel("all_async"), FindKernel("cublas_tf32"), FindKernel("mma_tf32")}), plain);
  EXPECT_EQ(DeviceBytesFor(shape, {FindKernel("wgmma_bf16")}), plain + bf16_copies);
  EXPECT_EQ(DeviceBytesFor(shape, {FindKernel("cublas_bf16"), FindKernel("warp_specialized")}), plain + bf16_copies);
  EXPECT_EQ(DeviceBytesFor(shape, {FindKernel("wgmma_tf32")}), plain + fp32_copies);
  EXPECT_EQ(DeviceBytesFor(shape, AllKernels()), plain + bf16_copies + fp32_copies);
  // A device with room for the FP32 buffers alone refuses the BF16 rung, naming the copies.
  const auto error = DeviceMemoryError(shape, {FindKernel("wgmma_bf16")}, static_cast<std::uint64_t>(plain));
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("K-major copies"), std::string::npos) << *error;
}

TEST(ValidateRequest, AcceptsTheDefaults) {
  EXPECT_FALSE(ValidationError(BenchRequest{}));
  EXPECT_EQ(ResolveKernels(BenchRequest{}), DefaultKernels());
  EXPECT_EQ(ResolveShapes(BenchRequest{}), DefaultShapes());
}

TEST(ValidateRequest, NamesWhatIsWrong) {
  BenchRequest unknown;
  unknown.kernels = {"tiled16", "tiled6"};
  ASSERT_TRUE(ValidationError(unknown));
  EXPECT_NE(ValidationError(unknown)->find("tiled6"), std::string::npos);

  BenchRequest zero;
  zero.shapes = {Shape{4, 0, 4}};
  ASSERT_TRUE(ValidationError(zero));
  EXPECT_NE(ValidationError(zero)->find("at least 1"), std::string::npos);

  // The kernels take int sizes: 2^31 would wrap on the way to the launch.
  BenchRequest too_large;
  too_large.shapes = {Shape{4, 2147483648, 4}};
  ASSERT_TRUE(ValidationError(too_large));
  EXPECT_EQ(*ValidationError(too_large),
            "size 4x2147483648x4: every dimension must be at most 2147483647 (the kernels take int sizes)");
  std::vector<Shape> parsed;
  EXPECT_FALSE(ParseShapes("2147483647", parsed));
  EXPECT_TRUE(ParseShapes("2147483648", parsed));

  BenchRequest no_reps;
  no_reps.reps = 0;
  EXPECT_TRUE(ValidationError(no_reps));
  BenchRequest negative_warmups;
  negative_warmups.warmups = -1;
  EXPECT_TRUE(ValidationError(negative_warmups));
}

TEST(ValidateRequest, RaceRequests) {
  EXPECT_FALSE(ValidationError(RaceRequest{}));
  RaceRequest bad_tile;
  bad_tile.tiles = {6};
  ASSERT_TRUE(ValidationError(bad_tile));
  EXPECT_NE(ValidationError(bad_tile)->find("TILE 6"), std::string::npos);
  RaceRequest no_trials;
  no_trials.trials = 0;
  EXPECT_TRUE(ValidationError(no_trials));
  EXPECT_EQ(ResolveTiles(RaceRequest{}), RaceTiles());
}

TEST(Tolerance, GrowsWithKAndIsLooserForTF32) {
  EXPECT_DOUBLE_EQ(Tolerance(Precision::kFp32, 1024, 1, 1), 2.0 * 1024 / (1 << 23));
  EXPECT_LT(Tolerance(Precision::kFp32, 256, 1, 1), Tolerance(Precision::kFp32, 4096, 1, 1));
  EXPECT_DOUBLE_EQ(Tolerance(Precision::kFp32, 64, 4, 2), 8 * Tolerance(Precision::kFp32, 64, 1, 1));
  for (std::int64_t k : {1, 64, 1024, 8192}) {
    EXPECT_GT(Tolerance(Precision::kTf32, k, 1, 1), Tolerance(Precision::kFp32, k, 1, 1)) << k;
  }
  EXPECT_NE(DescribeTolerance(Precision::kFp32, 1024, 1, 1).find("2·K·2^-23"), std::string::npos);
}

// A sweep's worst shape per kernel: unverified, failed and cuBLAS rows never count, and
// each kernel keeps its own lowest share and the shape it was at.
TEST(LowestShares, EachKernelsLowestVerifiedShareAndWhere) {
  const auto row = [](const std::string& kernel, Shape shape, double percent, const std::string& of, bool verified) {
    BenchResult r;
    r.kernel = kernel;
    r.shape = shape;
    r.percent_of_cublas = percent;
    r.percent_of = of;
    r.verified = verified;
    return r;
  };
  std::vector<BenchResult> results = {
      row("cublas_fp32", Shape::Square(1024), 100.0, "cublas_fp32", true),
      row("stream_k", Shape::Square(1024), 98.0, "cublas_fp32", true),
      row("all_async", Shape::Square(1024), 70.0, "cublas_fp32", true),
      row("stream_k", Shape{4097, 1025, 3}, 93.5, "cublas_fp32", true),
      row("stream_k", Shape::Square(2048), 50.0, "cublas_fp32", false),  // wrong C: its speed means nothing
      row("stream_k", Shape::Square(4096), 101.0, "cublas_fp32", true),
      row("mma_tf32", Shape::Square(4096), 36.0, "cublas_tf32", true)};
  results.push_back(row("all_async", Shape::Square(8192), 60.0, "cublas_fp32", true));
  results.back().error = "out of memory";
  const std::vector<LowestShare> lowest = LowestShares(results);
  ASSERT_EQ(lowest.size(), 3u);
  EXPECT_EQ(lowest[0].kernel, "stream_k");
  EXPECT_DOUBLE_EQ(lowest[0].percent, 93.5);
  EXPECT_EQ(lowest[0].shape, (Shape{4097, 1025, 3}));
  EXPECT_EQ(lowest[0].shapes, 3);
  EXPECT_EQ(lowest[1].kernel, "all_async");
  EXPECT_DOUBLE_EQ(lowest[1].percent, 70.0);
  EXPECT_EQ(lowest[1].shapes, 1);
  EXPECT_EQ(lowest[2].kernel, "mma_tf32");
  EXPECT_EQ(lowest[2].percent_of, "cublas_tf32");
}

TEST(ShapeText, SquareAndRectangular) {
  EXPECT_EQ(ToString(Shape::Square(4096)), "4096");
  EXPECT_EQ(ToString(Shape{37, 29, 53}), "37x29x53");
}

}  // namespace
}  // namespace kernels
