#include "kernels/student_sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "kernels/student_gpu.h"
#include "sim/lesson/kernel_check_plan.h"

namespace kernels {
namespace {

using Clock = std::chrono::steady_clock;

// The sweep's inputs are in [-1, 1) (random_fill.h): the bound the tolerance scales by, as a rung's.
constexpr double kMaxAbsInput = 1.0;
// A GPU's grid: 2^31 - 1 blocks along x, 65535 along y and z.
constexpr std::int64_t kMaxGridX = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxGridYZ = 65535;
// The slowest rate the timeout allows a launch, and the time NVRTC and the first launch get.
constexpr double kSlowestGflops = 100.0;
constexpr double kCompileSeconds = 20.0;

sim::CheckSize CheckSizeOf(const Shape& shape) {
  return {static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k)};
}

std::string BaseName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A, B and C each bound to one pointer parameter, or the one the kernel lacks.
std::string MissingMatrix(const sim::cuda::KernelFile& file, const sim::CheckRun& run) {
  bool bound[3] = {false, false, false};
  for (std::size_t i = 0; i < file.kernel.parameters.size() && i < run.arguments.size(); ++i) {
    if (file.kernel.parameters[i].pointer) bound[run.arguments[i]] = true;
  }
  static constexpr const char* kNames[] = {"A", "B", "C"};
  for (int m = 0; m < 3; ++m) {
    if (!bound[m]) {
      return std::string("the sweep hands the kernel A, B and C, and it takes no pointer for ") + kNames[m] +
             " (name its float* parameters A, B and C, or put them in that order)";
    }
  }
  return "";
}

// Whether an int argument follows the size: planned at the lesson's size and at twice it.
bool TakesASize(const SweepStudent& student, const sim::CheckRun& run) {
  const sim::CheckSize twice{run.size.m * 2, run.size.n * 2, run.size.k * 2};
  std::string error;
  const std::optional<sim::CheckRun> other = sim::PlanCheckRun(student.file, student.check, student.block, twice, error);
  if (!other) return false;
  for (std::size_t i = 0; i < student.file.kernel.parameters.size() && i < run.arguments.size(); ++i) {
    if (!student.file.kernel.parameters[i].pointer && run.arguments[i] != other->arguments[i]) return true;
  }
  return false;
}

BenchResult StudentResult(const SweepStudent& student, const Shape& shape) {
  BenchResult result;
  result.kernel = kStudentKernelName;
  result.label = student.label;
  result.math = "FP32 (your source, compiled with NVRTC)";
  result.shape = shape;
  result.threads_per_block = student.block[0] * student.block[1] * student.block[2];
  result.tolerance = Tolerance(Precision::kFp32, shape.k, kMaxAbsInput, kMaxAbsInput);
  return result;
}

// `got` against cuBLAS's C under the result's tolerance; NaN (an element NaN, or never written
// where the buffer held NaN) counts as wrong and makes the largest error NaN.
void CompareWithCublas(const std::vector<float>& got, const std::vector<float>& cublas, BenchResult& result) {
  result.wrong_elements = 0;
  result.max_abs_error = 0.0;
  for (std::size_t i = 0; i < got.size() && i < cublas.size(); ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - static_cast<double>(cublas[i]));
    if (std::isnan(error) || error > result.tolerance) ++result.wrong_elements;
    result.max_abs_error = std::isnan(error) || std::isnan(result.max_abs_error) ? std::nan("") : std::max(result.max_abs_error, error);
  }
  if (got.size() != cublas.size()) result.wrong_elements = static_cast<std::int64_t>(cublas.size());
  result.verified = result.wrong_elements == 0;
}

}  // namespace

std::shared_ptr<const SweepStudent> LoadSweepStudent(const std::string& path, const sim::KernelLessonOptions& options,
                                                     std::string& problem) {
  sim::KernelLessonOptions planned = options;
  planned.check.sizes.clear();  // the lesson's own small size: where the launch is checked
  sim::KernelLessonLoad load = sim::LoadKernelLesson(path, planned);
  if (!load.lesson) {
    problem = load.error;
    return nullptr;
  }
  auto student = std::make_shared<SweepStudent>();
  student->path = path;
  student->file_name = BaseName(path);
  student->file = std::move(load.lesson->file);
  student->check = options.check;
  student->check.sizes.clear();
  student->block = load.lesson->run.launch.block;
  student->label = "your kernel: " + student->file.kernel.name + " (" + student->file_name + ")";
  const sim::CheckRun& run = load.lesson->run.planned;
  if (std::string missing = MissingMatrix(student->file, run); !missing.empty()) {
    problem = path + ": " + missing;
    return nullptr;
  }
  if (!TakesASize(*student, run)) {
    problem = path + ": " + student->file.kernel.name +
              " takes no size (an int parameter M, N, K or n), so a sweep cannot change the size it computes";
    return nullptr;
  }
  return student;
}

