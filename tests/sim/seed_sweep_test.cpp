// The race lab's "run N seeds": with both barriers no seed goes wrong; without one, the
// race-exposing policy goes wrong every time; the figures add up; progress is reported and
// Cancel stops the sweep between runs.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/seed_sweep.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <utility>
#include <vector>

#include "sim/model/reference.h"
#include "sim/model/run_check.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::LessonConfig;

LessonConfig RandomFilled(int size, int tile, sim::SchedulerKind scheduler) {
  LessonConfig config = sim_test::WithRandomFill(sim_test::Tiled(size, size, 2 * size, tile), 11);
  config.scheduler = scheduler;
  return config;
}

// The figures a sweep reports must agree with each other.
void ExpectConsistent(const sim::SeedSweepResult& result) {
  int runs = 0;
  int runs_wrong = 0;
  double total = 0;
  for (const auto& [wrong, count] : result.wrong_elements_histogram) {
    runs += count;
    runs_wrong += wrong > 0 ? count : 0;
    total += double(wrong) * count;
  }
  EXPECT_EQ(runs, result.runs);
  EXPECT_EQ(runs_wrong, result.runs_wrong);
  if (result.runs == 0) return;
  EXPECT_EQ(result.min_wrong, result.wrong_elements_histogram.begin()->first);
  EXPECT_EQ(result.max_wrong, result.wrong_elements_histogram.rbegin()->first);
  EXPECT_DOUBLE_EQ(result.mean_wrong, total / result.runs);
}

TEST(SeedSweep, BarriersOnNeverWrongForAnySeed) {
  constexpr int kSeeds = 100;
  for (auto scheduler :
       {sim::SchedulerKind::kRandom, sim::SchedulerKind::kRealistic, sim::SchedulerKind::kRaceExposing}) {
    const sim::SeedSweepResult result = sim::RunSeeds(RandomFilled(8, 4, scheduler), kSeeds, 1);
    EXPECT_EQ(result.runs, kSeeds);
    EXPECT_EQ(result.runs_wrong, 0) << sim::Name(scheduler);
    EXPECT_EQ(result.runs_with_hazards, 0) << sim::Name(scheduler);
    EXPECT_EQ(result.runs_witnessed_coincided, 0);
    EXPECT_FALSE(result.cancelled);
    ExpectConsistent(result);
  }
}

TEST(SeedSweep, RaceExposingWithoutABarrierIsWrongEveryTime) {
  constexpr int kSeeds = 20;
  for (bool first : {true, false}) {
    LessonConfig config = RandomFilled(8, 4, sim::SchedulerKind::kRaceExposing);
    (first ? config.barrier1 : config.barrier2) = sim::SyncKind::kNone;
    const sim::SeedSweepResult result = sim::RunSeeds(config, kSeeds, 1);
    EXPECT_EQ(result.runs, kSeeds);
    EXPECT_EQ(result.runs_wrong, kSeeds) << (first ? "1st" : "2nd") << " barrier off";
    EXPECT_EQ(result.runs_with_hazards, kSeeds);
    EXPECT_GT(result.min_wrong, 0u);
    ExpectConsistent(result);
  }
}

TEST(SeedSweep, EachRunIsTheSimulationWithThatSeed) {
  LessonConfig config = RandomFilled(8, 4, sim::SchedulerKind::kRandom);
  config.barrier2 = sim::SyncKind::kNone;
  constexpr int kSeeds = 12;
  constexpr std::uint64_t kFirstSeed = 40;
  std::vector<std::uint64_t> wrong;
  for (int i = 0; i < kSeeds; ++i) {
    LessonConfig run = config;
    run.seed = kFirstSeed + static_cast<std::uint64_t>(i);
    sim::Simulation simulation(run);
    simulation.RunToEnd();
    wrong.push_back(sim::Assess(simulation).wrong_elements);
  }
  const sim::SeedSweepResult result = sim::RunSeeds(config, kSeeds, kFirstSeed);
  std::map<std::uint64_t, int> histogram;
  for (std::uint64_t count : wrong) ++histogram[count];
  EXPECT_EQ(result.wrong_elements_histogram, histogram);
  ExpectConsistent(result);
}

TEST(SeedSweep, ProgressIsReportedAfterEveryRun) {
  constexpr int kSeeds = 7;
  std::vector<std::pair<int, int>> calls;
  sim::RunSeeds(RandomFilled(4, 2, sim::SchedulerKind::kRandom), kSeeds, 1,
                [&calls](int done, int total) { calls.emplace_back(done, total); });
  ASSERT_EQ(calls.size(), static_cast<std::size_t>(kSeeds));
  for (int i = 0; i < kSeeds; ++i) EXPECT_EQ(calls[static_cast<std::size_t>(i)], std::make_pair(i + 1, kSeeds));
}

TEST(SeedSweep, CancelStopsBetweenRuns) {
  constexpr int kStopAfter = 3;
  std::atomic<bool> cancel{false};
  const sim::SeedSweepResult result = sim::RunSeeds(
      RandomFilled(4, 2, sim::SchedulerKind::kRandom), 100, 1,
      [&cancel](int done, int) { cancel = done == kStopAfter; }, &cancel);
  EXPECT_TRUE(result.cancelled);
  EXPECT_EQ(result.runs, kStopAfter);
  ExpectConsistent(result);

  cancel = true;
  const sim::SeedSweepResult none = sim::RunSeeds(RandomFilled(4, 2, sim::SchedulerKind::kRandom), 100, 1, {}, &cancel);
  EXPECT_TRUE(none.cancelled);
  EXPECT_EQ(none.runs, 0);
  EXPECT_TRUE(none.wrong_elements_histogram.empty());
}

}  // namespace
