#include "kernels/runner.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "kernels/student_sweep.h"

namespace kernels {
namespace {

// The runner's inputs are in [-1, 1) (random_fill.h): the bound the tolerance scales by.
constexpr double kMaxAbsInput = 1.0;

BenchResult ErrorResult(const KernelSpec& spec, const Shape& shape, const std::string& error) {
  BenchResult result;
  result.kernel = spec.name;
  result.label = spec.label;
  result.math = MathName(spec);
  result.shape = shape;
  result.error = error;
  return result;
}

// Replays the kernel on the model with the session's seeded inputs and compares bits.
// A lesson the model cannot run leaves the check at kNotRun.
void CheckOnModel(const KernelSpec& spec, const Shape& shape, std::uint64_t seed, const std::vector<float>& gpu_c,
                  BenchResult& result) {
  const ModelRun model =
      RunOnModel(spec, shape, SeededInput(seed, 0, shape.m, shape.k), SeededInput(seed, 1, shape.k, shape.n));
  if (!model.ok()) return;
  result.model_differing = CountDifferingBits(gpu_c, model.c);
  result.model_check = result.model_differing == 0 ? ModelCheck::kIdentical : ModelCheck::kDiffers;
}

// Measures one kernel in the worker's session. Returns nothing when cancelled mid-kernel:
// a half-measured kernel is not a result.
std::optional<BenchResult> Measure(GpuWorker& worker, const KernelSpec& spec, const Shape& shape,
                                   const BenchRequest& request, const std::function<bool()>& cancelled) {
  BenchResult result = ErrorResult(spec, shape, "");
  result.tolerance = Tolerance(spec.precision, shape.k, kMaxAbsInput, kMaxAbsInput);
  TsKernelRun run{};
  std::vector<double> times;
  std::string error;
  // C comes back to the host only for the model check; timing is over by then.
  std::vector<float> gpu_c;
  const bool model_check = WantsModelCheck(spec, shape);
  const TsStatus status = worker.Run(KernelIndex(spec), request.warmups, request.reps, result.tolerance, cancelled,
                                     run, times, model_check ? &gpu_c : nullptr, error);
  if (status == TS_CANCELLED) return std::nullopt;
  if (status == TS_ERROR) return ErrorResult(spec, shape, error);
  FillTimings(times, result);
  result.max_abs_error = run.max_abs_error;
  result.wrong_elements = run.wrong_elements;
  result.verified = run.wrong_elements == 0;
  result.occupancy_blocks_per_sm = run.occupancy_blocks_per_sm;
  result.threads_per_block = run.threads_per_block;
  if (model_check) CheckOnModel(spec, shape, request.seed, gpu_c, result);
  return result;
}

// A kernel and its reference timed one launch each in turn, `request.reps` times (warm-ups
// before the first of each): their results, or nothing when cancelled. C is checked after
// every launch; a wrong C in any makes the result wrong. No model check: alternating is for
// timing large sizes.
std::optional<std::pair<BenchResult, BenchResult>> MeasureInterleaved(GpuWorker& worker, const KernelSpec& spec,
                                                                      const KernelSpec& reference, const Shape& shape,
                                                                      const BenchRequest& request,
                                                                      const std::function<bool()>& cancelled) {
  BenchResult results[2] = {ErrorResult(spec, shape, ""), ErrorResult(reference, shape, "")};
  const KernelSpec* specs[2] = {&spec, &reference};
  std::vector<double> times[2];
  for (int rep = 0; rep < request.reps; ++rep) {
    for (int i = 0; i < 2; ++i) {
      BenchResult& result = results[i];
      result.tolerance = Tolerance(specs[i]->precision, shape.k, kMaxAbsInput, kMaxAbsInput);
      TsKernelRun run{};
      std::vector<double> one;
      std::string error;
      const TsStatus status = worker.Run(KernelIndex(*specs[i]), rep == 0 ? request.warmups : 0, 1, result.tolerance,
                                         cancelled, run, one, nullptr, error);
      if (status == TS_CANCELLED) return std::nullopt;
      if (status == TS_ERROR) return std::make_pair(ErrorResult(spec, shape, error), ErrorResult(reference, shape, error));
      times[i].insert(times[i].end(), one.begin(), one.end());
      // NaN (an element NaN or never written) stays NaN, which std::max would drop.
      const bool nan = std::isnan(result.max_abs_error) || std::isnan(run.max_abs_error);
      result.max_abs_error = nan ? std::nan("") : std::max(result.max_abs_error, run.max_abs_error);
      result.wrong_elements = std::max<std::int64_t>(result.wrong_elements, run.wrong_elements);
      result.occupancy_blocks_per_sm = run.occupancy_blocks_per_sm;
      result.threads_per_block = run.threads_per_block;
    }
  }
  for (int i = 0; i < 2; ++i) {
    FillTimings(times[i], results[i]);
    results[i].verified = results[i].wrong_elements == 0;
  }
  return std::make_pair(results[0], results[1]);
}

std::optional<std::string> NoGpuReason() {
  const GpuStatus& status = ProbeGpu();
  if (!status.available) return status.reason;
  return std::nullopt;
}

}  // namespace

std::string Progress::Describe() const {
  std::string text = "kernel " + std::to_string(kernel_number) + " of " + std::to_string(kernel_count) + ", n = " +
                     ToString(shape);
  if (!kernel.empty()) text += " (" + kernel + ")";
  return text;
}

std::optional<std::string> Runner::Start(const BenchRequest& request, Callbacks callbacks) {
  if (auto error = ValidationError(request)) return error;
  if (const GpuStatus& gpu = ProbeGpu(); gpu.available) {
    for (const Shape& shape : ResolveShapes(request)) {
      if (auto error = DeviceMemoryError(shape, ResolveKernels(request), gpu.device.total_memory_bytes)) return error;
    }
  }
  return Launch([this, request](const std::atomic<bool>& cancel) { RunBench(request, cancel); }, std::move(callbacks));
}

std::optional<std::string> Runner::StartRace(const RaceRequest& request, Callbacks callbacks) {
  if (auto error = ValidationError(request)) return error;
  return Launch([this, request](const std::atomic<bool>& cancel) { RunRace(request, cancel); }, std::move(callbacks));
}

std::optional<std::string> Runner::Launch(std::function<void(const std::atomic<bool>&)> work, Callbacks callbacks) {
  if (job_.Running()) return std::string("a run is already in progress");
  if (auto reason = NoGpuReason()) return reason;
  // The worker of the last run has returned (Running() is false): nothing reads the callbacks.
  job_.Wait();
  callbacks_ = std::move(callbacks);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failure_.reset();
  }
  job_.Start([this, work = std::move(work)](const std::atomic<bool>& cancel, JobProgress&) {
    // An exception leaving a thread ends the process (std::terminate): `bench` and the GUI
    // with it. The run stops instead, and Failure() says why.
    try {
      work(cancel);
    } catch (const std::exception& error) {
      std::lock_guard<std::mutex> lock(mutex_);
      failure_ = error.what();
    }
    return !cancel.load();  // completed: not cancelled before the end
  });
  return std::nullopt;
}

