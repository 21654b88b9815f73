// sim_bench — the model's speed and memory, printed (a program, not a test: timings vary).
//   1. a full run of 256×256×256, TILE 16, counters and hazard detection on (target < 1 s)
//      and simulated thread-instructions per second (aim: 10^8);
//   2. the slowest single step of the default lesson (target < 1 ms);
//   3. step back in a 64×64×64 lesson (target < 50 ms);
//   4. memory of the 256³ run with its step-back history (target < 512 MiB).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "sim/simulation.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

sim::LessonConfig Cube(int size, int tile) {
  sim::LessonConfig config;
  config.name = "bench";
  config.m = config.n = config.k = size;
  config.tile = tile;
  config.fill_a = sim::MatrixFill::Random(1);
  config.fill_b = sim::MatrixFill::Random(2);
  return config;
}

void FullRun() {
  sim::Simulation simulation(Cube(256, 16));
  const Clock::time_point start = Clock::now();
  simulation.RunToEnd();
  const double seconds = Seconds(start);
  const double instructions = double(simulation.counters().thread_instructions);
  std::printf("256x256x256 TILE=16 full run: %.3f s, %.0f thread-instructions, %.3g thread-instructions/s, %llu steps\n",
              seconds, instructions, instructions / seconds,
              static_cast<unsigned long long>(simulation.counters().steps));
  std::printf("256x256x256 memory with history: %.1f MiB\n", double(simulation.MemoryBytes()) / (1 << 20));
}

void DefaultLessonSteps() {
  sim::Simulation simulation{sim::LessonConfig{}};
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
  std::printf("default lesson single step: mean %.2f us, worst %.2f us over %d steps\n", 1e6 * total / steps,
              1e6 * worst, steps);
}

void StepBack64() {
  for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder}) {
    sim::LessonConfig config = Cube(64, 16);
    config.scheduler = scheduler;
    sim::Simulation simulation(config);
    simulation.RunToEnd();
    double worst = 0.0, total = 0.0;
    constexpr int kBacks = 200;
    for (int i = 0; i < kBacks; ++i) {
      const Clock::time_point start = Clock::now();
      simulation.StepBack();
      const double seconds = Seconds(start);
      worst = std::max(worst, seconds);
      total += seconds;
    }
    std::printf("64x64x64 TILE=16 step back (%s scheduler, %lld steps): mean %.3f ms, worst %.3f ms\n",
                sim::Name(scheduler), static_cast<long long>(simulation.TotalSteps()), 1e3 * total / kBacks,
                1e3 * worst);
  }
}

}  // namespace

int main() {
  FullRun();
  DefaultLessonSteps();
  StepBack64();
  return 0;
}
