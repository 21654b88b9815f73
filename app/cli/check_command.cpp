#include "app/cli/check_command.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/kernel_flags.h"
#include "sim/cuda/front_end.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/lesson/kernel_check.h"
#include "sim/lesson/kernel_lesson.h"
#include "sim/lesson/lesson_edit.h"

namespace cli {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct CheckOptions {
  std::vector<std::string> files;
  std::string kernel;
  KernelFlags kernel_flags;
  std::string scheduler = "realistic";
  // Read by sim::ParseSeed, as trace's --seed is: "-1" is refused, not wrapped to 2^64-1.
  std::string seed = "1";
  std::string json;
  // Given on the command line (even as ""): an empty value is then refused, not read as absent.
  bool kernel_given = false;
  bool json_given = false;
};

// Reads the flags into the check's options; the first problem, or empty.
std::string CheckFlags(const CheckOptions& o, sim::cuda::FrontEndOptions& front, sim::KernelCheckOptions& check) {
  if (o.kernel_given && o.kernel.empty()) return "--kernel needs a kernel's name";
  if (o.json_given && o.json.empty()) return "--json needs a file name";
  sim::KernelLessonOptions kernel_options;
  if (std::string problem = ReadKernelFlags(o.kernel_flags, kernel_options); !problem.empty()) return problem;
  front = std::move(kernel_options.front);
  check = std::move(kernel_options.check);
  front.kernel = o.kernel;
  const std::optional<sim::SchedulerKind> scheduler = sim::ParseSchedulerKind(o.scheduler);
  if (!scheduler) return "--scheduler " + o.scheduler + ": one of " + sim::SchedulerKindNames();
  check.scheduler = *scheduler;
  const std::optional<std::uint64_t> seed = sim::ParseSeed(o.seed);
  if (!seed) return sim::SeedProblem("--seed", o.seed);
  check.seed = *seed;
  return "";
}

void PrintReport(const std::string& file, const sim::KernelCheckReport& report) {
  std::printf("%s: kernel %s, block %dx%dx%d\n", file.c_str(), report.kernel.c_str(), report.block[0], report.block[1], report.block[2]);
  for (const sim::CheckRun& r : report.runs) {
    std::printf("  %dx%dx%d: ", r.size.m, r.size.n, r.size.k);
    if (r.wrong_elements == 0) {
      std::printf("C right (%llu elements)\n", static_cast<unsigned long long>(r.elements));
    } else {
      std::printf("C wrong at %llu of %llu elements; first C[%d][%d] = %g, expected %g\n",
                  static_cast<unsigned long long>(r.wrong_elements), static_cast<unsigned long long>(r.elements),
                  r.first_wrong->row, r.first_wrong->col, r.first_wrong->got, r.first_wrong->expected);
    }
  }
  for (const sim::CheckFinding& f : report.findings) {
    std::printf("%s:%d: %s: %s%s%s (%llu time%s)\n", file.c_str(), f.line, f.error ? "error" : "warning", sim::Name(f.kind),
                f.hazard.empty() ? "" : (" " + f.hazard).c_str(), (": " + f.sentence).c_str(),
                static_cast<unsigned long long>(f.count), f.count == 1 ? "" : "s");
  }
  std::printf("%s: %s\n", file.c_str(), report.Passed() ? "PASS" : "FAIL");
}

int Run(const CheckOptions& options) {
  sim::cuda::FrontEndOptions front;
  sim::KernelCheckOptions check;
  if (const std::string problem = CheckFlags(options, front, check); !problem.empty()) {
    std::fprintf(stderr, "tilescope check: %s\n", problem.c_str());
    return kExitUsage;
  }
  int exit_code = 0;
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& file : options.files) {
    const sim::InputFile input = sim::ReadInputFile(file, sim::kMaxKernelFileBytes);
    if (!input.ok()) {
      std::fprintf(stderr, "tilescope check: %s\n", input.error.c_str());
      exit_code = kExitUsage;
      continue;
    }
    const sim::cuda::FrontEndResult compiled = sim::cuda::CompileKernelFile(input.bytes, file, front);
    if (compiled.problem) {
      std::fprintf(stderr, "%s\n", compiled.problem->Text().c_str());
      exit_code = kExitUsage;
      continue;
    }
    const sim::KernelCheckResult result = sim::CheckKernel(*compiled.file, check);
    if (!result.report) {
      std::fprintf(stderr, "tilescope check: %s: %s\n", file.c_str(), result.error.c_str());
      exit_code = kExitUsage;
      continue;
    }
    PrintReport(file, *result.report);
    out.push_back(sim::CheckJson(*result.report, file));
    if (!result.report->Passed() && exit_code == 0) exit_code = kExitFailed;
  }
  if (options.json_given) {
    const nlohmann::json written = options.files.size() == 1 && out.size() == 1 ? out[0] : nlohmann::json{{"files", out}};
    if (const std::optional<std::string> error = sim::WriteFileAtomically(options.json, written.dump(2) + "\n")) {
      std::fprintf(stderr, "tilescope check: %s\n", error->c_str());
      return kExitUsage;
    }
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
      "memory, races on C, bank conflicts). Exit 0: C right and no error; 1: not; 2: usage or a file it cannot read");
  command->add_option("FILE", options->files, "Kernel files (.cu): the __global__ kernel is read, host code skipped")->required();
  CLI::Option* kernel = command->add_option("--kernel", options->kernel, "Which __global__ function, where the file has several");
  AddKernelFlags(*command, options->kernel_flags,
                 "Sizes to check, N or MxNxK, comma-separated (default: a multiple of the block and 50x37x29)");
  command->add_option("--scheduler", options->scheduler, "Scheduler: " + sim::SchedulerKindNames() + " (default realistic)");
  command->add_option("--seed", options->seed, "Seed of the scheduler and of A and B (default 1)");
  CLI::Option* json = command->add_option("--json", options->json, "Also write the report as JSON to this file (runs[], findings[])");
  command->callback([options, kernel, json, &action] {
    options->kernel_given = kernel->count() > 0;
    options->json_given = json->count() > 0;
    action = [options] { return Run(*options); };
  });
}

}  // namespace cli