void Runner::Cancel() { job_.Cancel(); }

bool Runner::WasCancelled() const {
  if (job_.Running()) return job_.Cancelling();
  const std::optional<bool> completed = job_.LastResult();
  return completed.has_value() && !*completed;
}

bool Runner::Wait(std::chrono::milliseconds timeout) { return job_.Wait(timeout); }

std::vector<BenchResult> Runner::TakeResults() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(results_, {});
}

std::vector<RaceResult> Runner::TakeRaceResults() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(race_results_, {});
}

std::optional<std::string> Runner::Failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

double Runner::MeasuredL2Bandwidth() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return l2_bandwidth_gbs_;
}

Progress Runner::LastProgress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return progress_;
}

void Runner::Report(const Progress& progress) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_ = progress;
  }
  if (callbacks_.on_progress) callbacks_.on_progress(progress);
}

void Runner::Report(const BenchResult& result) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    results_.push_back(result);
  }
  if (callbacks_.on_result) callbacks_.on_result(result);
}

void Runner::Report(const RaceResult& result) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    race_results_.push_back(result);
  }
  if (callbacks_.on_race_result) callbacks_.on_race_result(result);
}

void Runner::RunBench(const BenchRequest& request, const std::atomic<bool>& cancel) {
  const std::vector<const KernelSpec*> specs = ResolveKernels(request);
  const std::vector<Shape> shapes = ResolveShapes(request);
  const std::function<bool()> cancelled = [&cancel] { return cancel.load(); };
  Progress progress;
  progress.kernel_count = static_cast<int>(specs.size()) + (request.student ? 1 : 0);
  progress.shape_count = static_cast<int>(shapes.size());
  progress.total = progress.kernel_count * progress.shape_count;
  MeasureL2Bandwidth();
  for (std::size_t s = 0; s < shapes.size() && !cancelled(); ++s) {
    progress.shape = shapes[s];
    progress.shape_number = static_cast<int>(s) + 1;
    if (const std::optional<std::string> error = worker_.OpenSession(shapes[s], request.seed)) {
      for (const KernelSpec* spec : specs) Report(ErrorResult(*spec, shapes[s], *error));
      if (request.student) Report(StudentErrorResult(*request.student, shapes[s], *error));
      progress.done += progress.kernel_count;
      continue;
    }
    // Each kernel's "% of cuBLAS" divides by cuBLAS of its own precision at this shape,
    // timed in the same session before the first kernel that needs it.
    std::map<const KernelSpec*, BenchResult> references;
    for (std::size_t k = 0; k < specs.size() && !cancelled(); ++k) {
      progress.kernel_number = static_cast<int>(k) + 1;
      progress.kernel = specs[k]->name;
      Report(progress);
      const KernelSpec* reference = &ReferenceFor(specs[k]->precision);
      if (references.count(reference) == 0) {
        const std::optional<BenchResult> timed = Measure(worker_, *reference, shapes[s], request, cancelled);
        if (!timed) break;
        references.emplace(reference, *timed);
      }
      BenchResult base = references.at(reference);
      std::optional<BenchResult> result;
      if (specs[k] == reference) {
        result = base;
      } else if (request.interleave) {
        auto pair = MeasureInterleaved(worker_, *specs[k], *reference, shapes[s], request, cancelled);
        if (!pair) break;
        result = pair->first;
        base = pair->second;
      } else {
        result = Measure(worker_, *specs[k], shapes[s], request, cancelled);
      }
      if (!result) break;
      if (result->ok() && base.ok() && result->median_ms > 0) {
        result->percent_of_cublas = 100.0 * base.median_ms / result->median_ms;
        result->percent_of = reference->name;
      }
      ++progress.done;
      Report(*result);
    }
    if (request.student && !cancelled()) {
      progress.kernel_number = progress.kernel_count;
      progress.kernel = kStudentKernelName;
      Report(progress);
      if (!RunStudentAt(request, shapes[s], references, cancelled)) break;
      ++progress.done;
    }
  }
}

