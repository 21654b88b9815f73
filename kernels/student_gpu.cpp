#include "kernels/student_gpu.h"

#include <chrono>
#include <utility>

#include "kernels/registry.h"
#include "sim/model/reference.h"

namespace kernels {
namespace {

using Clock = std::chrono::steady_clock;

bool WellDefined(const sim::KernelCheckReport& report) {
  for (const sim::CheckFinding& f : report.findings) {
    if (f.error) return false;
  }
  return true;
}

// Why the GPU should not run the kernel at all: the model saw a thread that never ends or
// threads waiting forever, which on the GPU hang until the launch is killed.
std::string HangProblem(const sim::KernelCheckReport& report) {
  for (const sim::CheckFinding& f : report.findings) {
    if (f.kind == sim::FindingKind::kNotTerminating || f.kind == sim::FindingKind::kDeadlock) {
      return "not run on the GPU: the model found that line " + std::to_string(f.line) + " never ends, which would hang it";
    }
  }
  return "";
}

// Asked while a launch is in flight: past the timeout the worker is taken to hang.
GpuWorker::Cancelled Deadline(double seconds) {
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  return [end] { return Clock::now() >= end; };
}

BenchResult Timed(const std::string& kernel, const Shape& shape, std::vector<double> times) {
  BenchResult result;
  result.kernel = kernel;
  result.shape = shape;
  if (times.empty()) {
    result.error = "no launch was timed";
    return result;
  }
  FillTimings(std::move(times), result);
  return result;
}

// The student's kernel and cuBLAS SGEMM at `size`, each the median of `options.reps` launches.
void TimeAt(GpuWorker& worker, const sim::cuda::KernelFile& file, const std::string& file_name,
            const sim::KernelCheckOptions& check, const sim::KernelCheckReport& report, const StudentGpuOptions& options,
            StudentGpuReport& out) {
  const sim::CheckSize size = *options.time_size;
  const Shape shape{size.m, size.n, size.k};
  std::string error;
  const std::optional<sim::CheckRun> run = sim::PlanCheckRun(file, check, report.block, size, error);
  out.timed = BenchResult{};
  if (!run) {
    out.timed->error = error;
    return;
  }
  StudentLaunch launch = StudentLaunchFor(file, file_name, report.block, *run, sim::InputsFor(size, report.seed));
  launch.warmups = options.warmups;
  launch.reps = options.reps;
  StudentRunResult result;
  if (worker.RunStudent(launch, Deadline(options.launch_timeout_s), result, error) != TS_OK) {
    out.timed->error = error;
    return;
  }
  out.timed = Timed(report.kernel, shape, std::move(result.times_ms));
  const KernelSpec* cublas = FindKernel("cublas_fp32");
  out.cublas = BenchResult{};
  out.cublas->kernel = cublas->name;
  out.cublas->shape = shape;
  if (std::optional<std::string> open = worker.OpenSession(shape, report.seed)) {
    out.cublas->error = *open;
    return;
  }
  TsKernelRun timing{};
  std::vector<double> times;
  if (worker.Run(KernelIndex(*cublas), options.warmups, options.reps, 0.0, {}, timing, times, nullptr, error) != TS_OK) {
    out.cublas->error = error;
    return;
  }
  out.cublas = Timed(cublas->name, shape, std::move(times));
}

}  // namespace

StudentLaunch StudentLaunchFor(const sim::cuda::KernelFile& file, const std::string& file_name, const std::array<int, 3>& block,
                               const sim::CheckRun& run, sim::CheckInputs inputs) {
  StudentLaunch launch;
  launch.source = file.device_source;
  launch.file_name = file_name;
  launch.name_expression = sim::cuda::NameExpression(file);
  for (const auto& [name, value] : file.macros) launch.options.push_back("-D" + name + "=" + value);
  launch.shape = {run.size.m, run.size.n, run.size.k};
  launch.grid = run.grid;
  launch.block = block;
  for (std::size_t i = 0; i < file.kernel.parameters.size() && i < run.arguments.size(); ++i) {
    const bool pointer = file.kernel.parameters[i].pointer;
    // A pointer's argument is its matrix: 0 A, 1 B, 2 C.
    launch.argument_kinds.push_back(pointer ? TS_ARG_A + run.arguments[i] : TS_ARG_INT);
    launch.argument_values.push_back(pointer ? 0 : run.arguments[i]);
  }
  launch.a = std::move(inputs.a);
  launch.b = std::move(inputs.b);
  return launch;
}

bool StudentGpuReport::MatchesModel() const {
  if (!well_defined || runs.empty()) return false;
  for (const StudentGpuRun& r : runs) {
    if (!r.ok() || r.differing_from_model != 0) return false;
  }
  return true;
}

StudentGpuReport RunStudentKernelOnGpu(GpuWorker& worker, const std::string& device, const sim::cuda::KernelFile& file,
                                       const std::string& file_name, const sim::KernelCheckOptions& check,
                                       const sim::KernelCheckReport& report, const StudentGpuOptions& options) {
  StudentGpuReport out;
  out.device = device;
  out.well_defined = WellDefined(report);
  if (const std::string hang = HangProblem(report); !hang.empty()) {
    out.runs.assign(report.runs.size(), StudentGpuRun{hang});
    return out;
  }
  for (const sim::CheckRun& run : report.runs) {
    const sim::CheckInputs inputs = sim::InputsFor(run.size, report.seed);
    StudentRunResult result;
    StudentGpuRun gpu;
    if (worker.RunStudent(StudentLaunchFor(file, file_name, report.block, run, inputs), Deadline(options.launch_timeout_s), result,
                          gpu.error) == TS_OK) {
      gpu.error.clear();
      const std::vector<float> exact = sim::ReferenceProduct(run.size.m, run.size.n, run.size.k, inputs.a, inputs.b);
      gpu.wrong_elements = sim::Differ(result.c, exact, run.size.n).count;
      gpu.differing_from_model = sim::Differ(result.c, run.c, run.size.n).count;
    } else if (gpu.error.empty()) {
      gpu.error = "the GPU run failed without a message";
    }
    out.runs.push_back(std::move(gpu));
  }
  if (options.time_size) TimeAt(worker, file, file_name, check, report, options, out);
  return out;
}

}  // namespace kernels
