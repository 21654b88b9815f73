// The GPU side, run where there is a device; elsewhere every test is skipped with the
// reason (no module, no driver, no device), which CTest reports as skipped.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <thread>

#include "kernels/device.h"
#include "kernels/gpu_module.h"
#include "kernels/gpu_worker.h"
#include "kernels/model_replay.h"
#include "kernels/occupancy.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "kernels/student_sweep.h"
#include "sim/model/mma_fragment.h"
#include "test_vector_generator.h"

namespace kernels {
namespace {

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const GpuStatus& status = ProbeGpu();
    if (!status.available) GTEST_SKIP() << "no GPU: " << status.reason;
  }

  // Runs `request` to the end and returns every result.
  static std::vector<BenchResult> RunAll(const BenchRequest& request) {
    Runner runner;
    const auto error = runner.Start(request);
    EXPECT_FALSE(error) << *error;
    runner.Wait();
    return runner.TakeResults();
  }
};

// Kernels that must compute C correctly at any shape: all but the race variants that can
// go wrong (barriers removed, or __syncwarp on a block of several warps) and the
// unguarded kernel, which is wrong by design on sizes that are not tile multiples; and
// only those that run on this GPU (mma_tf32 needs sm_80).
std::vector<std::string> CorrectKernels() {
  std::vector<std::string> names;
  const DeviceInfo& device = ProbeGpu().device;
  for (const KernelSpec* spec : AllKernels()) {
    if (!RunsOn(*spec, device.cc_major, device.cc_minor)) continue;
    const bool one_warp = spec->tile_m * spec->tile_n <= 32;
    const bool barriers_intact = spec->first_barrier != sim::SyncKind::kNone && spec->second_barrier != sim::SyncKind::kNone &&
                                 (spec->first_barrier == sim::SyncKind::kSyncthreads || one_warp);
    if (spec->guarded && (barriers_intact || IsCublas(*spec))) names.push_back(spec->name);
  }
  return names;
}

TEST_F(Gpu, DeviceIsDescribed) {
  const DeviceInfo& d = ProbeGpu().device;
  std::printf("%s, cc %d.%d, %d SMs, %.0f MHz, %.0f GB/s, FP32 peak %.0f GFLOPS\n", d.name.c_str(), d.cc_major,
              d.cc_minor, d.sm_count, d.clock_mhz, d.memory_bandwidth_gbs, d.fp32_peak_gflops);
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.sm_count, 0);
  EXPECT_GT(d.clock_mhz, 0);
  EXPECT_GT(d.total_memory_bytes, 0u);
  EXPECT_GT(d.fp32_peak_gflops, 0);
  EXPECT_FALSE(ProbeGpu().runtime_version.empty());
}

// L2 serves a buffer it holds faster than DRAM can (the roofline's L2 roof lies above the
// memory roof), and no faster than every SM taking 128 bytes a clock; a sweep measures it
// before its first kernel and its results carry it.
TEST_F(Gpu, L2BandwidthIsMeasuredAboveDramsAndBelowTheSmsIntake) {
  const DeviceInfo& d = ProbeGpu().device;
  GpuWorker worker(DefaultGpuWorkerOptions());
  double gbs = 0.0;
  std::string error;
  ASSERT_EQ(worker.MeasureL2Bandwidth(gbs, error), TS_OK) << error;
  std::printf("L2 bandwidth %.0f GB/s (DRAM %.0f GB/s)\n", gbs, d.memory_bandwidth_gbs);
  EXPECT_GT(gbs, d.memory_bandwidth_gbs);
  EXPECT_LT(gbs, d.sm_count * 128.0 * d.clock_mhz * 1e6 / 1e9);
  Runner runner;
  BenchRequest request;
  request.kernels = {"tiled16"};
  request.shapes = {Shape::Square(64)};
  ASSERT_FALSE(runner.Start(request));
  runner.Wait();
  EXPECT_GT(runner.MeasuredL2Bandwidth(), d.memory_bandwidth_gbs);
}

TEST_F(Gpu, EveryCorrectKernelMatchesCublasOnSquareAndOddShapes) {
  BenchRequest request;
  request.kernels = CorrectKernels();
  request.shapes = {Shape::Square(1), Shape{37, 29, 53}, Shape::Square(1000)};
  request.reps = 2;
  request.warmups = 1;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), request.kernels.size() * request.shapes.size());
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel + " at " + ToString(r.shape));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified) << "max error " << r.max_abs_error << " > " << r.tolerance << ", " << r.wrong_elements
                            << " wrong";
    EXPECT_EQ(r.reps, 2);
    EXPECT_GT(r.median_ms, 0);
    EXPECT_LE(r.min_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.max_ms);
    EXPECT_GT(r.gflops, 0);
    EXPECT_GT(r.percent_of_cublas, 0);
    if (!IsCublas(*FindKernel(r.kernel))) {
      EXPECT_GT(r.occupancy_blocks_per_sm, 0);
    }
  }
}

// The model replays fmaf in the kernel's order, so where the barriers hold its C is the
// GPU's to the bit (DESIGN.md: 0 of 10^6 elements differ at 1000³); the runner checks
// that at sizes up to kModelCheckMaxWork.
TEST_F(Gpu, TeachingKernelsMatchTheModelBitForBit) {
  BenchRequest request;
  for (const std::string& name : CorrectKernels()) {
    if (HasModel(*FindKernel(name))) request.kernels.push_back(name);
  }
  request.shapes = {Shape::Square(4), Shape{37, 29, 53}, Shape::Square(128)};
  request.reps = 1;
  request.warmups = 0;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), request.kernels.size() * request.shapes.size());
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel + " at " + ToString(r.shape));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.model_check, ModelCheck::kIdentical)
        << r.model_differing << " of " << r.shape.m * r.shape.n << " elements differ from the model";
  }
}

