// sim_bench — the model's speed and memory, printed (a program, not a test: timings vary).
//   1. a full run of 256×256×256, TILE 16, counters and hazard detection on (target < 1 s
//      on one core) and simulated thread-instructions per second (aim: 10^8); once with
//      both barriers (no shared read can race, so the detector sees the stores only) and
//      once without the first barrier (every shared read goes through the detector); a
//      run the model refuses (Validate: the lesson-size limit) is skipped with its reason;
//   2. the slowest single step of the default lesson, per scheduler (target < 1 ms);
//   3. step back in a 64×64×64 lesson, over more than a checkpoint interval (target < 50 ms),
//      and in the 256³ runs of 1. at places spread along the whole run (each replays from its
//      nearest checkpoint, which the last steps of a run are close to);
//   4. memory of the 256³ run with its step-back history (target < 512 MiB);
//   5. a student's kernel file (the handout's tiled kernel, tests/sim/kernels) compiled by the
//      front end and run bare on the machine at 128³ TILE 16 (aim: 5·10^7 thread-instructions
//      per second; a student kernel's thread-instructions are all its compiled instructions,
//      register arithmetic and loop control included, where a lesson counts memory accesses,
//      barriers and fmaf only), with both barriers and without the first;
//   6. the whole-run pass a lesson change starts (a fresh machine run to the end for the
//      total steps, timeline marks and whole-run counters) at 512³ and 1024³, TILE 32, once
//      each: a pass the model refuses (Validate, a bare run's memory) is skipped with its
//      reason, and a lesson it would refuse as a whole is named.
// Wall time suffers when other processes share the cores; CPU time of this thread does
// much less, so both are printed, each the best of a few repetitions.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/io/cpu_time.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/machine.h"
#include "sim/model/simulation.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kFullRunRepetitions = 3;
constexpr int kStepBacks = 3000;
constexpr int kStepBackPlaces = 98;

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Wall and CPU seconds of `work`.
template <typename Work>
std::pair<double, double> Time(Work&& work) {
  const Clock::time_point start = Clock::now();
  const double cpu_start = sim::ThreadCpuSeconds();
  work();
  return {Seconds(start), sim::ThreadCpuSeconds() - cpu_start};
}

sim::LessonConfig Cube(int size, int tile) {
  sim::LessonConfig config;
  config.name = "bench";
  config.m = config.n = config.k = size;
  config.tile = tile;
  config.fill_a = sim::MatrixFill::Random(1);
  config.fill_b = sim::MatrixFill::Random(2);
  return config;
}

void FullRun(const char* what, const sim::LessonConfig& config) {
  if (auto error = sim::Validate(config)) {
    std::printf("256x256x256 TILE=16 full run, %s: skipped: %s\n", what, error->message.c_str());
    return;
  }
  double best_wall = 1e30, best_cpu = 1e30;
  double instructions = 0, memory_mib = 0;
  unsigned long long steps = 0, hazards = 0;
  for (int i = 0; i < kFullRunRepetitions; ++i) {
    sim::Simulation simulation(config);
    const auto [wall, cpu] = Time([&] { simulation.RunToEnd(); });
    best_wall = std::min(best_wall, wall);
    best_cpu = std::min(best_cpu, cpu);
    instructions = double(simulation.counters().thread_instructions);
    steps = simulation.counters().steps;
    hazards = simulation.counters().hazards;
    memory_mib = double(simulation.MemoryBytes()) / (1 << 20);
  }
  std::printf(
      "256x256x256 TILE=16 full run, %s: best of %d: %.3f s wall, %.3f s CPU; %.0f thread-instructions "
      "(%llu steps, %llu hazards): %.3g thread-instructions/s of CPU\n",
      what, kFullRunRepetitions, best_wall, best_cpu, instructions, steps, hazards, instructions / best_cpu);
  std::printf("  memory with step-back history: %.1f MiB counted by the model\n", memory_mib);
}

