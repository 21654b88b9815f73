// Rung 12b (stream_k) at shapes nobody tuned for, on the GPU: every C within FP32's tolerance of
// cuBLAS SGEMM, and the same C bit for bit launch after launch. Without a GPU the test is
// skipped with the reason. How fast each shape runs is the bench's to say
// (docs/results/h200-fp32-shapes-2026-11-28-b.txt), not a timed test's.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/device.h"
#include "kernels/gpu_worker.h"
#include "kernels/registry.h"

namespace kernels {
namespace {

// The fixed grid. Each shape takes a path of 12b that the others do not, or the issue names it:
// - square powers of two: whole tiles and whole waves, every block one tile (2048², 4096²);
// - 1024³: 32 tiles for 132 SMs, every tile's K shared by about four blocks;
// - primes and x·128+1 (1031, 2053, 1153, 3201): rows not 16-byte aligned (4-byte copies), a
//   zero-filled edge tile along M and N and a partial last slice of K;
// - very rectangular: a tall and a wide C (whole waves), a deep K under a small C (each tile's
//   K shared by many blocks), and odd mixes of all three;
// - 2049×2049×512: 153 tiles shared by 132 blocks, so runs cross two tile boundaries;
// - C's edges where 10's 128×128 tile pads enough fewer FMAs than 128×256 to run instead, two
//   blocks per SM: 1031², 8191×1031 (4-byte copies), 8192×1088×516 (16-byte copies, a partial
//   last slice, and more tiles than two waves, so some blocks take one whole tile each), and
//   the tiny shapes below;
// - tiny and degenerate: one element, K below one slice, a grid of one tile.
const std::vector<Shape>& ShapeGrid() {
  static const std::vector<Shape> grid = {
      Shape::Square(2048),  Shape::Square(4096),   Shape::Square(1024),   Shape::Square(1031),
      Shape::Square(2053),  Shape::Square(1153),   Shape{3201, 1153, 2053}, Shape{8192, 1024, 1024},
      Shape{1024, 8192, 1024}, Shape{1024, 1024, 8192}, Shape{1031, 8191, 2053}, Shape{8191, 1031, 1153},
      Shape{2049, 2049, 512}, Shape{8192, 1088, 516}, Shape{4097, 1025, 3}, Shape{1, 1, 1},
      Shape{37, 29, 53}};
  return grid;
}

TEST(GpuShapes, StreamKIsRightAndRepeatableAtEveryShapeOfTheGrid) {
  const GpuStatus& status = ProbeGpu();
  if (!status.available) GTEST_SKIP() << "no GPU: " << status.reason;
  const KernelSpec& rung = *FindKernel("stream_k");
  GpuWorker worker(DefaultGpuWorkerOptions());
  const auto never = [] { return false; };
  for (const Shape& shape : ShapeGrid()) {
    SCOPED_TRACE(ToString(shape));
    ASSERT_FALSE(worker.OpenSession(shape, 11));
    const double tolerance = Tolerance(Precision::kFp32, shape.k, 1.0, 1.0);  // inputs in [-1, 1)
    std::vector<float> first, again;
    std::vector<double> times;
    std::string error;
    TsKernelRun run{};
    // One launch, then three more into the same C: a flag or slot left over from a launch
    // (or from the shape before) would make a later one add stale partial tiles.
    ASSERT_EQ(worker.Run(KernelIndex(rung), 0, 1, tolerance, never, run, times, &first, error), TS_OK) << error;
    EXPECT_EQ(run.wrong_elements, 0) << "against cuBLAS FP32, max error " << run.max_abs_error;
    ASSERT_EQ(worker.Run(KernelIndex(rung), 1, 2, tolerance, never, run, times, &again, error), TS_OK) << error;
    EXPECT_EQ(run.wrong_elements, 0) << "against cuBLAS FP32, max error " << run.max_abs_error;
    ASSERT_EQ(first.size(), static_cast<std::size_t>(shape.m * shape.n));
    ASSERT_EQ(again.size(), first.size());
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)), 0)
        << "the blocks sharing a tile add their partial sums in a fixed order: C must not change";
  }
}

}  // namespace
}  // namespace kernels