// The ladder's rungs against cuBLAS where they are meant to run fast: a size that fills
// the GPU, and a non-square one; the small and odd shapes are in the test above. Every
// rung records its math (FP32 FFMA, TF32 for 13) and has no model to check against.
TEST_F(Gpu, EveryLadderRungMatchesCublasAtLargeShapes) {
  BenchRequest request;
  const DeviceInfo& device = ProbeGpu().device;
  for (const KernelSpec* spec : AllKernels()) {
    if (spec->family == KernelFamily::kLadder && RunsOn(*spec, device.cc_major, device.cc_minor)) {
      request.kernels.push_back(spec->name);
    }
  }
  ASSERT_FALSE(request.kernels.empty());
  request.shapes = {Shape::Square(4096), Shape{4096, 1024, 2048}};
  request.reps = 2;
  request.warmups = 1;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), request.kernels.size() * request.shapes.size());
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel + " at " + ToString(r.shape));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified) << "max error " << r.max_abs_error << " > " << r.tolerance << ", " << r.wrong_elements
                            << " wrong";
    EXPECT_EQ(r.math, MathName(*FindKernel(r.kernel)));
    EXPECT_EQ(r.model_check, ModelCheck::kNotRun);
    EXPECT_GT(r.occupancy_blocks_per_sm, 0);
    EXPECT_EQ(r.threads_per_block, ThreadsPerBlock(*FindKernel(r.kernel)));
  }
}

// register_tile and all_async run their 128×256 tile where that grid keeps most SMs busy
// (4096², and the tall 4096×1024×2048 of the test above), else async_copy's 128×128 tile
// split along K in clusters (1024², 1000³, 256×256×4096) or unsplit (a 1024×4096 C whose
// 128×128 grid fills the GPU): C is right on every path, at odd sizes too (the first
// test). 1001×2050×333 mixes all_async's interior blocks with guarded edge blocks.
TEST_F(Gpu, RegisterTileIsRightOnEachOfItsPaths) {
  BenchRequest request;
  request.kernels = {"register_tile", "all_async", "async_copy"};
  request.shapes = {Shape::Square(1024), Shape::Square(1000), Shape{256, 256, 4096}, Shape{1024, 4096, 512},
                    Shape{1001, 2050, 333}};
  request.reps = 2;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 15u);
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel + " at " + ToString(r.shape));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified) << r.wrong_elements << " wrong, max error " << r.max_abs_error;
  }
}

// The largest |x − y| over two C of the same shape, and how many elements differ by more
// than `tolerance` (NaN counted).
struct Difference {
  double worst = 0;
  long long beyond = 0;
};
Difference Compare(const std::vector<float>& x, const std::vector<float>& y, double tolerance) {
  Difference d;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double difference = std::fabs(double(x[i]) - double(y[i]));
    if (!(difference <= tolerance)) ++d.beyond;
    if (difference > d.worst || std::isnan(difference)) d.worst = difference;
  }
  return d;
}

// Rungs 13 and 16 against cuBLAS TF32 itself, element by element: all three read A and B as
// TF32 and accumulate in FP32, so C may differ by their summation orders and roundings, each
// within the TF32 tolerance of the exact product (8·sqrt(K)·2^-11·max|A|·max|B|; cuBLAS
// rounds ties to even, 13's cvt.rna away from zero, 16's wgmma drops the low 13 bits).
// Shapes: 13's 256×128 tile (a grid of 256 blocks), its small 128×128 tile (1000³: 32 large
// tiles would leave SMs idle), and sizes off every multiple (odd K and N: rows not 16-byte
// aligned, the guarded copies for 13 and padded K-major copies for 16; K not a multiple of
// 32: a zero-filled last stage; 33×65×9: one partial tile, one stage). At 4096×2048×1024,
// 16's persistent blocks walk up to two tiles each. The runner's own check against cuBLAS
// FP32 holds too. A GPU without the rung's instructions refuses it with the reason: 13
// needs sm_80, 16 sm_90 exactly.
TEST_F(Gpu, TensorCoreTf32RungsMatchCublasTf32) {
  const DeviceInfo& device = ProbeGpu().device;
  const KernelSpec& cublas = *FindKernel("cublas_tf32");
  GpuWorker worker(DefaultGpuWorkerOptions());
  for (const Shape shape : {Shape{4096, 2048, 1024}, Shape::Square(1000), Shape{1025, 513, 257}, Shape{1001, 1003, 997},
                            Shape{33, 65, 9}}) {
    ASSERT_FALSE(worker.OpenSession(shape, 7));
    const double tolerance = Tolerance(Precision::kTf32, shape.k, 1.0, 1.0);  // inputs in [-1, 1)
    const auto never = [] { return false; };
    std::string error;
    TsKernelRun run{};
    std::vector<double> times;
    std::vector<float> c_cublas;
    ASSERT_EQ(worker.Run(KernelIndex(cublas), 0, 1, tolerance, never, run, times, &c_cublas, error), TS_OK) << error;
    for (const auto& [rung, refusal] : {std::pair{"mma_tf32", "mma_tf32 needs compute capability 8.0 or newer"},
                                        std::pair{"wgmma_tf32", "wgmma_tf32 needs sm_90"}}) {
      SCOPED_TRACE(std::string(rung) + " at " + ToString(shape));
      const KernelSpec& spec = *FindKernel(rung);
      std::vector<float> c;
      const TsStatus status = worker.Run(KernelIndex(spec), 1, 2, tolerance, never, run, times, &c, error);
      if (!RunsOn(spec, device.cc_major, device.cc_minor)) {
        EXPECT_EQ(status, TS_ERROR);
        EXPECT_NE(error.find(refusal), std::string::npos) << error;
        continue;
      }
      ASSERT_EQ(status, TS_OK) << error;
      EXPECT_EQ(run.wrong_elements, 0) << "against cuBLAS FP32, max error " << run.max_abs_error;
      ASSERT_EQ(c.size(), c_cublas.size());
      const Difference d = Compare(c, c_cublas, tolerance);
      std::printf("%s vs cuBLAS TF32 at %s: max |difference| %.3g, tolerance %.3g\n", rung, ToString(shape).c_str(),
                  d.worst, tolerance);
      EXPECT_EQ(d.beyond, 0) << "max |difference| " << d.worst << " > " << tolerance;
    }
  }
}

