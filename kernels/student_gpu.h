// student_gpu.h — a student's kernel on the GPU, beside the model's check of it.
//
// The same source the model ran (without its host code) is compiled with NVRTC in the GPU
// worker and run at each size of the check, with the check's launch, A, B and a zeroed C.
// Where the model found no error its C must be the GPU's bit for bit (the front end follows
// nvcc's FMA contraction, sim/cuda/fma_rule.cpp). Every error finding is undefined behaviour
// on the GPU, where C then depends on what the GPU does: a race on its interleaving, an
// out-of-bounds read or an uninitialized shared element on what memory holds (the model reads
// 0), a barrier not every thread reaches on the hardware. There the GPU's C is only counted.
// At a size given for timing the kernel is timed beside cuBLAS SGEMM.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/gpu_worker.h"
#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check.h"

namespace kernels {

struct StudentGpuRun {
  std::string error;  // why this size has no GPU result (an NVRTC error, a fault); empty when it ran
  std::uint64_t wrong_elements = 0;  // against the exact product, as the model's run counts
  std::uint64_t differing_from_model = 0;  // elements whose bits differ from the model's C
  bool ok() const { return error.empty(); }
};

struct StudentGpuReport {
  std::string device;                // the GPU's name
  bool well_defined = false;         // the model found no error: C must match it bit for bit
  std::vector<StudentGpuRun> runs;   // one per run of the model's report
  std::optional<BenchResult> timed;   // the student's kernel at the timing size
  std::optional<BenchResult> cublas;  // cuBLAS SGEMM at the same size
  // Well defined and every size ran with C bit for bit the model's.
  bool MatchesModel() const;
};

struct StudentGpuOptions {
  std::optional<sim::CheckSize> time_size;
  int warmups = 2;
  int reps = 10;
  // A request (the compile and every launch at one size) still running after this is taken
  // for a hang: the worker is ended.
  double launch_timeout_s = 20.0;
};

// The launch of `run` for the worker: the device source (NVRTC compiles it under `file_name`,
// which its messages name as file(line)), the kernel's name expression, the file's macros, the
// planned grid and arguments, and A and B. The live page's sweep times a student's kernel
// through this too (student_sweep.h).
StudentLaunch StudentLaunchFor(const sim::cuda::KernelFile& file, const std::string& file_name, const std::array<int, 3>& block,
                               const sim::CheckRun& run, sim::CheckInputs inputs);

// Runs `file` (the kernel the check ran) at every size of `report`, then at the timing size.
// `check` is the check's own options (its grid, its int values) for the timing size's launch.
StudentGpuReport RunStudentKernelOnGpu(GpuWorker& worker, const std::string& device, const sim::cuda::KernelFile& file,
                                       const std::string& file_name, const sim::KernelCheckOptions& check,
                                       const sim::KernelCheckReport& report, const StudentGpuOptions& options);

}  // namespace kernels