void StudentKernel(const char* file) {
  constexpr int kSize = 128;
  constexpr int kTile = 16;
  const std::string path = std::string(TILESCOPE_SOURCE_DIR) + "/tests/sim/kernels/" + file;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const sim::cuda::FrontEndResult compiled = sim::cuda::CompileKernelFile(text.str(), path, {});
  if (!in || compiled.problem) {
    std::printf("student kernel %s: skipped: %s\n", file, !in ? "cannot read it" : compiled.problem->Text().c_str());
    return;
  }
  sim::KernelLaunch launch;
  launch.kernel = std::make_shared<const sim::cuda::CompiledKernel>(compiled.file->kernel);
  launch.block = {kTile, kTile, 1};
  launch.grid = {kSize / kTile, kSize / kTile, 1};
  launch.m = launch.n = launch.k = kSize;
  launch.arguments = {0, 1, 2, kSize, kSize, kSize};
  double best_wall = 1e30, best_cpu = 1e30, instructions = 0;
  unsigned long long steps = 0, hazards = 0;
  for (int i = 0; i < kFullRunRepetitions; ++i) {
    sim::Machine machine(launch, sim::FillMatrix(sim::MatrixFill::Random(1), kSize, kSize),
                         sim::FillMatrix(sim::MatrixFill::Random(2), kSize, kSize));
    const auto [wall, cpu] = Time([&] {
      while (machine.Step()) {
      }
    });
    best_wall = std::min(best_wall, wall);
    best_cpu = std::min(best_cpu, cpu);
    instructions = double(machine.state().counters.thread_instructions);
    steps = machine.state().counters.steps;
    hazards = machine.state().counters.hazards;
  }
  std::printf(
      "student kernel %s, 128x128x128 TILE=16, bare machine: best of %d: %.3f s wall, %.3f s CPU; %.0f "
      "thread-instructions (%llu steps, %llu hazards): %.3g thread-instructions/s of CPU\n",
      file, kFullRunRepetitions, best_wall, best_cpu, instructions, steps, hazards, instructions / best_cpu);
}

void DefaultLessonSteps() {
  for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder, sim::SchedulerKind::kRandom,
                         sim::SchedulerKind::kRaceExposing}) {
    sim::LessonConfig config;
    config.scheduler = scheduler;
    sim::Simulation simulation(config);
    double worst = 0.0, total = 0.0;
    int steps = 0;
    while (true) {
      const Clock::time_point start = Clock::now();
      if (simulation.Step() == 0) break;
      const double seconds = Seconds(start);
      worst = std::max(worst, seconds);
      total += seconds;
      ++steps;
    }
    std::printf("default lesson single step (%s scheduler): mean %.2f us, worst %.2f us over %d steps\n",
                sim::Name(scheduler), 1e6 * total / steps, 1e6 * worst, steps);
  }
}

void StepBackAlongTheRun(const char* what, const sim::LessonConfig& config) {
  if (sim::Validate(config)) return;  // FullRun said why
  sim::Simulation simulation(config);
  simulation.RunToEnd();
  const std::int64_t total_steps = simulation.step();
  double worst = 0.0, total = 0.0;
  int places = 0;
  for (std::int64_t place = total_steps - 1; place > 0 && places < kStepBackPlaces; place -= total_steps / kStepBackPlaces) {
    simulation.JumpTo(place + 1);
    const Clock::time_point start = Clock::now();
    simulation.StepBack();
    const double seconds = Seconds(start);
    worst = std::max(worst, seconds);
    total += seconds;
    ++places;
  }
  std::printf("256x256x256 TILE=16 step back, %s: mean %.1f ms, worst %.1f ms at %d places along the run\n", what,
              1e3 * total / places, 1e3 * worst, places);
}