// The cells ts_mma_fragment takes (gpu_abi.h), from the model's layout; `swap_c12` claims
// D's registers c1 and c2 the other way round, a layout that is wrong.
std::vector<int> FragmentCells(bool swap_c12) {
  std::vector<int> cells(3 * 32 * 4 * 2, -1);
  for (const sim::MmaOperand operand : {sim::MmaOperand::kA, sim::MmaOperand::kB, sim::MmaOperand::kC}) {
    for (int lane = 0; lane < sim::kWarpLanes; ++lane) {
      for (int reg = 0; reg < sim::FragmentRegisters(operand); ++reg) {
        const bool swapped = swap_c12 && operand == sim::MmaOperand::kC && (reg == 1 || reg == 2);
        const sim::MatrixCell cell = sim::FragmentCell(operand, lane, swapped ? 3 - reg : reg);
        const std::size_t at = ((static_cast<std::size_t>(operand) * 32 + lane) * 4 + reg) * 2;
        cells[at] = cell.row;
        cells[at + 1] = cell.column;
      }
    }
  }
  return cells;
}

// The fragment lesson's layout (sim/model/mma_fragment.h) is the tensor cores': lane l puts
// 4·l + r into register r of its A fragment, B is the identity placed by the model's B
// layout, and the tensor cores' D = A, stored by the model's C layout, must read back as the
// model's owner of every element of A; likewise for B with A's rows 0–7 the identity. Both
// pass only if the model's A, B and C layouts all hold. A layout claiming D's c1 and c2 the
// other way round is caught. On a GPU older than sm_80 the probe is refused with the reason.
TEST_F(Gpu, TheTensorCoresPlaceEachLanesFragmentWhereTheModelSays) {
  const DeviceInfo& device = ProbeGpu().device;
  const GpuModule* module = ActiveGpuModule();
  ASSERT_NE(module, nullptr);
  const std::vector<int> cells = FragmentCells(false);
  for (const sim::MmaOperand operand : {sim::MmaOperand::kA, sim::MmaOperand::kB}) {
    SCOPED_TRACE(sim::OperandName(operand));
    float lanes[sim::kMmaM * sim::kMmaN];
    char error[512] = {};
    const TsStatus status = module->mma_fragment(static_cast<int>(operand), cells.data(), lanes, error, sizeof error);
    if (device.cc_major < 8) {
      EXPECT_EQ(status, TS_ERROR);
      EXPECT_NE(std::string(error).find("needs compute capability 8.0"), std::string::npos) << error;
      continue;
    }
    ASSERT_EQ(status, TS_OK) << error;
    const sim::FragmentMap map = sim::MapFragment(operand);
    int matching = 0;
    for (int row = 0; row < map.rows; ++row) {
      for (int column = 0; column < map.columns; ++column) {
        const sim::FragmentOwner& owner = map.At(row, column);
        const float seen = lanes[row * sim::kMmaN + column];
        EXPECT_EQ(seen, float(4 * owner.lane + owner.reg)) << "row " << row << " column " << column;
        matching += seen == float(4 * owner.lane + owner.reg);
      }
    }
    std::printf("mma m16n8k8 TF32 %s: %d of %d elements where the model says\n", sim::OperandName(operand), matching,
                map.rows * map.columns);
  }
  if (device.cc_major < 8) return;
  float lanes[sim::kMmaM * sim::kMmaN];
  char error[512] = {};
  ASSERT_EQ(module->mma_fragment(0, FragmentCells(true).data(), lanes, error, sizeof error), TS_OK) << error;
  const sim::FragmentMap a = sim::MapFragment(sim::MmaOperand::kA);
  int wrong = 0;
  for (int i = 0; i < sim::kMmaM * sim::kMmaN; ++i) {
    wrong += lanes[i] != float(4 * a.owners[i].lane + a.owners[i].reg);
  }
  EXPECT_EQ(wrong, 64) << "swapping c1 and c2 moves half of D";
}

