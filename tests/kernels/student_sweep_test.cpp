// A student's kernel in a sweep, on the CPU side: what is refused before any GPU is asked
// (the file, its signature, the sizes), the request's validation, and its results in a saved
// file. The GPU side (timed, C against cuBLAS) is in gpu_test.cpp.
#include "kernels/student_sweep.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "kernels/results_file.h"

namespace kernels {
namespace {

const std::string kCorpus = std::string(TILESCOPE_SOURCE_DIR) + "/tests/corpus/";
const std::string kAppTests = std::string(TILESCOPE_SOURCE_DIR) + "/tests/app/";

std::string WriteKernel(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::shared_ptr<const SweepStudent> Load(const std::string& path, std::string& problem) {
  return LoadSweepStudent(path, sim::KernelLessonOptions{}, problem);
}

TEST(StudentSweep, TheTiledCorpusKernelLoadsWithItsLaunch) {
  std::string problem;
  const auto student = Load(kCorpus + "tiled_correct.cu", problem);
  ASSERT_TRUE(student) << problem;
  EXPECT_EQ(student->file_name, "tiled_correct.cu");
  EXPECT_EQ(student->label, "your kernel: " + student->file.kernel.name + " (tiled_correct.cu)");
  EXPECT_GT(student->block[0] * student->block[1], 1);
  EXPECT_FALSE(StudentShapeError(*student, Shape::Square(2048)));
  EXPECT_FALSE(StudentShapeError(*student, Shape{1000, 37, 129}));
}

TEST(StudentSweep, AFileThatIsNotThereOrNotAFileIsNamed) {
  std::string problem;
  EXPECT_FALSE(Load(::testing::TempDir() + "no_such_kernel.cu", problem));
  EXPECT_NE(problem.find("no_such_kernel.cu"), std::string::npos) << problem;
  EXPECT_NE(problem.find("no such file"), std::string::npos) << problem;
  EXPECT_FALSE(Load(::testing::TempDir(), problem));
  EXPECT_NE(problem.find("folder"), std::string::npos) << problem;
}

TEST(StudentSweep, UnsupportedSourceIsRefusedAtItsLine) {
  std::string problem;
  EXPECT_FALSE(Load(kAppTests + "check_refused.cu", problem));
  EXPECT_NE(problem.find("check_refused.cu:3:"), std::string::npos) << problem;
}

TEST(StudentSweep, AKernelWithoutACIsRefused) {
  std::string problem;
  EXPECT_FALSE(Load(kAppTests + "sweep_no_c.cu", problem));
  EXPECT_NE(problem.find("takes no pointer for C"), std::string::npos) << problem;
}

TEST(StudentSweep, AKernelWhoseSizeIsFixedIsRefused) {
  std::string problem;
  EXPECT_FALSE(Load(kAppTests + "sweep_fixed_size.cu", problem));
  EXPECT_NE(problem.find("fixed takes no size"), std::string::npos) << problem;
}

TEST(StudentSweep, AParameterItCannotBindIsNamed) {
  std::string problem;
  EXPECT_FALSE(Load(kAppTests + "check_unbound.cu", problem));
  EXPECT_NE(problem.find("cannot bind the parameter extra"), std::string::npos) << problem;
}

TEST(StudentSweep, ASquareKernelRefusesARectangularShape) {
  std::string problem;
  const auto student = Load(kCorpus + "naive_square_while.cu", problem);
  ASSERT_TRUE(student) << problem;
  EXPECT_FALSE(StudentShapeError(*student, Shape::Square(1024)));
  const auto error = StudentShapeError(*student, Shape{64, 32, 16});
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("at n = 64x32x16"), std::string::npos) << *error;
  EXPECT_NE(error->find("one size"), std::string::npos) << *error;
}

TEST(StudentSweep, ShapesPastAGpusGridOrTheIntIndicesAreRefused) {
  std::string problem;
  const auto student = Load(kCorpus + "tiled_correct.cu", problem);
  ASSERT_TRUE(student) << problem;
  // Blocks along y: M / block y; a GPU launches at most 65535 there.
  const std::int64_t rows = 65536LL * student->block[1];
  const auto grid = StudentShapeError(*student, Shape{rows, 1, 1});
  ASSERT_TRUE(grid);
  EXPECT_NE(grid->find("65536 blocks along y"), std::string::npos) << *grid;
  EXPECT_FALSE(StudentShapeError(*student, Shape{rows - student->block[1], 1, 1}));
  // 46341² is the first square past 2^31 - 1 elements.
  const auto indices = StudentShapeError(*student, Shape{46341, 46341, 1});
  ASSERT_TRUE(indices);
  EXPECT_NE(indices->find(std::to_string(46341LL * 46341LL) + " elements"), std::string::npos) << *indices;
  EXPECT_FALSE(StudentShapeError(*student, Shape{46340, 46340, 1}));
}

TEST(StudentSweep, TheRequestIsRefusedAtASizeTheKernelCannotRun) {
  std::string problem;
  BenchRequest request;
  request.kernels = {"cublas_fp32"};
  request.shapes = {Shape::Square(256), Shape{64, 32, 16}};
  EXPECT_FALSE(ValidationError(request));
  request.student = Load(kCorpus + "naive_square_while.cu", problem);
  ASSERT_TRUE(request.student) << problem;
  const auto error = ValidationError(request);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("64x32x16"), std::string::npos) << *error;
}

TEST(StudentSweep, AnUnmeasuredSizeIsItsRowWithTheReason) {
  std::string problem;
  const auto student = Load(kCorpus + "tiled_correct.cu", problem);
  ASSERT_TRUE(student) << problem;
  const BenchResult r = StudentErrorResult(*student, Shape::Square(4096), "out of memory");
  EXPECT_TRUE(IsStudentResult(r));
  EXPECT_EQ(r.label, student->label);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.error, "out of memory");
  EXPECT_EQ(r.threads_per_block, student->block[0] * student->block[1] * student->block[2]);
}

