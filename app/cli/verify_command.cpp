#include "app/cli/verify_command.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "app/cli/command_line.h"
#include "app/cli/interrupt.h"
#include "kernels/background_job.h"
#include "kernels/device.h"
#include "kernels/element_check.h"
#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "kernels/test_vector_file.h"

namespace cli {
namespace {

constexpr const char* kDefaultKernel = "tiled16";

struct VerifyOptions {
  std::string file;
  std::string kernel = kDefaultKernel;
};

// One check of one case: "model max error 0, none beyond tolerance" or why it could not run.
struct Check {
  bool ran = false;
  bool passed = false;
  std::string text;
};

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

Check Compare(const char* who, const kernels::TestVectorCase& entry, const std::vector<float>& got) {
  const kernels::ElementCheck check = kernels::CheckElements(entry.shape, entry.a, entry.b, got, entry.c);
  std::string text = std::string(who) + " max error " + Number(check.max_error);
  if (check.ok()) return {true, true, text + ", none beyond tolerance"};
  text += ", " + std::to_string(check.beyond) + " of " + std::to_string(got.size()) +
          " elements beyond tolerance, worst " + kernels::ElementName("C", check.worst, entry.shape.n) + " off by " +
          Number(check.worst_error) + " (tolerance " + Number(check.worst_tolerance) + ")";
  return {true, false, text};
}

// Where the run is, for the progress line and the message after Ctrl+C.
struct Position {
  std::size_t index = 0;  // from 0; cases count from 1 in what is shown
  std::size_t count = 0;
  kernels::Shape shape;
};

std::string Describe(const Position& at) {
  return "case " + std::to_string(at.index + 1) + " of " + std::to_string(at.count) + " (M=" +
         std::to_string(at.shape.m) + " K=" + std::to_string(at.shape.k) + " N=" + std::to_string(at.shape.n) + ")";
}

// Multiply-adds of a case the model finishes in well under a millisecond, far below the
// progress line's first showing: such a case runs on this thread, as a worker's start and
// wake-up would cost more than its work (100 000 cases of 1×1×1 once took minutes).
constexpr long long kInlineModelWork = 1 << 12;

// A larger case runs on a worker (a 1500³ case takes minutes): this thread shows its progress
// on a terminal and turns Ctrl+C into a cancel the model checks between steps. `stopped` is
// set when it was cancelled.
kernels::ModelRun RunModelOnWorker(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry,
                                   const Position& at, ProgressLine& progress) {
  std::atomic<double> fraction{0.0};
  kernels::BackgroundJob<kernels::ModelRun> job;
  job.Start([&](const std::atomic<bool>& cancel, kernels::JobProgress&) {
    return kernels::RunOnModel(kernel, entry.shape, entry.a, entry.b, cancel, &fraction);
  });
  while (!job.Wait(kProgressInterval)) {
    if (Interrupted()) job.Cancel();
    progress.Show(Describe(at) + " on the model: " + PercentDone(fraction.load()) + CtrlCHint());
  }
  progress.Clear();
  return job.LastResult().value_or(kernels::ModelRun{{}, "no result", false});
}

Check RunModel(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry, const Position& at,
               ProgressLine& progress, bool& stopped) {
  const bool small = entry.shape.m * entry.shape.n * entry.shape.k <= kInlineModelWork;
  const kernels::ModelRun model = small ? kernels::RunOnModel(kernel, entry.shape, entry.a, entry.b)
                                        : RunModelOnWorker(kernel, entry, at, progress);
  stopped = model.stopped;
  if (stopped) return {false, false, "model: stopped"};
  if (!model.ok()) return {false, false, "model: " + model.error};
  return Compare("model", entry, model.c);
}

Check RunGpu(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry) {
  std::vector<float> c;
  if (auto error = kernels::ComputeOnGpu(kernel, entry.shape, entry.a, entry.b, c)) {
    return {true, false, "GPU error: " + *error};
  }
  return Compare("GPU", entry, c);
}

// Every check that ran passed, and at least one ran.
bool CheckCase(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry, bool gpu, const Position& at,
               ProgressLine& progress, bool& stopped, std::string& details) {
  // An inf in A or B once made the tolerance inf, and the case passed whatever C held.
  if (auto value = kernels::FindNonFinite(entry.shape, entry.a, entry.b, entry.c)) {
    details = *value + " is not a finite number";
    return false;
  }
  std::vector<Check> checks{RunModel(kernel, entry, at, progress, stopped)};
  if (stopped) return false;
  if (gpu) checks.push_back(RunGpu(kernel, entry));
  bool ran = false;
  bool passed = true;
  for (const Check& check : checks) {
    ran = ran || check.ran;
    passed = passed && (check.passed || !check.ran);
    details += (details.empty() ? "" : "; ") + check.text;
  }
  return ran && passed;
}

int Run(const VerifyOptions& options) {
  const kernels::KernelSpec* kernel = kernels::FindKernel(options.kernel);
  if (kernel == nullptr || kernels::IsCublas(*kernel)) {
    std::fprintf(stderr,
                 "tilescope verify: --kernel '%s' is not a kernel the model runs (see tilescope bench --list)\n",
                 options.kernel.c_str());
    return kExitUsage;
  }
  InterruptGuard interrupt_guard;  // before the header: a script may interrupt once it sees it
  const kernels::TestVectorRead read = kernels::ReadTestVectors(options.file);
  const kernels::GpuStatus& gpu = kernels::ProbeGpu();
  std::printf("verifying %s with %s on the model%s\n", options.file.c_str(), kernel->name,
              gpu.available ? (" and on the GPU (" + gpu.device.name + ")").c_str()
                            : (": no GPU check (" + gpu.Explained() + ")").c_str());
  std::printf(
      "sizes as TileScope names them, C (M×N) = A (M×K) · B (K×N); the file's own header names the inner "
      "dimension N (M×N · N×K)\n");
  std::printf("tolerance per element C[i][j]: %s\n", kernels::kElementToleranceRule);
  int passed = 0;
  int failed = 0;
  std::string first_failure;  // "case 3 (M=… K=… N=…): why", for standard error
  ProgressLine progress;
  for (std::size_t i = 0; i < read.cases.size(); ++i) {
    const kernels::TestVectorCase& entry = read.cases[i];
    const Position at{i, read.cases.size(), entry.shape};
    std::string details;
    bool stopped = Interrupted();
    const bool ok = !stopped && CheckCase(*kernel, entry, gpu.available, at, progress, stopped, details);
    if (stopped) {
      std::printf("%d passed, %d failed\n", passed, failed);
      std::fflush(stdout);
      std::fprintf(stderr, "tilescope verify: stopped by Ctrl+C at %s; the cases after it were not checked\n",
                   Describe(at).c_str());
      return kExitInterrupted;
    }
    ok ? ++passed : ++failed;
    if (!ok && first_failure.empty()) first_failure = Describe(at) + ": " + details;
    std::printf("case %zu: M=%lld K=%lld N=%lld: %s → %s\n", i + 1, static_cast<long long>(entry.shape.m),
                static_cast<long long>(entry.shape.k), static_cast<long long>(entry.shape.n), details.c_str(),
                ok ? "pass" : "FAIL");
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  std::fflush(stdout);  // the count, then the error: in order on a terminal
  // Errors go to standard error as every command's do, also when standard output is a file.
  if (failed > 0) {
    std::fprintf(stderr, "tilescope verify: %d of %zu cases failed; the first, %s\n", failed, read.cases.size(),
                 first_failure.c_str());
  }
  if (!read.ok()) std::fprintf(stderr, "tilescope verify: %s\n", read.error.c_str());
  if (!read.ok()) return kExitBadVectorFile;
  return failed == 0 ? 0 : 1;
}

}  // namespace

void AddVerifyCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<VerifyOptions>();
  CLI::App* verify = app.add_subcommand(
      "verify",
      "Check test vectors (the test-vector harness's binary format) on the model and, with a GPU, on the real kernel");
  verify
      ->add_option("FILE", options->file,
                   "Test-vector file: int32 M, N, K; A M×N; B N×K; C M×K (N the inner dimension); float32 LE; "
                   "repeated")
      ->required();
  verify->add_option("--kernel", options->kernel, "Kernel to check (default tiled16; see tilescope bench --list)");
  verify->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