// Rungs 14, 15 and 17 against cuBLAS BF16 itself, element by element. All multiply the same BF16
// copies of A and B (the session makes them once) and accumulate in FP32, so their C may
// differ only by summation order: FP32's tolerance, 2·K·2^-23·max|A|·max|B|, not BF16's.
// The runner's check against cuBLAS FP32 holds with BF16's tolerance. Shapes: 4096×2048×1024
// (full tiles, 16 stages of K), 1000³ (edge tiles in M and N, K not a multiple of 64), odd
// sizes whose rows are padded to 8 elements (1025×513×257, 1001×1003×997), and 33×65×9 (one
// partial tile, one stage); at the first, 15's and 17's persistent blocks walk up to two
// tiles each. 17's stores take 16-byte pieces where N is a multiple of 4 (4096, 1000) and
// single floats elsewhere (513, 1003, 65).
// Any GPU but compute capability 9.0 refuses the rungs with the reason (tested from sm_80
// on, where cuBLAS BF16 runs).
TEST_F(Gpu, WgmmaBf16MatchesCublasBf16) {
  const DeviceInfo& device = ProbeGpu().device;
  const KernelSpec& cublas = *FindKernel("cublas_bf16");
  if (!RunsOn(cublas, device.cc_major, device.cc_minor)) GTEST_SKIP() << "cuBLAS BF16 needs sm_80";
  GpuWorker worker(DefaultGpuWorkerOptions());
  for (const Shape shape : {Shape{4096, 2048, 1024}, Shape::Square(1000), Shape{1025, 513, 257}, Shape{1001, 1003, 997},
                            Shape{33, 65, 9}}) {
    ASSERT_FALSE(worker.OpenSession(shape, 7));
    const double tolerance = Tolerance(Precision::kBf16, shape.k, 1.0, 1.0);  // inputs in [-1, 1)
    const double same_inputs = Tolerance(Precision::kFp32, shape.k, 1.0, 1.0);
    const auto never = [] { return false; };
    std::string error;
    TsKernelRun run{};
    std::vector<double> times;
    std::vector<float> c_cublas;
    ASSERT_EQ(worker.Run(KernelIndex(cublas), 0, 1, tolerance, never, run, times, &c_cublas, error), TS_OK) << error;
    for (const char* rung : {"wgmma_bf16", "warp_specialized", "staged_epilogue"}) {
      SCOPED_TRACE(std::string(rung) + " at " + ToString(shape));
      const KernelSpec& spec = *FindKernel(rung);
      std::vector<float> c;
      const TsStatus status = worker.Run(KernelIndex(spec), 1, 2, tolerance, never, run, times, &c, error);
      if (!RunsOn(spec, device.cc_major, device.cc_minor)) {
        EXPECT_EQ(status, TS_ERROR);
        EXPECT_NE(error.find(std::string(rung) + " needs sm_90"), std::string::npos) << error;
        continue;
      }
      ASSERT_EQ(status, TS_OK) << error;
      EXPECT_EQ(run.wrong_elements, 0) << "against cuBLAS FP32, max error " << run.max_abs_error;
      ASSERT_EQ(c.size(), c_cublas.size());
      const Difference d = Compare(c, c_cublas, same_inputs);
      std::printf("%s vs cuBLAS BF16 at %s: max |difference| %.3g, tolerance %.3g\n", rung, ToString(shape).c_str(),
                  d.worst, same_inputs);
      EXPECT_EQ(d.beyond, 0) << "max |difference| " << d.worst << " > " << same_inputs;
    }
  }
}

// "% of cuBLAS" divides by cuBLAS of the kernel's own precision, timed in the same session:
// FP32 rows by cuBLAS SGEMM, mma_tf32 by cuBLAS TF32, wgmma_bf16 by cuBLAS BF16 (where it
// runs); each cuBLAS row by itself, 100%.
TEST_F(Gpu, PercentOfCublasIsOfTheSamePrecision) {
  const DeviceInfo& device = ProbeGpu().device;
  BenchRequest request;
  for (const char* name :
       {"all_async", "mma_tf32", "wgmma_bf16", "wgmma_tf32", "cublas_fp32", "cublas_tf32", "cublas_bf16"}) {
    if (RunsOn(*FindKernel(name), device.cc_major, device.cc_minor)) request.kernels.push_back(name);
  }
  request.shapes = {Shape::Square(2048)};
  request.reps = 3;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), request.kernels.size());
  std::map<std::string, double> cublas_ms;
  for (const BenchResult& r : results) {
    if (IsCublas(*FindKernel(r.kernel))) cublas_ms[r.kernel] = r.median_ms;
  }
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel);
    ASSERT_TRUE(r.ok()) << r.error;
    const std::string reference = ReferenceFor(FindKernel(r.kernel)->precision).name;
    EXPECT_EQ(r.percent_of, reference);
    ASSERT_EQ(cublas_ms.count(reference), 1u);
    EXPECT_NEAR(r.percent_of_cublas, 100.0 * cublas_ms[reference] / r.median_ms, 1e-9);
  }
}