std::optional<std::string> StudentShapeError(const SweepStudent& student, const Shape& shape) {
  const std::string at = "your kernel at n = " + ToString(shape) + ": ";
  const std::int64_t largest = std::max({shape.m * shape.k, shape.k * shape.n, shape.m * shape.n});
  if (largest > std::numeric_limits<std::int32_t>::max()) {
    return at + "a matrix of " + std::to_string(largest) + " elements is past the int indices it computes with (2147483647)";
  }
  std::string error;
  const std::optional<sim::CheckRun> run = sim::PlanCheckRun(student.file, student.check, student.block, CheckSizeOf(shape), error);
  if (!run) return at + error;
  const std::int64_t limits[3] = {kMaxGridX, kMaxGridYZ, kMaxGridYZ};
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (run->grid[d] > limits[d]) {
      return at + "its grid needs " + std::to_string(run->grid[d]) + " blocks along " + kAxes[d] + ", and a GPU launches at most " +
             std::to_string(limits[d]);
    }
  }
  return std::nullopt;
}

BenchResult StudentErrorResult(const SweepStudent& student, const Shape& shape, const std::string& error) {
  BenchResult result = StudentResult(student, shape);
  result.error = error;
  return result;
}

double StudentTimeoutSeconds(const Shape& shape, int warmups, int reps) {
  return kCompileSeconds + (1.0 + warmups + reps) * shape.Flop() / (kSlowestGflops * 1e9);
}

std::optional<BenchResult> MeasureStudent(GpuWorker& worker, const SweepStudent& student, const Shape& shape,
                                          const BenchRequest& request, const std::function<bool()>& cancelled) {
  BenchResult result = StudentResult(student, shape);
  if (std::optional<std::string> problem = StudentShapeError(student, shape)) {
    result.error = *problem;
    return result;
  }
  // cuBLAS's C from the session's A and B: what the student's C is checked against.
  std::vector<float> cublas;
  TsKernelRun cublas_run{};
  std::vector<double> cublas_times;
  std::string error;
  TsStatus status = worker.Run(KernelIndex(ReferenceFor(Precision::kFp32)), 0, 1, 0.0, cancelled, cublas_run, cublas_times,
                               &cublas, error);
  if (status == TS_CANCELLED) return std::nullopt;
  if (status != TS_OK) {
    result.error = "cuBLAS's C, which your kernel's is checked against: " + error;
    return result;
  }
  const std::optional<sim::CheckRun> run = sim::PlanCheckRun(student.file, student.check, student.block, CheckSizeOf(shape), error);
  if (!run) {
    result.error = error;
    return result;
  }
  StudentLaunch launch = StudentLaunchFor(student.file, student.path, student.block, *run,
                                          {SeededInput(request.seed, 0, shape.m, shape.k), SeededInput(request.seed, 1, shape.k, shape.n)});
  launch.warmups = request.warmups;
  launch.reps = request.reps;
  const double timeout = StudentTimeoutSeconds(shape, request.warmups, request.reps);
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));
  bool timed_out = false;
  const GpuWorker::Cancelled stop = [&] {
    timed_out = timed_out || Clock::now() >= end;
    return timed_out || cancelled();
  };
  StudentRunResult ran;
  status = worker.RunStudent(launch, stop, ran, error);
  if (status == TS_CANCELLED && !timed_out) return std::nullopt;
  if (status != TS_OK) {
    result.error = timed_out ? "did not finish within " + std::to_string(static_cast<int>(timeout)) + " s, taken to hang: " + error : error;
    return result;
  }
  if (ran.times_ms.empty()) {
    result.error = "no launch was timed";
    return result;
  }
  FillTimings(std::move(ran.times_ms), result);
  CompareWithCublas(ran.c, cublas, result);
  return result;
}

}  // namespace kernels