TEST(StudentSweep, TheTimeoutGrowsWithTheWork) {
  const double flop = 2.0 * 4096.0 * 4096.0 * 4096.0;
  // 20 s for NVRTC and the first launch, then 1 + 2 + 10 launches at 100 GFLOPS.
  EXPECT_DOUBLE_EQ(StudentTimeoutSeconds(Shape::Square(4096), 2, 10), 20.0 + 13.0 * flop / 1e11);
  EXPECT_LT(StudentTimeoutSeconds(Shape::Square(256), 2, 10), StudentTimeoutSeconds(Shape::Square(512), 2, 10));
}

TEST(StudentSweep, ItsResultsAreSavedAndLoadedLikeARungs) {
  ResultsFile file;
  file.device.name = "Test GPU";
  file.device.cc_major = 9;
  file.device.sm_count = 132;
  file.device.clock_mhz = 1980;
  file.device.total_memory_bytes = 80ull << 30;
  file.device.fp32_peak_gflops = 66908.0;
  file.measured_at = "2026-11-28T14:00:00Z";
  BenchResult r;
  r.kernel = kStudentKernelName;
  r.label = "your kernel: tiled (tiled.cu)";
  r.math = "FP32 (your source, compiled with NVRTC)";
  r.shape = Shape::Square(1024);
  r.reps = 10;
  r.median_ms = 0.5;
  r.min_ms = r.q1_ms = 0.25;
  r.max_ms = r.q3_ms = 0.75;
  r.gflops = 4295.0;
  r.percent_of_cublas = 20.0;
  r.percent_of = "cublas_fp32";
  r.tolerance = 0.000244140625;
  r.verified = true;
  r.threads_per_block = 256;
  BenchResult wrong = r;
  wrong.shape = Shape::Square(2048);
  wrong.verified = false;
  wrong.wrong_elements = 4096;
  file.results = {r, wrong};
  for (const char* extension : {".json", ".csv"}) {
    const std::string path = ::testing::TempDir() + "student_sweep" + extension;
    ASSERT_FALSE(WriteResultsFile(file, path)) << extension;
    ResultsFile loaded;
    const auto error = ReadResultsFile(path, loaded);
    ASSERT_FALSE(error) << *error;
    ASSERT_EQ(loaded.results.size(), 2u) << extension;
    EXPECT_TRUE(IsStudentResult(loaded.results[0])) << extension;
    EXPECT_EQ(loaded.results[0].label, r.label) << extension;
    EXPECT_DOUBLE_EQ(loaded.results[0].gflops, r.gflops) << extension;
    EXPECT_FALSE(loaded.results[1].verified) << extension;
    EXPECT_EQ(loaded.results[1].wrong_elements, 4096) << extension;
  }
}

}  // namespace
}  // namespace kernels
