#include "app/cli/check_command.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
  // Given on the command line (even as ""): an empty value is then refused, not read as absent.
  bool kernel_given = false;
  bool block_given = false;
  bool json_given = false;
};

// "16x16", "256" or "8x8x2": up to three positive integers split by `separator`.
std::optional<std::array<int, 3>> ParseDims(const std::string& text, char separator) {
  std::array<int, 3> dims{1, 1, 1};
  std::size_t at = 0;
  for (int d = 0; d < 3; ++d) {
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text.substr(at), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used == 0 || value < 1 || value > (1 << 16) || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
    dims[static_cast<std::size_t>(d)] = static_cast<int>(value);
    at += used;
    if (at == text.size()) return dims;
    if (text[at] != separator) return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

// Reads the flags into the check's options; the first problem, or empty.
std::string CheckFlags(const CheckOptions& o, sim::cuda::FrontEndOptions& front, sim::KernelCheckOptions& check) {
  if (o.kernel_given && o.kernel.empty()) return "--kernel needs a kernel's name";
  if (o.json_given && o.json.empty()) return "--json needs a file name";
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
    check.block = ParseDims(o.block, 'x');
    if (!check.block) return "--block " + o.block + ": write X, XxY or XxYxZ (threads, each 1 to 65536)";
  }
  if (o.grid != "auto") {
    // X,Y,Z, each a count or auto.
    std::size_t at = 0;
    for (std::size_t d = 0; d < 3 && at <= o.grid.size(); ++d) {
      const std::size_t comma = std::min(o.grid.find(',', at), o.grid.size());
      const std::string part = o.grid.substr(at, comma - at);
      const std::optional<std::array<int, 3>> count = ParseDims(part, ',');
      if (part != "auto" && (!count || part.find(',') != std::string::npos)) return "--grid " + o.grid + ": write auto, or X,Y,Z (blocks, each a count or auto)";
      check.grid[d] = part == "auto" ? 0 : (*count)[0];
      at = comma + 1;
    }
    if (at <= o.grid.size()) return "--grid " + o.grid + ": at most three axes";
  }
  for (const std::string& s : o.sizes) {
    const std::optional<std::array<int, 3>> dims = ParseDims(s, 'x');
    const bool square = s.find('x') == std::string::npos;
    if (!dims || (!square && std::count(s.begin(), s.end(), 'x') != 2)) return "--sizes " + s + ": write N or MxNxK";
    check.sizes.push_back(square ? sim::CheckSize{(*dims)[0], (*dims)[0], (*dims)[0]} : sim::CheckSize{(*dims)[0], (*dims)[1], (*dims)[2]});
  }
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
    const sim::InputFile input = sim::ReadInputFile(file, kMaxKernelFileBytes);
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
  CLI::Option* block =
      command->add_option("--block", options->block, "Threads per block, XxY[xZ] (default: the file's <<<grid, block>>> launch)");
  command->add_option("--grid", options->grid,
                      "Blocks, X,Y,Z, each a count or auto (auto: enough to cover C, x along N and y along M; z 1); "
                      "default auto");
  command->add_option("--sizes", options->sizes,
                      "Sizes to check, N or MxNxK, comma-separated (default: a multiple of the block and 50x37x29)")
      ->delimiter(',');
  command->add_option("--define", options->defines,
                      "NAME=VALUE: a template parameter, a macro (replacing the file's #define), or an int parameter");
  command->add_option("--scheduler", options->scheduler, "Scheduler: " + sim::SchedulerKindNames() + " (default realistic)");
  command->add_option("--seed", options->seed, "Seed of the scheduler and of A and B (default 1)");
  CLI::Option* json = command->add_option("--json", options->json, "Also write the report as JSON to this file (runs[], findings[])");
  command->callback([options, kernel, block, json, &action] {
    options->kernel_given = kernel->count() > 0;
    options->block_given = block->count() > 0;
    options->json_given = json->count() > 0;
    action = [options] { return Run(*options); };
  });
}

}  // namespace cli
