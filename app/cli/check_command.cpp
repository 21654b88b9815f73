#include "app/cli/check_command.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/check_report.h"
#include "kernels/device.h"
#include "kernels/gpu_worker.h"
#include "kernels/student_gpu.h"
#include "sim/cuda/front_end.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/lesson/kernel_check.h"
#include "sim/lesson/lesson_edit.h"

namespace cli {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr std::uint64_t kMaxKernelFileBytes = 4u << 20;

struct CheckOptions {
  std::vector<std::string> files;
  std::string kernel;
  std::string block;
  std::string grid = "auto";
  std::vector<std::string> sizes;
  std::vector<std::string> defines;
  std::string scheduler = "realistic";
  // Read by sim::ParseSeed, as trace's --seed is: "-1" is refused, not wrapped to 2^64-1.
  std::string seed = "1";
  std::string json;
  std::string csv;
  std::string time_size;
  bool no_gpu = false;
  // Given on the command line (even as ""): an empty value is then refused, not read as absent.
  bool kernel_given = false;
  bool block_given = false;
  bool json_given = false;
  bool csv_given = false;
  bool time_size_given = false;
};

// --grid's axes: split at the commas outside parentheses (an axis may be `min(N, 64)`).
std::vector<std::string> GridAxes(const std::string& text) {
  std::vector<std::string> axes(1);
  int depth = 0;
  for (const char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (c == ',' && depth == 0) {
      axes.emplace_back();
    } else {
      axes.back() += c;
    }
  }
  return axes;
}

// "64" (64x64x64) or "50x37x29"; nothing where the text is neither.
std::optional<sim::CheckSize> ParseSize(const std::string& text) {
  const std::optional<std::array<int, 3>> dims = sim::ParseExtents(text, 'x');
  const auto separators = std::count(text.begin(), text.end(), 'x');
  if (!dims || (separators != 0 && separators != 2)) return std::nullopt;
  if (separators == 0) return sim::CheckSize{(*dims)[0], (*dims)[0], (*dims)[0]};
  return sim::CheckSize{(*dims)[0], (*dims)[1], (*dims)[2]};
}

// Reads the flags into the check's options; the first problem, or empty.
std::string CheckFlags(const CheckOptions& o, sim::cuda::FrontEndOptions& front, sim::KernelCheckOptions& check,
                       kernels::StudentGpuOptions& gpu) {
  if (o.kernel_given && o.kernel.empty()) return "--kernel needs a kernel's name";
  if (o.json_given && o.json.empty()) return "--json needs a file name";
  if (o.csv_given && o.csv.empty()) return "--csv needs a file name";
  front.kernel = o.kernel;
  for (const std::string& d : o.defines) {
    const std::size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) return "--define " + d + ": write NAME=VALUE";
    front.defines[d.substr(0, eq)] = d.substr(eq + 1);
    try {
      std::size_t used = 0;
      const long long v = std::stoll(d.substr(eq + 1), &used, 0);
      if (used == d.size() - eq - 1) check.int_values[d.substr(0, eq)] = v;
    } catch (const std::exception&) {
    }
  }
  if (o.block_given) {
    check.block = sim::ParseExtents(o.block, 'x');
    if (!check.block) return "--block " + o.block + ": write X, XxY or XxYxZ (threads, each 1 to 65536)";
  }
  const std::vector<std::string> axes = GridAxes(o.grid);
  if (axes.size() > 3) return "--grid " + o.grid + ": at most three axes, X,Y,Z";
  for (std::size_t d = 0; d < axes.size(); ++d) {
    if (axes[d].find_first_not_of(" ") == std::string::npos) {
      return "--grid " + o.grid + ": axis " + std::to_string(d + 1) + " is empty (write auto, a count or an expression in M, N, K, blockDim)";
    }
    if (const std::string problem = sim::GridAxisProblem(axes[d]); !problem.empty()) return problem;
    check.grid[d] = axes[d];
  }
  for (const std::string& s : o.sizes) {
    const std::optional<sim::CheckSize> size = ParseSize(s);
    if (!size) return "--sizes " + s + ": write N or MxNxK";
    check.sizes.push_back(*size);
  }
  const std::optional<sim::SchedulerKind> scheduler = sim::ParseSchedulerKind(o.scheduler);
  if (!scheduler) return "--scheduler " + o.scheduler + ": one of " + sim::SchedulerKindNames();
  check.scheduler = *scheduler;
  const std::optional<std::uint64_t> seed = sim::ParseSeed(o.seed);
  if (!seed) return sim::SeedProblem("--seed", o.seed);
  check.seed = *seed;
  if (o.time_size_given) {
    gpu.time_size = ParseSize(o.time_size);
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
  const sim::InputFile input = sim::ReadInputFile(file, kMaxKernelFileBytes);
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
  CLI::Option* kernel = command->add_option("--kernel", options->kernel, "Which __global__ function, where the file has several");
  CLI::Option* block =
      command->add_option("--block", options->block, "Threads per block, XxY[xZ] (default: the file's <<<grid, block>>> launch)");
  command->add_option("--grid", options->grid,
                      "Blocks, X,Y,Z, each auto (enough to cover C: x along N, y along M; z 1) or an integer expression in "
                      "M, N, K and blockDim.x/y/z, such as (N+15)/16; default auto");
  command->add_option("--sizes", options->sizes,
                      "Sizes to check, N or MxNxK, comma-separated (default: a multiple of the block and 50x37x29)")
      ->delimiter(',');
  command->add_option("--define", options->defines,
                      "NAME=VALUE: a template parameter, a macro (replacing the file's #define), or an int parameter");
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
  command->callback([options, kernel, block, json, csv, time_size, &action] {
    options->kernel_given = kernel->count() > 0;
    options->block_given = block->count() > 0;
    options->json_given = json->count() > 0;
    options->csv_given = csv->count() > 0;
    options->time_size_given = time_size->count() > 0;
    action = [options] { return Run(*options); };
  });
}

}  // namespace cli