// Interleaved, each kernel is timed reps times in turn with cuBLAS of its precision, verified
// after every launch; its % of cuBLAS is not the one from the cuBLAS row timed on its own.
TEST_F(Gpu, InterleavedLaunchesGiveEachKernelItsOwnCublasTiming) {
  const DeviceInfo& device = ProbeGpu().device;
  BenchRequest request;
  for (const char* name : {"all_async", "wgmma_tf32", "cublas_fp32", "cublas_tf32"}) {
    if (RunsOn(*FindKernel(name), device.cc_major, device.cc_minor)) request.kernels.push_back(name);
  }
  request.shapes = {Shape::Square(1024)};
  request.reps = 5;
  request.interleave = true;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), request.kernels.size());
  std::map<std::string, double> alone_ms;
  for (const BenchResult& r : results) {
    if (IsCublas(*FindKernel(r.kernel))) alone_ms[r.kernel] = r.median_ms;
  }
  for (const BenchResult& r : results) {
    SCOPED_TRACE(r.kernel);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(r.reps, 5);
    EXPECT_EQ(r.percent_of, ReferenceFor(FindKernel(r.kernel)->precision).name);
    if (IsCublas(*FindKernel(r.kernel))) continue;
    // Timed again beside the kernel: the same figure only by a coincidence of 5 launches' medians.
    EXPECT_NE(r.percent_of_cublas, 100.0 * alone_ms[r.percent_of] / r.median_ms);
  }
}

TEST_F(Gpu, ModelCheckIsSkippedForCublasAndLargeSizes) {
  BenchRequest request;
  request.kernels = {"tiled16", "cublas_fp32"};
  request.shapes = {Shape::Square(64), Shape::Square(256)};
  request.reps = 1;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].model_check, ModelCheck::kIdentical) << "tiled16 at 64";
  EXPECT_EQ(results[1].model_check, ModelCheck::kNotRun) << "cuBLAS has no model";
  EXPECT_EQ(results[2].model_check, ModelCheck::kNotRun) << "256³ is above kModelCheckMaxWork";
}

TEST_F(Gpu, UnguardedKernelIsWrongOffTheTileGridAndRightOnIt) {
  BenchRequest request;
  request.kernels = {"tiled16_unguarded"};
  request.shapes = {Shape::Square(1000), Shape::Square(1024)};
  request.reps = 1;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[0].ok()) << results[0].error;
  EXPECT_FALSE(results[0].verified) << "the tail tile is skipped at 1000";
  EXPECT_GT(results[0].wrong_elements, 0);
  ASSERT_TRUE(results[1].ok()) << results[1].error;
  EXPECT_TRUE(results[1].verified);
}

TEST_F(Gpu, SmallIntegerProductsAreExact) {
  const kernels_test::GeneratedCase g = kernels_test::MakeCase(37, 53, 29, 11);
  const Shape shape{g.m, g.cols, g.inner};
  for (const char* name : {"naive", "tiled2", "tiled16", "tiled32", "rect32x16x16", "cublas_fp32"}) {
    std::vector<float> c;
    const auto error = ComputeOnGpu(*FindKernel(name), shape, g.a, g.b, c);
    ASSERT_FALSE(error) << *error;
    EXPECT_EQ(c, g.c) << name;
  }
}

TEST_F(Gpu, CancelStopsWithinOneLaunch) {
  BenchRequest request;
  request.kernels = {"naive"};
  request.shapes = {Shape::Square(4096), Shape::Square(8192)};
  request.reps = 1000;  // minutes of work if nothing stops it
  Runner runner;
  ASSERT_FALSE(runner.Start(request));
  while (runner.LastProgress().total == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto cancelled_at = std::chrono::steady_clock::now();
  runner.Cancel();
  ASSERT_TRUE(runner.Wait(std::chrono::seconds(10)));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelled_at).count();
  std::printf("stopped %.3f s after Cancel\n", seconds);
  // One naive launch at 4096 takes tens of milliseconds on current GPUs.
  EXPECT_LT(seconds, 1.0);
  EXPECT_TRUE(runner.WasCancelled());
  EXPECT_TRUE(runner.TakeResults().empty()) << "a half-measured kernel is not a result";
}

// A size whose buffers cannot fit the device is refused before anything runs, with the
// message the live panel's sizes field gives (kernels::DeviceMemoryError); without it the
// request runs.
TEST_F(Gpu, ASizeThatCannotFitIsRefusedUpFront) {
  BenchRequest request;
  request.kernels = {"tiled16", "cublas_fp32"};
  request.shapes = {Shape::Square(200000), Shape::Square(64)};
  request.reps = 1;
  Runner runner;
  const std::optional<std::string> refused = runner.Start(request);
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, *DeviceMemoryError(Shape::Square(200000), ResolveKernels(request), ProbeGpu().device.total_memory_bytes));
  EXPECT_FALSE(runner.Running());
  request.shapes = {Shape::Square(64)};
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 2u);
  for (const BenchResult& result : results) {
    EXPECT_TRUE(result.ok()) << result.error;
    EXPECT_TRUE(result.verified);
  }
}

// An exception on the worker thread once reached std::terminate and ended `bench`.
TEST_F(Gpu, ExceptionOnTheWorkerStopsTheRunAndIsReported) {
  BenchRequest request;
  request.kernels = {"tiled16"};
  request.shapes = {Shape::Square(64)};
  request.reps = 1;
  Runner runner;
  Runner::Callbacks callbacks;
  callbacks.on_result = [](const BenchResult&) { throw std::runtime_error("a callback failed"); };
  ASSERT_FALSE(runner.Start(request, callbacks));
  ASSERT_TRUE(runner.Wait(std::chrono::seconds(60)));
  ASSERT_TRUE(runner.Failure());
  EXPECT_EQ(*runner.Failure(), "a callback failed");
  // The next run starts without the old failure.
  ASSERT_FALSE(runner.Start(request));
  runner.Wait();
  EXPECT_FALSE(runner.Failure());
  EXPECT_EQ(runner.TakeResults().size(), 2u) << "the throwing run's result, then the clean run's";
}

