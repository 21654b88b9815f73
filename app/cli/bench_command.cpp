#include "app/cli/bench_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/command_line.h"
#include "app/cli/interrupt.h"
#include "app/cli/kernel_flags.h"
#include "app/cli/number_option.h"
#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "kernels/results_file.h"
#include "kernels/runner.h"
#include "kernels/student_sweep.h"
#include "sim/lesson/lesson_edit.h"

namespace cli {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(50);

struct BenchOptions {
  std::string kernels;
  std::string sizes;
  int reps = kernels::BenchRequest{}.reps;
  int warmups = kernels::BenchRequest{}.warmups;
  bool interleave = false;
  // Read by sim::ParseSeed, as trace's --seed is: "-1" is refused, not wrapped to 2^64-1.
  std::string seed = std::to_string(kernels::BenchRequest{}.seed);
  std::string csv;
  std::string json;
  bool list = false;
  bool race = false;
  std::string tiles;
  int trials = kernels::RaceRequest{}.trials;
  std::string student;  // a student's kernel file timed beside the rest
  CLI::Option* student_option = nullptr;  // given (even as ""): an empty name is refused
  KernelFlags student_flags;  // which kernel of it, its --block, --grid and --define
};

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

void PrintDevice(const kernels::GpuStatus& status) {
  const kernels::DeviceInfo& d = status.device;
  std::printf("device: %s, cc %d.%d, %d SMs, %.0f MHz, %.1f GiB, %.0f GB/s; FP32 peak %.1f TFLOPS (%d lanes/SM)",
              d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.clock_mhz,
              d.total_memory_bytes / (1024.0 * 1024.0 * 1024.0), d.memory_bandwidth_gbs, d.fp32_peak_gflops / 1e3,
              d.fp32_lanes_per_sm);
  for (const kernels::Precision precision : {kernels::Precision::kTf32, kernels::Precision::kBf16}) {
    const double peak = kernels::PeakGflops(d, precision);
    if (peak > 0.0) std::printf(", %s %.1f TFLOPS", kernels::PeakName(precision), peak / 1e3);
  }
  std::printf("; CUDA runtime %s, driver %s\n", status.runtime_version.c_str(), status.driver_version.c_str());
}

void PrintBenchHeader(const kernels::BenchRequest& request) {
  std::printf("inputs: seeded random in [-1, 1), seed %llu; %d warm-ups, %d timed launches each (CUDA events)\n",
              static_cast<unsigned long long>(request.seed), request.warmups, request.reps);
  std::printf("verified against cuBLAS FP32 with tolerance 2*K*2^-23 (TF32: 8*sqrt(K)*2^-11, BF16: 8*sqrt(K)*2^-8), "
              "max|A| = max|B| = 1\n");
  std::printf("%% cuBLAS: of cuBLAS in the kernel's own precision (FP32: SGEMM, TF32: cuBLAS TF32, BF16: cuBLAS BF16), "
              "same shape and session\n");
  if (request.interleave) {
    std::printf("interleaved: each kernel's launches alternate with cuBLAS's of its precision; %% cuBLAS from those; "
                "no model check\n");
  }
  std::printf("model: where M*N*K <= %lld, each kernel's C is also replayed on TileScope's model; 'same' = bit for bit\n",
              static_cast<long long>(kernels::kModelCheckMaxWork));
  if (const kernels::SweepStudent* student = request.student.get()) {
    std::printf("%s: %s, compiled with NVRTC as check --time-size compiles it, block %dx%dx%d; its C (first launch) checked "
                "against cuBLAS FP32's from the same A and B\n",
                kernels::kStudentKernelName, student->label.c_str(), student->block[0], student->block[1], student->block[2]);
  }
  std::printf("%-18s %-14s %10s %21s %10s %16s %9s %11s %10s  %-10s %s\n", "kernel", "size", "median ms", "min-max ms",
              "GFLOPS", "% cuBLAS", "blocks/SM", "max error", "tolerance", "model", "verified");
}

std::string ModelText(const kernels::BenchResult& r) {
  switch (r.model_check) {
    case kernels::ModelCheck::kIdentical: return "same";
    case kernels::ModelCheck::kDiffers: return std::to_string(r.model_differing) + " differ";
    case kernels::ModelCheck::kNotRun: break;
  }
  return "-";
}

// "FP32", "TF32", "BF16": which cuBLAS a percentage is of.
std::string ReferenceShortName(const std::string& reference) {
  const std::string label = kernels::ReferenceLabel(reference);
  return label.substr(label.rfind(' ') + 1);
}

void PrintBenchRow(const kernels::BenchResult& r) {
  const std::string size = kernels::ToString(r.shape);
  if (!r.ok()) {
    std::printf("%-18s %-14s error: %s\n", r.kernel.c_str(), size.c_str(), r.error.c_str());
    return;
  }
  const std::string spread = Format("%.4f", r.min_ms) + "-" + Format("%.4f", r.max_ms);
  // A wrong kernel's speed means nothing: its GFLOPS are not shown.
  const std::string gflops = r.verified ? Format("%.0f", r.gflops) : "-";
  // The share of cuBLAS of the kernel's own precision; the header line says which is which.
  const std::string percent = r.verified && r.percent_of_cublas > 0
                                  ? Format("%.1f%% ", r.percent_of_cublas) + ReferenceShortName(r.percent_of)
                                  : "-";
  const std::string occupancy = r.occupancy_blocks_per_sm > 0 ? std::to_string(r.occupancy_blocks_per_sm) : "-";
  const std::string verdict =
      r.verified ? "yes" : "WRONG (" + std::to_string(r.wrong_elements) + " elements)";
  std::printf("%-18s %-14s %10.4f %21s %10s %16s %9s %11.3g %10.3g  %-10s %s\n", r.kernel.c_str(), size.c_str(),
              r.median_ms, spread.c_str(), gflops.c_str(), percent.c_str(), occupancy.c_str(), r.max_abs_error,
              r.tolerance, ModelText(r).c_str(), verdict.c_str());
}

// Each kernel's worst shape of the sweep, where a target such as "95% of cuBLAS at every
// shape" is read.
void PrintLowestShares(const std::vector<kernels::BenchResult>& results) {
  for (const kernels::LowestShare& lowest : kernels::LowestShares(results)) {
    std::printf("lowest %% of cuBLAS %s: %-18s %5.1f%% at %s (of %d shapes)\n",
                ReferenceShortName(lowest.percent_of).c_str(), lowest.kernel.c_str(), lowest.percent,
                kernels::ToString(lowest.shape).c_str(), lowest.shapes);
  }
}

void PrintRaceHeader(const kernels::RaceRequest& request) {
  std::printf("race run: elements of C not bit-identical to the both-barriers kernel, %d trials, seed %llu\n",
              request.trials, static_cast<unsigned long long>(request.seed));
  std::printf("%-18s %-26s %-10s %-34s %s\n", "kernel", "label", "size", "differing per trial", "mean % of C");
}

void PrintRaceRow(const kernels::RaceResult& r) {
  const std::string size = kernels::ToString(r.shape);
  if (!r.ok()) {
    std::printf("%-18s %-26s %-10s error: %s\n", r.kernel.c_str(), r.label.c_str(), size.c_str(), r.error.c_str());
    return;
  }
  std::string counts;
  double sum = 0;
  for (long long count : r.differing_per_trial) {
    counts += (counts.empty() ? "" : " ") + std::to_string(count);
    sum += static_cast<double>(count);
  }
  const double percent = 100.0 * sum / static_cast<double>(r.differing_per_trial.size()) / r.elements();
  std::printf("%-18s %-26s %-10s %-34s %.2f%%\n", r.kernel.c_str(), r.label.c_str(), size.c_str(), counts.c_str(),
              percent);
}

void PrintKernelList() {
  std::printf("%-18s %-8s %-40s %s\n", "name", "default", "label", "parameters");
  for (const kernels::KernelSpec* spec : kernels::AllKernels()) {
    std::printf("%-18s %-8s %-40s %s\n", spec->name, spec->in_default_sweep ? "yes" : "", spec->label,
                kernels::DescribeParameters(*spec).c_str());
  }
}

// Polls the runner until it ends, printing rows as they arrive; Ctrl+C cancels it.
template <typename Result>
void Drain(kernels::Runner& runner, std::vector<Result>& collected, void (*print)(const Result&),
           std::vector<Result> (kernels::Runner::*take)()) {
  ProgressLine progress;
  bool finished = false;
  while (!finished) {
    finished = runner.Wait(kPollInterval);
    if (Interrupted()) runner.Cancel();
    std::vector<Result> fresh = (runner.*take)();
    if (!fresh.empty()) progress.Clear();
    for (const Result& result : fresh) {
      print(result);
      collected.push_back(result);
    }
    std::fflush(stdout);
    if (!finished) {
      const kernels::Progress p = runner.LastProgress();
      if (p.total > 0) {
        progress.Show("[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] " + p.Describe() +
                      (Interrupted() ? " — stopping after this launch" : ""));
      }
    }
  }
  progress.Clear();
}

// A run that stopped on an exception in the runner's worker is a failure, whatever it
// printed before: said once, and the exit status is 1.
bool ReportFailure(const kernels::Runner& runner) {
  const std::optional<std::string> failure = runner.Failure();
  if (failure) std::cerr << "tilescope bench: the run stopped early: " << *failure << std::endl;
  return failure.has_value();
}

int WriteFiles(const BenchOptions& options, const kernels::GpuStatus& status, double l2_bandwidth_gbs,
               const std::vector<kernels::BenchResult>& results) {
  kernels::ResultsFile file{status.device, kernels::NowIso8601(), results};
  file.device.l2_bandwidth_gbs = l2_bandwidth_gbs;
  int exit_status = 0;
  for (const std::string& path : {options.csv, options.json}) {
    if (path.empty()) continue;
    if (auto error = kernels::WriteResultsFile(file, path)) {
      std::cerr << "tilescope bench: " << *error << std::endl;
      exit_status = 1;
    } else {
      std::printf("wrote %zu results to %s\n", results.size(), path.c_str());
    }
  }
  return exit_status;
}

std::optional<std::string> ReadSeed(const BenchOptions& options, std::uint64_t& seed) {
  const std::optional<std::uint64_t> parsed = sim::ParseSeed(options.seed);
  if (!parsed) return sim::SeedProblem("--seed", options.seed);
  seed = *parsed;
  return std::nullopt;
}

// --student's file read, compiled and checked for a sweep, or the usage error; nothing to do without --student.
std::optional<std::string> ReadStudent(const BenchOptions& options, kernels::BenchRequest& request) {
  const bool given = options.student_option->count() > 0;
  if (!given) {
    const std::string flag = LaunchFlagGiven(options.student_flags);
    if (!flag.empty()) return flag + " says how --student's kernel runs: give --student FILE too";
    return std::nullopt;
  }
  if (options.student.empty()) return std::string("--student needs a kernel file (.cu)");
  sim::KernelLessonOptions kernel_options;
  if (std::string problem = ReadKernelFlags(options.student_flags, kernel_options); !problem.empty()) return problem;
  std::string problem;
  request.student = kernels::LoadSweepStudent(options.student, kernel_options, problem);
  if (!request.student) return "--student " + problem;
  return std::nullopt;
}

// The request the options describe, or the usage error.
std::optional<std::string> MakeBenchRequest(const BenchOptions& options, kernels::BenchRequest& request) {
  request.reps = options.reps;
  request.warmups = options.warmups;
  request.interleave = options.interleave;
  if (auto error = ReadSeed(options, request.seed)) return error;
  if (options.kernels == "all") {
    for (const kernels::KernelSpec* spec : kernels::AllKernels()) request.kernels.push_back(spec->name);
  } else if (!options.kernels.empty()) {
    request.kernels = SplitList(options.kernels);
  }
  if (!options.sizes.empty()) {
    if (auto error = kernels::ParseShapes(options.sizes, request.shapes)) return "--sizes: " + *error;
  }
  if (auto error = ReadStudent(options, request)) return error;
  return kernels::ValidationError(request);
}

std::optional<std::string> MakeRaceRequest(const BenchOptions& options, kernels::RaceRequest& request) {
  if (!options.csv.empty() || !options.json.empty()) {
    return std::string("--csv and --json save timings; a --race run prints its counts only");
  }
  if (options.student_option->count() > 0) return std::string("--student times a kernel in a sweep; a --race run has none");
  request.trials = options.trials;
  if (auto error = ReadSeed(options, request.seed)) return error;
  for (const std::string& tile : SplitList(options.tiles)) {
    try {
      request.tiles.push_back(std::stoi(tile));
    } catch (const std::exception&) {
      return "--tiles: '" + tile + "' is not a whole number";
    }
  }
  if (!options.sizes.empty()) {
    if (auto error = kernels::ParseShapes(options.sizes, request.shapes)) return "--sizes: " + *error;
  }
  return kernels::ValidationError(request);
}

int RunBench(const BenchOptions& options, const kernels::BenchRequest& request, const kernels::GpuStatus& status) {
  PrintDevice(status);
  PrintBenchHeader(request);
  InterruptGuard interrupt_guard;
  kernels::Runner runner;
  if (auto error = runner.Start(request)) {
    std::cerr << "tilescope bench: " << *error << std::endl;
    return 1;
  }
  std::vector<kernels::BenchResult> results;
  Drain(runner, results, &PrintBenchRow, &kernels::Runner::TakeResults);
  PrintLowestShares(results);
  const bool failed = ReportFailure(runner);
  const bool interrupted = runner.WasCancelled();
  if (interrupted) std::printf("stopped by Ctrl+C after %zu results\n", results.size());
  if (runner.MeasuredL2Bandwidth() > 0.0) std::printf("L2 bandwidth: %.0f GB/s (measured)\n", runner.MeasuredL2Bandwidth());
  const int write_status = WriteFiles(options, status, runner.MeasuredL2Bandwidth(), results);
  if (interrupted) return kExitInterrupted;
  bool all_verified = true;
  for (const kernels::BenchResult& r : results) all_verified = all_verified && r.ok() && r.verified;
  return write_status != 0 || !all_verified || failed ? 1 : 0;
}

int RunRace(const kernels::RaceRequest& request, const kernels::GpuStatus& status) {
  PrintDevice(status);
  PrintRaceHeader(request);
  InterruptGuard interrupt_guard;
  kernels::Runner runner;
  if (auto error = runner.StartRace(request)) {
    std::cerr << "tilescope bench: " << *error << std::endl;
    return 1;
  }
  std::vector<kernels::RaceResult> results;
  Drain(runner, results, &PrintRaceRow, &kernels::Runner::TakeRaceResults);
  if (ReportFailure(runner)) return 1;
  if (runner.WasCancelled()) {
    std::printf("stopped by Ctrl+C after %zu results\n", results.size());
    return kExitInterrupted;
  }
  for (const kernels::RaceResult& r : results) {
    if (!r.ok()) return 1;
  }
  return 0;
}

int Run(const BenchOptions& options) {
  if (options.list) {
    PrintKernelList();
    return 0;
  }
  kernels::BenchRequest bench_request;
  kernels::RaceRequest race_request;
  const auto usage_error =
      options.race ? MakeRaceRequest(options, race_request) : MakeBenchRequest(options, bench_request);
  if (usage_error) {
    std::cerr << "tilescope bench: " << *usage_error << std::endl;
    return kExitUsage;
  }
  const kernels::GpuStatus& status = kernels::ProbeGpu();
  if (!status.available) {
    std::cerr << "tilescope bench: no GPU to run on: " << status.Explained() << std::endl;
    return kExitNoGpu;
  }
  return options.race ? RunRace(race_request, status) : RunBench(options, bench_request, status);
}

}  // namespace

void AddBenchCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* bench = app.add_subcommand(
      "bench", "Time the real kernels on the GPU against cuBLAS, verifying each C (Ctrl+C stops after the current launch)");
  bench->add_option("--kernels", options->kernels,
                    "Comma-separated kernel names, or 'all' (default: the registry's default sweep; see --list)");
  bench->add_option("--sizes", options->sizes,
                    "Comma-separated sizes N or MxNxK, or a power-of-two range A:B (default 256:8192; race: 1024)");
  bench->add_option("--reps", options->reps, "Timed launches per kernel and size")->check(WholeNumberIn(1, kernels::kMaxReps));
  bench->add_option("--warmups", options->warmups, "Untimed launches first")->check(WholeNumberIn(0, kernels::kMaxReps));
  bench->add_option("--seed", options->seed, "Seed of the random inputs");
  bench->add_flag("--interleave", options->interleave,
                  "Alternate each kernel's timed launches with those of cuBLAS of its precision, one for one, and "
                  "take its % of cuBLAS from those (the clocks of a power-limited GPU drift with what ran before)");
  bench->add_option("--csv", options->csv, "Also write the results as CSV to FILE");
  bench->add_option("--json", options->json, "Also write the results as JSON to FILE");
  bench->add_flag("--list", options->list, "List every kernel in the registry and exit");
  bench->add_flag("--race", options->race,
                  "Race run: count elements of C that each barrier-removed variant gets wrong");
  bench->add_option("--tiles", options->tiles, "With --race: comma-separated tiles (default: every tile with variants)");
  bench->add_option("--trials", options->trials, "With --race: trials per variant")->check(WholeNumberIn(1, 10000));
  options->student_option = bench->add_option(
      "--student", options->student,
      "Also time a student's kernel file (.cu) at every size, compiled with NVRTC as check --time-size compiles it, its C "
      "checked against cuBLAS FP32's; its rows are named " +
          std::string(kernels::kStudentKernelName));
  AddKernelNameFlag(*bench, options->student_flags, "--student-kernel",
                    "With --student: which __global__ function, where the file has several");
  AddKernelLaunchFlags(*bench, options->student_flags);
  bench->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
