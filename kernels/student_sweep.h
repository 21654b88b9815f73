// student_sweep.h — a student's kernel as one more line of a sweep, beside the rungs and cuBLAS.
//
// It is timed through the path `tilescope check --time-size` takes: the source compiled with
// NVRTC in the GPU worker and launched as the check plans it (StudentLaunchFor,
// GpuWorker::RunStudent). Its A and B are the sweep's seeded inputs at each size, and its C,
// from the first launch, is compared with cuBLAS SGEMM's C from the same A and B under the
// FP32 tolerance a rung's C gets. A wrong C is a result with wrong elements, never plotted.
// The result is a BenchResult under kStudentKernelName (bench.h), so it is saved and loaded like a rung's.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "kernels/bench.h"
#include "kernels/gpu_worker.h"
#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_lesson.h"

namespace kernels {

struct SweepStudent {
  std::string path;       // as given, and as NVRTC names it in its messages (path(12): error: ...), as check's
  std::string file_name;  // the path's last part, for the label
  sim::cuda::KernelFile file;
  sim::KernelCheckOptions check;  // the grid and the int values each size's launch is planned with
  std::array<int, 3> block{};
  std::string label;  // "your kernel: matmul_tiled (tiled.cu)"
};

// Reads and compiles `path` as the window opens a student's kernel (sim::LoadKernelLesson:
// a missing file, a source the front end refuses at file:line:col, a parameter it cannot
// bind), then refuses a kernel a sweep cannot time: one without A, B and C among its
// pointers, or one that takes no size, whose C a sweep over sizes could not change.
// `options.check.sizes` is not used: the sweep says the sizes. Nothing, with `problem` set.
std::shared_ptr<const SweepStudent> LoadSweepStudent(const std::string& path, const sim::KernelLessonOptions& options,
                                                     std::string& problem);

// Why `student` cannot run at `shape` on a GPU, or nothing: a kernel taking one size at an
// M×N×K shape, a grid past a GPU's 65535 blocks along y or z, a matrix of more elements than
// the kernel's int indices reach.
std::optional<std::string> StudentShapeError(const SweepStudent& student, const Shape& shape);

// How long one request (the compile, the first launch, the warm-ups and the timed launches)
// may run before the kernel is taken to hang: 20 s, plus each launch at a slow 100 GFLOPS.
double StudentTimeoutSeconds(const Shape& shape, int warmups, int reps);

// A result of `student` at `shape` that was not measured, saying why (a session that did not open).
BenchResult StudentErrorResult(const SweepStudent& student, const Shape& shape, const std::string& error);

// Times `student` at `shape` in `worker`, whose session is open at `shape` with `request.seed`
// (the rungs' A and B). A result with `error` when it cannot run (a compile error, a fault, a
// hang); nothing when `cancelled` said so mid-way (a half-measured kernel is not a result).
std::optional<BenchResult> MeasureStudent(GpuWorker& worker, const SweepStudent& student, const Shape& shape,
                                          const BenchRequest& request, const std::function<bool()>& cancelled);

}  // namespace kernels