TEST_F(Gpu, GridBeyondTheDeviceLimitIsAnErrorValue) {
  BenchRequest request;
  request.kernels = {"tiled2"};
  request.shapes = {Shape{200000, 2, 2}};  // 100000 blocks along y; the limit is 65535
  request.reps = 1;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].ok());
  EXPECT_NE(results[0].error.find("grid"), std::string::npos) << results[0].error;
}

TEST_F(Gpu, RaceRunCountsDifferingElements) {
  RaceRequest request;
  request.tiles = {2, 16};
  request.shapes = {Shape::Square(1024)};
  request.trials = 2;
  Runner runner;
  ASSERT_FALSE(runner.StartRace(request));
  runner.Wait();
  std::map<std::string, RaceResult> by_kernel;
  for (const RaceResult& r : runner.TakeRaceResults()) by_kernel[r.kernel] = r;
  ASSERT_EQ(by_kernel.size(), 8u);
  for (const auto& [name, r] : by_kernel) {
    ASSERT_TRUE(r.ok()) << name << ": " << r.error;
    ASSERT_EQ(r.differing_per_trial.size(), 2u) << name;
    std::printf("%-18s %lld %lld of %lld\n", name.c_str(), static_cast<long long>(r.differing_per_trial[0]),
                static_cast<long long>(r.differing_per_trial[1]), static_cast<long long>(r.elements()));
  }
  // Eight warps per block, no first barrier: most of C reads a tile before it is stored.
  EXPECT_GT(by_kernel["tiled16_nosync1"].differing_per_trial[0], 0);
  // One warp in lockstep: __syncwarp is a real barrier for it.
  EXPECT_EQ(by_kernel["tiled2_syncwarp"].differing_per_trial[0], 0);
}