bool Runner::RunStudentAt(const BenchRequest& request, const Shape& shape, std::map<const KernelSpec*, BenchResult>& references,
                          const std::function<bool()>& cancelled) {
  const KernelSpec* reference = &ReferenceFor(Precision::kFp32);
  if (references.count(reference) == 0) {
    const std::optional<BenchResult> timed = Measure(worker_, *reference, shape, request, cancelled);
    if (!timed) return false;
    references.emplace(reference, *timed);
  }
  std::optional<BenchResult> result = MeasureStudent(worker_, *request.student, shape, request, cancelled);
  if (!result) return false;
  const BenchResult& base = references.at(reference);
  if (result->ok() && base.ok() && result->median_ms > 0) {
    result->percent_of_cublas = 100.0 * base.median_ms / result->median_ms;
    result->percent_of = reference->name;
  }
  Report(*result);
  return true;
}

// A failed measurement leaves the figure at 0: the roofline then draws no L2 roof and says why,
// and the sweep's kernels are no less measured.
void Runner::MeasureL2Bandwidth() {
  double gbs = 0.0;
  std::string error;
  if (worker_.MeasureL2Bandwidth(gbs, error) != TS_OK) gbs = 0.0;
  std::lock_guard<std::mutex> lock(mutex_);
  l2_bandwidth_gbs_ = gbs;
}

