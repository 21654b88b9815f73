#include "app/cli/check_command.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/command_line.h"
#include "app/cli/check_report.h"
#include "app/cli/kernel_flags.h"
#include "kernels/device.h"
#include "kernels/gpu_worker.h"
#include "kernels/student_gpu.h"
#include "sim/cuda/front_end.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/lesson/kernel_lesson.h"
#include "sim/lesson/kernel_check.h"
#include "sim/lesson/lesson_edit.h"

namespace cli {
namespace {

constexpr int kExitFailed = 1;

struct CheckOptions {
  std::vector<std::string> files;
  KernelFlags kernel_flags;
  std::string scheduler = "realistic";
  // Read by sim::ParseSeed, as trace's --seed is: "-1" is refused, not wrapped to 2^64-1.
  std::string seed = "1";
  std::string json;
  std::string csv;
  std::string time_size;
  bool no_gpu = false;
  // Given on the command line (even as ""): an empty value is then refused, not read as absent.
  bool json_given = false;
  bool csv_given = false;
  bool time_size_given = false;
};

// Reads the flags into the check's options; the first problem, or empty.
std::string CheckFlags(const CheckOptions& o, sim::cuda::FrontEndOptions& front, sim::KernelCheckOptions& check,
                       kernels::StudentGpuOptions& gpu) {
  if (o.json_given && o.json.empty()) return "--json needs a file name";
  if (o.csv_given && o.csv.empty()) return "--csv needs a file name";
  sim::KernelLessonOptions kernel_options;
  if (std::string problem = ReadKernelFlags(o.kernel_flags, kernel_options); !problem.empty()) return problem;
  front = std::move(kernel_options.front);
  check = std::move(kernel_options.check);
  const std::optional<sim::SchedulerKind> scheduler = sim::ParseSchedulerKind(o.scheduler);
  if (!scheduler) return "--scheduler " + o.scheduler + ": one of " + sim::SchedulerKindNames();
  check.scheduler = *scheduler;
  const std::optional<std::uint64_t> seed = sim::ParseSeed(o.seed);
  if (!seed) return sim::SeedProblem("--seed", o.seed);
  check.seed = *seed;
  if (o.time_size_given) {
    gpu.time_size = ParseCheckSize(o.time_size);
    if (!gpu.time_size) return "--time-size " + o.time_size + ": write N or MxNxK";
  }
  return "";
}

struct GpuSide {
  std::unique_ptr<kernels::GpuWorker> worker;  // none: no GPU run
  std::string device;
  std::string absent;  // why there is no worker
  kernels::StudentGpuOptions options;
};

// One file through the front end and the check, and on the GPU where there is one.
CheckedFile CheckFile(const std::string& file, const sim::cuda::FrontEndOptions& front, const sim::KernelCheckOptions& check,
                      const GpuSide& gpu) {
  CheckedFile checked;
  checked.file = file;
  const sim::InputFile input = sim::ReadInputFile(file, sim::kMaxKernelFileBytes);
  if (!input.ok()) {
    checked.problem = input.error;
    return checked;
  }
  const sim::cuda::FrontEndResult compiled = sim::cuda::CompileKernelFile(input.bytes, file, front);
  if (compiled.problem) {
    checked.problem = compiled.problem->Text();
    checked.located = true;
    return checked;
  }
  sim::KernelCheckResult result = sim::CheckKernel(*compiled.file, check);
  if (!result.report) {
    checked.problem = file + ": " + result.error;
    return checked;
  }
  checked.report = std::move(result.report);
  if (gpu.worker) {
    checked.gpu = kernels::RunStudentKernelOnGpu(*gpu.worker, gpu.device, *compiled.file, file, check, *checked.report, gpu.options);
  } else {
    checked.gpu_absent = gpu.absent;
  }
  return checked;
}

// Where the check's GPU half runs, or why it does not.
GpuSide OpenGpu(const CheckOptions& options) {
  GpuSide gpu;
  if (options.no_gpu) {
    gpu.absent = "--no-gpu was given";
    return gpu;
  }
  const kernels::GpuStatus& status = kernels::ProbeGpu();
  if (!status.available) {
    gpu.absent = status.Explained();
    return gpu;
  }
  gpu.device = status.device.name;
  gpu.worker = std::make_unique<kernels::GpuWorker>(kernels::DefaultGpuWorkerOptions());
  return gpu;
}

std::optional<std::string> WriteOutputs(const CheckOptions& options, const std::vector<CheckedFile>& files) {
  if (options.json_given) {
    nlohmann::json out = nlohmann::json::array();
    for (const CheckedFile& c : files) {
      if (c.report) out.push_back(CheckedJson(c));
    }
    const nlohmann::json written = files.size() == 1 && out.size() == 1 ? out[0] : nlohmann::json{{"files", out}};
    if (std::optional<std::string> error = sim::WriteFileAtomically(options.json, written.dump(2) + "\n")) return error;
  }
  if (options.csv_given) return sim::WriteFileAtomically(options.csv, CheckCsv(files));
  return std::nullopt;
}

int Run(const CheckOptions& options) {
  sim::cuda::FrontEndOptions front;
  sim::KernelCheckOptions check;
  kernels::StudentGpuOptions gpu_options;
  if (const std::string problem = CheckFlags(options, front, check, gpu_options); !problem.empty()) {
    std::fprintf(stderr, "tilescope check: %s\n", problem.c_str());
    return kExitUsage;
  }
  GpuSide gpu = OpenGpu(options);
  gpu.options = gpu_options;
  const bool one_file = options.files.size() == 1;
  std::vector<CheckedFile> files;
  int exit_code = 0;
  for (const std::string& file : options.files) {
    files.push_back(CheckFile(file, front, check, gpu));
    const CheckedFile& c = files.back();
    if (!c.report) {
      exit_code = kExitUsage;
      if (one_file) std::fprintf(stderr, "%s%s\n", c.located ? "" : "tilescope check: ", c.problem.c_str());
    } else if (!c.report->Passed() && exit_code == 0) {
      exit_code = kExitFailed;
    }
    if (one_file && c.report) PrintReport(c);
    if (!one_file) PrintLine(c);
  }
  if (!one_file) PrintSummary(files);
  if (const std::optional<std::string> error = WriteOutputs(options, files)) {
    std::fprintf(stderr, "tilescope check: %s\n", error->c_str());
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace

void AddCheckCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check",
      "Check a student's kernel file on the model: C at a few sizes against the exact product, and each mistake at its "
      "line (shared-memory races, out-of-bounds accesses, barriers not every thread reaches, reads of unwritten shared "
      "memory, races on C, bank conflicts). Where a GPU is present the same source is compiled with NVRTC and run at the "
      "same sizes, and its C compared with the model's. Several files: one line each and a class summary. Exit 0: C right "
      "and no error; 1: not; 2: usage or a file it cannot read");
  command->add_option("FILE", options->files, "Kernel files (.cu): the __global__ kernel is read, host code skipped")->required();
  AddKernelNameFlag(*command, options->kernel_flags, "--kernel", "Which __global__ function, where the file has several");
  AddKernelFlags(*command, options->kernel_flags,
                 "Sizes to check, N or MxNxK, comma-separated (default: a multiple of the block and 50x37x29)");
  command->add_option("--scheduler", options->scheduler, "Scheduler: " + sim::SchedulerKindNames() + " (default realistic)");
  command->add_option("--seed", options->seed, "Seed of the scheduler and of A and B (default 1)");
  CLI::Option* json = command->add_option("--json", options->json,
                                          "Also write the report as JSON to this file (runs[], findings[], and the GPU's fields)");
  CLI::Option* csv = command->add_option(
      "--csv", options->csv, "Also write one row per file to this CSV file: file, compiled, sizes_right, errors, warnings, first_finding");
  CLI::Option* time_size = command->add_option(
      "--time-size", options->time_size,
      "On a GPU, also time the kernel at this size (N or MxNxK): GFLOPS, the median of " +
          std::to_string(kernels::StudentGpuOptions{}.reps) + " launches, beside cuBLAS SGEMM");
  command->add_flag("--no-gpu", options->no_gpu, "Check on the model alone, even where a GPU is present");
  command->callback([options, json, csv, time_size, &action] {
    options->json_given = json->count() > 0;
    options->csv_given = csv->count() > 0;
    options->time_size_given = time_size->count() > 0;
    action = [options] { return Run(*options); };
  });
}

}  // namespace cli