// The occupancy view's arithmetic (sim/model/occupancy.h) with the device's own limits and the
// registers cudaFuncGetAttributes reports must give the device's answer,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, for every kernel the model runs; and its
// shared memory per block must be what the compiler allocated.
TEST_F(Gpu, OccupancyModelMatchesTheDevice) {
  std::string reason;
  const std::optional<sim::GpuLimits> gpu = PresentGpuLimits(reason);
  ASSERT_TRUE(gpu.has_value()) << reason;
  int checked = 0;
  for (const KernelSpec* spec : AllKernels()) {
    if (!HasModel(*spec)) continue;
    SCOPED_TRACE(spec->name);
    std::string error;
    const std::optional<DeviceKernelResources> device = MeasureOnDevice(*spec, error);
    ASSERT_TRUE(device.has_value()) << error;
    const std::optional<sim::LessonConfig> lesson = ModelLessonFor(*spec, Shape::Square(64));
    ASSERT_TRUE(lesson.has_value());
    sim::BlockDemand demand = sim::DemandOf(sim::KernelChoice::Of(*lesson));
    EXPECT_EQ(demand.threads, device->threads_per_block);
    EXPECT_EQ(demand.shared_bytes, device->static_shared_bytes);
    demand.registers_per_thread = device->registers_per_thread;
    const sim::Occupancy model = sim::ComputeOccupancy(demand, *gpu);
    std::printf("%-24s %3d threads %5d B %2d regs: model %2d blocks/SM (%s), device %2d\n", spec->name,
                demand.threads, demand.shared_bytes, demand.registers_per_thread, model.blocks_per_sm,
                sim::LimitingText(model).c_str(), device->blocks_per_sm);
    EXPECT_EQ(model.blocks_per_sm, device->blocks_per_sm);
    // The recorded table holds this architecture's ptxas figure when the build compiled for it.
    const std::optional<int> recorded = sim::RecordedRegisters(spec->name, gpu->cc_major, gpu->cc_minor);
    if (recorded && gpu->cc_major * 10 + gpu->cc_minor == 90) {
      EXPECT_EQ(*recorded, device->registers_per_thread);
    }
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

// --- Faults: the kernels run in a worker process (gpu_worker.h) ---

// Sets the worker's test hooks for the workers started in this scope (a worker reads its
// environment when it starts).
class TestHooks {
 public:
  explicit TestHooks(const char* value) { setenv(worker::kTestHooksVariable, value, 1); }
  ~TestHooks() { unsetenv(worker::kTestHooksVariable); }
};

// An illegal address poisons the worker's context for good: the worker reports it and
// exits, the app stays, and a fresh worker runs the next kernel of the sweep correctly.
TEST_F(Gpu, AFaultEndsOnlyTheWorkerAndTheSweepGoesOn) {
  const TestHooks hooks("fault:tiled16");  // the worker runs a write far out of bounds for tiled16
  BenchRequest request;
  request.kernels = {"tiled16", "tiled32"};
  request.shapes = {Shape::Square(512)};
  request.reps = 2;
  std::map<std::string, BenchResult> by_kernel;
  for (const BenchResult& result : RunAll(request)) by_kernel[result.kernel] = result;
  ASSERT_EQ(by_kernel.size(), 2u);
  const std::string& fault = by_kernel["tiled16"].error;
  std::printf("tiled16: %s\n", fault.c_str());
  EXPECT_EQ(fault.rfind("the GPU worker faulted: cudaErrorIllegalAddress", 0), 0u) << fault;
  EXPECT_NE(fault.find("while running tiled16 at 512×512×512; a fresh worker was started"), std::string::npos);
  const BenchResult& next = by_kernel["tiled32"];
  std::printf("tiled32 after the fault: %s, %.1f GFLOPS, %lld wrong\n", next.ok() ? "ok" : next.error.c_str(),
              next.gflops, static_cast<long long>(next.wrong_elements));
  EXPECT_TRUE(next.ok()) << next.error;
  EXPECT_TRUE(next.verified);
}

// The same through the worker's own test entry, and its process: the faulted worker is
// gone and reaped, the fresh one computes C right in a reopened session.
TEST_F(Gpu, AFaultedWorkerIsReplacedAndTheNextRequestIsRight) {
  const TestHooks hooks("on");
  GpuWorker worker(DefaultGpuWorkerOptions());
  ASSERT_FALSE(worker.OpenSession(Shape::Square(256), 1));
  const pid_t first = worker.pid();
  std::string error;
  EXPECT_EQ(worker.TestFault(error), TS_ERROR);
  std::printf("test fault: %s\n", error.c_str());
  EXPECT_EQ(error.rfind("the GPU worker faulted: cudaErrorIllegalAddress", 0), 0u) << error;
  EXPECT_NE(worker.pid(), first);
  EXPECT_EQ(worker.restarts(), 1);
  EXPECT_EQ(waitpid(first, nullptr, WNOHANG), -1) << "the faulted worker was reaped";
  TsKernelRun run{};
  std::vector<double> times;
  ASSERT_EQ(worker.Run(KernelIndex(*FindKernel("tiled16")), 1, 3, 1e-3, [] { return false; }, run, times, nullptr,
                       error),
            TS_OK)
      << error;
  EXPECT_EQ(run.reps_done, 3);
  EXPECT_EQ(run.wrong_elements, 0);
}

// Device memory taken by another process first: a size that passes the runner's check
// against the device's total is refused for lack of free memory, as an error value, and
// the sweep's next size runs.
TEST_F(Gpu, OutOfMemoryAtASizeThatPassedThePreCheckIsAnErrorValue) {
  const TestHooks hooks("on");
  GpuWorker filler(DefaultGpuWorkerOptions());
  std::uint64_t held = 0;
  std::string error;
  constexpr std::uint64_t kLeave = 2ull << 30;  // room for the runner's worker and the small size
  ASSERT_EQ(filler.TestHoldMemory(kLeave, held, error), TS_OK) << error;
  std::printf("another process holds %.1f GiB\n", static_cast<double>(held) / (1ull << 30));
  BenchRequest request;
  request.kernels = {"tiled32"};
  request.shapes = {Shape::Square(16384), Shape::Square(256)};  // 16384: 4 GiB of buffers
  request.reps = 1;
  ASSERT_FALSE(DeviceMemoryError(request.shapes[0], ResolveKernels(request), ProbeGpu().device.total_memory_bytes));
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 2u);
  std::printf("16384: %s\n", results[0].error.c_str());
  EXPECT_NE(results[0].error.find("out of memory"), std::string::npos) << results[0].error;
  EXPECT_TRUE(results[1].ok()) << results[1].error;
  EXPECT_TRUE(results[1].verified);
}

// An allocation that fails after every check passed: another process leaves just about the
// buffers' bytes free, so the free-memory check inside the worker passes and cudaMalloc (or
// cuBLAS) then runs short. Where that window lies depends on allocation granularity and
// cuBLAS's workspace, so the memory left is stepped across it 2 MiB at a time. Every
// failure must be an error value in a worker that lives on (out of memory is not sticky),
// and the next request after it must compute C right.
TEST_F(Gpu, AnAllocationThatFailsAfterTheChecksIsAnErrorValueAndTheWorkerLivesOn) {
  const TestHooks hooks("on");
  const Shape big = Shape::Square(8192);
  const Shape small = Shape::Square(64);
  const auto needed = static_cast<std::int64_t>(BuffersFor(big.m, big.n, big.k).Bytes());
  constexpr std::int64_t kStep = 2 << 20;
  const int tiled16 = KernelIndex(*FindKernel("tiled16"));
  GpuWorker worker(DefaultGpuWorkerOptions());
  int refused = 0, failed = 0, fitted = 0;
  for (std::int64_t leave = needed - 8 * kStep; leave <= needed + 32 * kStep && fitted == 0; leave += kStep) {
    std::string error;
    ASSERT_FALSE(worker.OpenSession(small, 1)) << "the small session before the fill";
    std::optional<std::string> outcome;
    {
      GpuWorker filler(DefaultGpuWorkerOptions());
      std::uint64_t held = 0;
      ASSERT_EQ(filler.TestHoldMemory(static_cast<std::uint64_t>(leave), held, error), TS_OK) << error;
      outcome = worker.OpenSession(big, 1);
    }
    const bool precheck = outcome && outcome->find("free") != std::string::npos;
    refused += precheck ? 1 : 0;
    failed += outcome && !precheck ? 1 : 0;
    fitted += outcome ? 0 : 1;
    std::printf("left %+5.0f MiB beyond the buffers: %s\n", static_cast<double>(leave - needed) / (1 << 20),
                outcome ? outcome->c_str() : "fits");
    if (outcome && !precheck) {
      EXPECT_TRUE(outcome->find("out of memory") != std::string::npos ||
                  outcome->find("ALLOC_FAILED") != std::string::npos)
          << *outcome;
      // The next request, in the same worker: C right.
      ASSERT_FALSE(worker.OpenSession(small, 1));
      TsKernelRun run{};
      std::vector<double> times;
      ASSERT_EQ(worker.Run(tiled16, 0, 1, 1e-3, [] { return false; }, run, times, nullptr, error), TS_OK) << error;
      EXPECT_EQ(run.wrong_elements, 0);
    }
  }
  std::printf("%d refused by the free-memory check, %d failed allocating, %d fitted; %d worker restarts\n", refused,
              failed, fitted, worker.restarts());
  EXPECT_GT(failed, 0) << "no step landed between the check and the allocations";
  EXPECT_EQ(worker.restarts(), 0) << "out of memory is not a fault";
}

// Cancel while a launch runs that ignores it (a test kernel spinning for a minute): the
// worker gets the grace period, is killed, and the next run starts in a fresh worker.
TEST_F(Gpu, ASweepCancelledInAHungLaunchEndsAndTheNextRunWorks) {
  Runner runner;
  {
    const TestHooks hooks("hang:naive");
    BenchRequest request;
    request.kernels = {"naive"};
    request.shapes = {Shape::Square(1024)};
    request.reps = 5;
    ASSERT_FALSE(runner.Start(request));
    while (runner.LastProgress().total == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // cuBLAS is measured, naive spins
    const auto cancelled_at = std::chrono::steady_clock::now();
    runner.Cancel();
    ASSERT_TRUE(runner.Wait(std::chrono::seconds(30)));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelled_at).count();
    std::printf("hung launch: stopped %.3f s after Cancel (grace %.1f s, then a fresh worker)\n", seconds,
                std::chrono::duration<double>(GpuWorkerOptions{}.grace).count());
    EXPECT_GE(seconds, std::chrono::duration<double>(GpuWorkerOptions{}.grace).count());
    EXPECT_LT(seconds, 20.0);
    EXPECT_TRUE(runner.WasCancelled());
    EXPECT_TRUE(runner.TakeResults().empty());
  }
  // Not naive: the fresh worker started while the hook was set, and would spin again.
  BenchRequest request;
  request.kernels = {"tiled16", "tiled32"};
  request.shapes = {Shape::Square(256)};
  request.reps = 2;
  ASSERT_FALSE(runner.Start(request));
  runner.Wait();
  const std::vector<BenchResult> results = runner.TakeResults();
  ASSERT_EQ(results.size(), 2u);
  for (const BenchResult& result : results) {
    EXPECT_TRUE(result.ok()) << result.error;
    EXPECT_TRUE(result.verified) << result.kernel;
  }
}

// A student's kernel in a sweep: compiled with NVRTC in the worker, timed at each size beside the
// rungs, its C checked against cuBLAS FP32's from the same A and B. The figures are printed for
// the results file of the run.
TEST_F(Gpu, AStudentKernelIsTimedInASweepAndItsCIsCheckedAgainstCublas) {
  std::string problem;
  BenchRequest request;
  request.kernels = {"cublas_fp32", "tiled16"};
  request.shapes = {Shape::Square(1024), Shape::Square(2048), Shape{1000, 37, 129}};
  request.student = LoadSweepStudent(TILESCOPE_SOURCE_DIR "/tests/corpus/tiled_correct.cu", {}, problem);
  ASSERT_TRUE(request.student) << problem;
  int timed = 0;
  for (const BenchResult& r : RunAll(request)) {
    std::printf("%-12s %-12s %10.1f GFLOPS %6.1f%% of %s, verified %d, wrong %lld, max error %g\n", r.kernel.c_str(),
                ToString(r.shape).c_str(), r.gflops, r.percent_of_cublas, r.percent_of.c_str(), r.verified,
                static_cast<long long>(r.wrong_elements), r.max_abs_error);
    if (!IsStudentResult(r)) continue;
    ++timed;
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.verified) << ToString(r.shape) << ": " << r.wrong_elements << " wrong, max error " << r.max_abs_error;
    EXPECT_EQ(r.reps, request.reps);
    EXPECT_GT(r.gflops, 0.0);
    EXPECT_EQ(r.percent_of, "cublas_fp32");
    EXPECT_GT(r.percent_of_cublas, 0.0);
    EXPECT_EQ(r.label, request.student->label);
  }
  EXPECT_EQ(timed, 3);
}

// A kernel that reads B transposed is wrong at a square size: a result with its wrong
// elements counted, not a speed.
TEST_F(Gpu, AWrongStudentKernelIsMarkedWrongInASweep) {
  std::string problem;
  BenchRequest request;
  request.kernels = {"cublas_fp32"};
  request.shapes = {Shape::Square(512)};
  request.student = LoadSweepStudent(TILESCOPE_SOURCE_DIR "/tests/corpus/wrong_b_read_transposed.cu", {}, problem);
  ASSERT_TRUE(request.student) << problem;
  const std::vector<BenchResult> results = RunAll(request);
  ASSERT_EQ(results.size(), 2u);
  const BenchResult& r = results.back();
  ASSERT_TRUE(IsStudentResult(r));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.verified);
  EXPECT_GT(r.wrong_elements, 512 * 512 / 2);
}

}  // namespace
}  // namespace kernels