void Runner::RunRace(const RaceRequest& request, const std::atomic<bool>& cancel) {
  const std::function<bool()> cancelled = [&cancel] { return cancel.load(); };
  const std::vector<int> tiles = ResolveTiles(request);
  const std::vector<Shape> shapes = ResolveShapes(request);
  Progress progress;
  progress.shape_count = static_cast<int>(shapes.size());
  for (const int tile : tiles) progress.total += static_cast<int>(RaceSetForTile(tile).variants.size());
  progress.total *= progress.shape_count;
  for (std::size_t s = 0; s < shapes.size() && !cancel.load(); ++s) {
    progress.shape = shapes[s];
    progress.shape_number = static_cast<int>(s) + 1;
    const std::string session_error = worker_.OpenSession(shapes[s], request.seed).value_or("");
    for (const int tile : tiles) {
      const RaceSet set = RaceSetForTile(tile);
      progress.kernel_count = static_cast<int>(set.variants.size());
      for (std::size_t v = 0; v < set.variants.size() && !cancel.load(); ++v) {
        progress.kernel_number = static_cast<int>(v) + 1;
        progress.kernel = set.variants[v]->name;
        Report(progress);
        RaceResult result{set.variants[v]->name, set.variants[v]->label, set.baseline->name, tile, shapes[s], {},
                          session_error};
        for (int trial = 0; result.ok() && trial < request.trials && !cancel.load(); ++trial) {
          long long differing = 0;
          const TsStatus status = worker_.RaceTrial(KernelIndex(*set.variants[v]), KernelIndex(*set.baseline),
                                                    cancelled, differing, result.error);
          if (status == TS_CANCELLED) return;
          if (status == TS_OK) result.differing_per_trial.push_back(differing);
        }
        // Cancelled between trials: fewer trials than asked is not a result.
        if (result.ok() && static_cast<int>(result.differing_per_trial.size()) < request.trials) return;
        ++progress.done;
        Report(result);
      }
    }
  }
}

std::optional<std::string> ComputeOnGpu(const KernelSpec& kernel, const Shape& shape, const std::vector<float>& a,
                                        const std::vector<float>& b, std::vector<float>& c) {
  if (auto reason = NoGpuReason()) return reason;
  if (a.size() != static_cast<std::size_t>(shape.m * shape.k) || b.size() != static_cast<std::size_t>(shape.k * shape.n)) {
    return std::string("A and B do not match the shape ") + ToString(shape);
  }
  // One worker for every call (verify runs one per case): a context per case would cost
  // its start each time. Calls from several threads take turns.
  static std::mutex mutex;
  static GpuWorker worker(DefaultGpuWorkerOptions());
  std::lock_guard<std::mutex> lock(mutex);
  if (auto error = worker.OpenSession(shape, 0, a, b)) return error;
  TsKernelRun run{};
  std::vector<double> times;
  std::string error;
  // One launch, no warm-up; the tolerance is irrelevant here, the caller compares C itself.
  const TsStatus status = worker.Run(KernelIndex(kernel), 0, 1, 0.0, [] { return false; }, run, times, &c, error);
  if (status != TS_OK) return error;
  return std::nullopt;
}

}  // namespace kernels