void StepBack64() {
  for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder}) {
    sim::LessonConfig config = Cube(64, 16);
    config.scheduler = scheduler;
    sim::Simulation simulation(config);
    simulation.RunToEnd();
    const std::int64_t total_steps = simulation.step();
    double worst = 0.0, total = 0.0;
    int backs = 0;
    // Consecutive steps back over more than a checkpoint interval: one of them replays the
    // whole interval, the slowest case.
    for (; backs < kStepBacks && simulation.step() > 0; ++backs) {
      const Clock::time_point start = Clock::now();
      simulation.StepBack();
      const double seconds = Seconds(start);
      worst = std::max(worst, seconds);
      total += seconds;
    }
    std::printf(
        "64x64x64 TILE=16 step back (%s scheduler, %lld steps): mean %.3f ms, worst %.3f ms over %d steps back\n",
        sim::Name(scheduler), static_cast<long long>(total_steps), 1e3 * total / backs, 1e3 * worst, backs);
  }
}

void WholeRunPass(int size, int tile) {
  const sim::LessonConfig config = Cube(size, tile);
  // The pass is one bare machine: held to its own memory, it runs even where the lesson as a
  // whole (with its history and the comparison's machine) would be refused, and says so.
  if (auto error = sim::Validate(config, sim::ModelUse::kBareRun)) {
    std::printf("%dx%dx%d TILE=%d whole-run pass: skipped: %s\n", size, size, size, tile, error->message.c_str());
    return;
  }
  if (auto error = sim::Validate(config)) {
    std::printf("%dx%dx%d TILE=%d as a lesson: refused: %s\n", size, size, size, tile, error->message.c_str());
  }
  const std::vector<float> a = sim::FillMatrix(config.fill_a, size, size);
  const std::vector<float> b = sim::FillMatrix(config.fill_b, size, size);
  std::optional<sim::Timeline> pass;
  const auto [wall, cpu] = Time([&] { pass = sim::ComputeTimeline(config, a, b, nullptr, nullptr); });
  const sim::Timeline& timeline = *pass;
  const double instructions = double(timeline.counters.thread_instructions);
  std::printf(
      "%dx%dx%d TILE=%d whole-run pass: best of 1: %.3f s wall, %.3f s CPU; %.0f thread-instructions "
      "(%lld steps, %llu hazards): %.3g thread-instructions/s of CPU\n",
      size, size, size, tile, wall, cpu, instructions, static_cast<long long>(timeline.total_steps),
      static_cast<unsigned long long>(timeline.counters.hazards), instructions / cpu);
  std::printf("  model state estimate %.0f MiB (EstimateModelMemory); peak resident memory so far: %.1f MiB\n",
              double(sim::EstimateModelMemory(config).total()) / (1 << 20), PeakRssMiB());
}

}  // namespace

int main(int argc, char** argv) {
  // A program, not a test: it takes one switch, and says so rather than ignore anything else.
  const bool student_only = argc == 2 && std::string(argv[1]) == "--student";
  if (argc > 1 && !student_only) {
    const bool help = std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h";
    std::fprintf(help ? stdout : stderr,
                 "%susage: sim_bench [--student]   (prints the model's speed and memory figures; --student: only 5., a "
                 "student's kernel)\n",
                 help ? "" : ("sim_bench: unknown argument " + std::string(argv[1]) + "\n").c_str());
    return help ? 0 : 2;
  }
  if (student_only) {
    StudentKernel("tiled_syncthreads_syncthreads.cu");
    StudentKernel("tiled_none_syncthreads.cu");
    return 0;
  }
  FullRun("both barriers", Cube(256, 16));
  sim::LessonConfig race = Cube(256, 16);
  race.barrier1 = sim::SyncKind::kNone;
  FullRun("1st barrier off", race);
  std::printf("peak resident memory so far: %.1f MiB\n", PeakRssMiB());
  StudentKernel("tiled_syncthreads_syncthreads.cu");
  StudentKernel("tiled_none_syncthreads.cu");
  StepBackAlongTheRun("both barriers", Cube(256, 16));
  StepBackAlongTheRun("1st barrier off", race);
  DefaultLessonSteps();
  StepBack64();
  WholeRunPass(512, 32);
  WholeRunPass(1024, 32);
  return 0;
}
