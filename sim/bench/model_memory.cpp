// model_memory — the model's peak memory per lesson, measured, beside EstimateModelMemory.
//   The most the GUI holds for one lesson is three machines at once: the lesson's Simulation
//   run to its end (its step-back history filled), the whole-run pass and the comparison
//   kernel's count, each on a worker. Each runs in a child process of its own so its peak
//   resident memory is its own; the table shows the estimate, the sum of the three peaks
//   and their ratio. Validate refuses a lesson by the estimate, so the ratio must stay
//   within 1.5 either way.
// A full table takes minutes; --quick takes a few small lessons, and --check makes the exit
// status say whether every ratio lay within 1.5 (CTest's sim.memory_estimate runs both).
// --doc-table prints, measuring nothing, the estimates docs/model.md shows for a few sizes
// (scripts/doc-figures.sh writes them there), so the docs' figures are the program's.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/comparison.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/simulation.h"

namespace {

constexpr double kMostRatio = 1.5;  // issue 14: the estimate within 1.5× of the measured peak

struct Case {
  const char* label;
  sim::LessonConfig config;
};

sim::LessonConfig Cube(int m, int n, int k, int tile) {
  sim::LessonConfig config;
  config.name = "memory";
  config.m = m;
  config.n = n;
  config.k = k;
  config.tile = tile;
  config.fill_a = sim::MatrixFill::Random(1);
  config.fill_b = sim::MatrixFill::Random(2);
  return config;
}

std::vector<Case> Cases(bool quick) {
  std::vector<Case> cases;
  for (int size : quick ? std::vector<int>{64} : std::vector<int>{64, 128, 256, 512}) {
    for (int tile : {8, 16, 32}) cases.push_back({"both barriers", Cube(size, size, size, tile)});
  }
  // Every barrier setting: without __syncthreads() the hazard detector keeps far more.
  for (int size : quick ? std::vector<int>{128} : std::vector<int>{128, 256}) {
    for (int tile : quick ? std::vector<int>{16} : std::vector<int>{8, 16, 32}) {
      sim::LessonConfig lesson = Cube(size, size, size, tile);
      cases.push_back({"both barriers", lesson});
      lesson.barrier1 = sim::SyncKind::kNone;
      cases.push_back({"no 1st barrier", lesson});
      lesson.barrier2 = sim::SyncKind::kNone;
      cases.push_back({"no barriers", lesson});
      lesson.barrier1 = lesson.barrier2 = sim::SyncKind::kSyncwarp;
      cases.push_back({"__syncwarp", lesson});
    }
  }
  sim::LessonConfig naive = Cube(quick ? 128 : 256, quick ? 128 : 256, quick ? 128 : 256, 16);
  naive.kernel = sim::KernelKind::kNaive;
  cases.push_back({"naive", naive});
  if (!quick) {
    cases.push_back({"both barriers", Cube(1024, 1024, 64, 32)});
    cases.push_back({"both barriers", Cube(768, 768, 768, 32)});
  }
  return cases;
}

// Peak resident MiB of a child that runs `work` (negative when the child failed).
template <typename Work>
double ChildPeakMiB(Work&& work) {
  const pid_t pid = fork();
  if (pid == 0) {
    work();
    std::_Exit(0);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return double(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

// A and B made in the child that uses them: pages the parent held would count in its peak.
std::vector<float> FillA(const sim::LessonConfig& c) { return sim::FillMatrix(c.fill_a, c.m, c.k); }
std::vector<float> FillB(const sim::LessonConfig& c) { return sim::FillMatrix(c.fill_b, c.k, c.n); }

double Mib(std::uint64_t bytes) { return double(bytes) / (1 << 20); }

// The three machines the GUI may hold for a lesson, each run in a child of its own.
void RunLesson(const sim::LessonConfig& config) { sim::Simulation(config).RunToEnd(); }
void RunWholeRun(const sim::LessonConfig& config) {
  sim::ComputeTimeline(config, FillA(config), FillB(config), nullptr, nullptr);
}
void RunComparison(const sim::LessonConfig& config) { sim::CountComparison(config, FillA(config), FillB(config), nullptr); }
using Run = void (*)(const sim::LessonConfig&);
constexpr Run kRuns[] = {RunLesson, RunWholeRun, RunComparison};

// The estimates as a Markdown table: what each size takes as a lesson (its step-back history
// beside the whole-run pass and the comparison kernel), without step back (the lesson held at
// step 0 while its whole run is counted once) and as one bare run, against the limit.
void PrintDocTable() {
  const auto mib = [](std::uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20); };
  std::printf("| M×N×K | TILE | as a lesson (MiB) | without step back (MiB) | one run (MiB) | opens |\n");
  std::printf("|---|---|---|---|---|---|\n");
  const int sizes[][3] = {{64, 64, 64}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 64}, {1024, 1024, 1024}, {2048, 2048, 2048}};
  for (const auto& size : sizes) {
    for (int tile : {16, 32}) {
      const sim::LessonConfig config = Cube(size[0], size[1], size[2], tile);
      const sim::MemoryEstimate estimate = sim::EstimateModelMemory(config);
      const char* opens = sim::Validate(config, sim::ModelUse::kLessonWithoutStepBack) ? "no"
                          : sim::OpeningMode(config) == sim::LessonMode::kStepping ? "with step back"
                                                                                   : "without step back";
      std::printf("| %d×%d×%d | %d | %s | %s | %s | %s |\n", size[0], size[1], size[2], tile, mib(estimate.total()).c_str(),
                  mib(estimate.without_step_back()).c_str(), mib(estimate.whole_run).c_str(), opens);
    }
  }
  std::printf("\nThe limit is %s MiB (`sim::kMaxModelBytes`).\n", mib(sim::kMaxModelBytes).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--doc-table") {
      if (argc == 2) PrintDocTable();
      if (argc != 2) std::fprintf(stderr, "model_memory: --doc-table takes no other argument\n");
      return argc == 2 ? 0 : 2;
    }
    if (arg == "--quick" || arg == "--check") {
      (arg == "--quick" ? quick : check) = true;
      continue;
    }
    const bool help = arg == "--help" || arg == "-h";
    std::fprintf(help ? stdout : stderr,
                 "%susage: model_memory [--quick] [--check]   (the model's peak memory per lesson beside its "
                 "estimate; --check: exit 1 unless every ratio lies within 1.5)\n"
                 "       model_memory --doc-table           (the estimates docs/model.md shows, measuring nothing)\n",
                 help ? "" : ("model_memory: unknown argument " + arg + "\n").c_str());
    return help ? 0 : 2;
  }
  int outside = 0;
  // What a child pages in to run a machine at all (the program's code and libraries) is no
  // part of the model's memory: each machine's baseline is its run of the smallest lesson.
  const sim::LessonConfig smallest = Cube(2, 2, 2, 2);
  double baselines[3];
  for (int i = 0; i < 3; ++i) baselines[i] = ChildPeakMiB([&] { kRuns[i](smallest); });
  std::printf("baselines, each machine's run of a 2x2x2 lesson: %.1f, %.1f, %.1f MiB (subtracted)\n", baselines[0],
              baselines[1], baselines[2]);
  std::printf("%-16s %-20s %12s %12s %7s   %s\n", "lesson", "kernel", "estimate MiB", "peak MiB", "ratio",
              "ratio of: lesson, whole run, comparison");
  for (const Case& c : Cases(quick)) {
    const sim::LessonConfig& config = c.config;
    const std::string shape = std::to_string(config.m) + "x" + std::to_string(config.n) + "x" +
                              std::to_string(config.k) + " T" + std::to_string(config.tile);
    const double estimate = double(sim::EstimateModelMemory(config).total()) / (1 << 20);
    if (auto error = sim::Validate(config)) {
      std::printf("%-16s %-20s %12.1f %12s %7s  refused: %s\n", shape.c_str(), c.label, estimate, "-", "-",
                  error->message.c_str());
      continue;
    }
    const sim::MemoryEstimate parts = sim::EstimateModelMemory(config);
    double peaks[3];
    for (int i = 0; i < 3; ++i) peaks[i] = ChildPeakMiB([&] { kRuns[i](config); }) - baselines[i];
    const double peak = peaks[0] + peaks[1] + peaks[2];
    std::printf("%-16s %-20s %12.1f %12.1f %7.2f   %6.2f %6.2f %6.2f\n", shape.c_str(),
                config.kernel == sim::KernelKind::kNaive ? "naive" : c.label, estimate, peak, estimate / peak,
                Mib(parts.lesson) / peaks[0], Mib(parts.whole_run) / peaks[1], Mib(parts.comparison) / peaks[2]);
    std::fflush(stdout);
    if (!(estimate / peak <= kMostRatio && peak / estimate <= kMostRatio)) ++outside;
  }
  if (outside > 0) std::printf("%d lessons outside %.1f× of their estimate\n", outside, kMostRatio);
  return check && outside > 0 ? 1 : 0;
}
