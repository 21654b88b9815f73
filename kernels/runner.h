// runner.h — runs benchmark and race requests on the GPU, off the caller's thread.
//
// The UI thread calls Start() and returns at once; a worker thread opens one session per
// shape, times each kernel with CUDA events around its launches, checks its C against
// cuBLAS, and hands over each result as soon as it exists — through the callbacks (on the
// worker thread) and through TakeResults() (for a UI that polls once a frame). Cancel()
// sets a flag the worker checks before every launch, so it stops within one launch. A
// student's kernel (BenchRequest::student) is timed last at each shape, through the worker's
// NVRTC path (student_sweep.h), beside cuBLAS FP32.
//
// The launches themselves happen in a GPU worker process (gpu_worker.h), so a CUDA fault
// that poisons a context ends that process, not the app: the kernel's result carries the
// fault ("the GPU worker faulted: … while running K at M×N×K; a fresh worker was
// started"), and the sweep goes on in a fresh worker.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "kernels/background_job.h"
#include "kernels/bench.h"
#include "kernels/device.h"
#include "kernels/gpu_worker.h"

namespace kernels {

struct Progress {
  int kernel_number = 0;  // 1-based, within the current shape
  int kernel_count = 0;
  int shape_number = 0;  // 1-based
  int shape_count = 0;
  Shape shape;
  std::string kernel;
  int done = 0;   // (kernel, shape) pairs finished
  int total = 0;  // (kernel, shape) pairs requested

  // "kernel 3 of 7, n = 4096 (tiled16)".
  std::string Describe() const;
};

class Runner {
 public:
  struct Callbacks {
    std::function<void(const Progress&)> on_progress;
    std::function<void(const BenchResult&)> on_result;
    std::function<void(const RaceResult&)> on_race_result;
  };

  Runner() = default;
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Start a run; the reason it cannot start (invalid request, no GPU, a run in flight),
  // or nothing. A result that fails (out of memory at a size, grid too large) is a
  // BenchResult with `error` set; the sweep goes on.
  std::optional<std::string> Start(const BenchRequest& request, Callbacks callbacks = {});
  std::optional<std::string> StartRace(const RaceRequest& request, Callbacks callbacks = {});

  void Cancel();
  bool Running() const { return job_.Running(); }
  // True when the run was cancelled before it finished.
  bool WasCancelled() const;
  // Waits for the run to end; false if it is still running after `timeout`.
  bool Wait(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());

  // Results that arrived since the last call (poll interface).
  std::vector<BenchResult> TakeResults();
  std::vector<RaceResult> TakeRaceResults();
  Progress LastProgress() const;
  // The device's L2 bandwidth in GB/s, measured at the start of the last bench run (before
  // its first kernel, so a sweep's results file carries it); 0 before then or if it failed.
  double MeasuredL2Bandwidth() const;
  // Why the last run stopped before its end other than by Cancel() (an exception on the
  // worker: out of host memory, a callback that threw), or nothing.
  std::optional<std::string> Failure() const;

 private:
  std::optional<std::string> Launch(std::function<void(const std::atomic<bool>&)> work, Callbacks callbacks);
  void RunBench(const BenchRequest& request, const std::atomic<bool>& cancel);
  // The student's kernel at `shape` in the open session, beside cuBLAS FP32 (timed first if
  // `references` lacks it); false when cancelled.
  bool RunStudentAt(const BenchRequest& request, const Shape& shape, std::map<const KernelSpec*, BenchResult>& references,
                    const std::function<bool()>& cancelled);
  void RunRace(const RaceRequest& request, const std::atomic<bool>& cancel);
  void MeasureL2Bandwidth();
  void Report(const Progress& progress);
  void Report(const BenchResult& result);
  void Report(const RaceResult& result);

  Callbacks callbacks_;
  mutable std::mutex mutex_;  // guards the five below
  std::vector<BenchResult> results_;
  std::vector<RaceResult> race_results_;
  Progress progress_;
  std::optional<std::string> failure_;
  double l2_bandwidth_gbs_ = 0.0;
  GpuWorker worker_{DefaultGpuWorkerOptions()};  // used by the job's thread alone
  // Last: destroyed first, it cancels the run in flight and waits for it while the rest stands.
  BackgroundJob<bool> job_;  // the run's result: completed (not cancelled)
};

// Computes C = A·B (row-major; A M×K, B K×N) once with `kernel` on the GPU, for
// `tilescope verify` and the tests. Returns the error, or nothing with `c` filled (M×N).
std::optional<std::string> ComputeOnGpu(const KernelSpec& kernel, const Shape& shape, const std::vector<float>& a,
                                        const std::vector<float>& b, std::vector<float>& c);

}  // namespace kernels
