// Step back then forward reproduces every snapshot exactly; jumps land on the same state
// as stepping; the total step count is the length of the run.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/model/history.h"
#include "sim/model/machine.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::LessonConfig;

std::vector<sim::MachineState> Walk(sim::Simulation& simulation) {
  std::vector<sim::MachineState> states{simulation.snapshot().state()};
  while (simulation.Step() > 0) states.push_back(simulation.snapshot().state());
  return states;
}

void ExpectExactReplay(const LessonConfig& config, std::size_t history_budget) {
  sim::Simulation simulation(config, history_budget);
  const std::vector<sim::MachineState> states = Walk(simulation);
  ASSERT_EQ(std::int64_t(states.size()) - 1, simulation.TotalSteps());
  const std::vector<sim::Hazard> hazards = simulation.hazards();
  for (std::int64_t step = simulation.step(); step > 0; --step) {
    ASSERT_TRUE(simulation.StepBack());
    ASSERT_TRUE(simulation.snapshot().state() == states[static_cast<std::size_t>(step - 1)]) << "back to " << step - 1;
  }
  EXPECT_FALSE(simulation.StepBack());
  for (std::size_t step = 1; step < states.size(); ++step) {
    simulation.Step();
    ASSERT_TRUE(simulation.snapshot().state() == states[step]) << "forward to " << step;
  }
  EXPECT_EQ(simulation.hazards(), hazards);
}

TEST(History, StepBackThenForwardIsExact) {
  LessonConfig racy = sim_test::WithRandomFill(sim_test::Tiled(8, 8, 16, 4), 3);
  racy.barrier1 = sim::SyncKind::kNone;
  for (auto scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kRandom, sim::SchedulerKind::kRaceExposing}) {
    racy.scheduler = scheduler;
    ExpectExactReplay(racy, sim::kDefaultHistoryBudget);
  }
  ExpectExactReplay(LessonConfig{}, sim::kDefaultHistoryBudget);
  ExpectExactReplay(sim_test::Rect(5, 7, 9, 2, 4, 4), sim::kDefaultHistoryBudget);
}

TEST(History, TinyBudgetStillExact) {
  // A budget of a few states forces thinning: replays then span several steps.
  LessonConfig config = sim_test::Tiled(12, 12, 12, 4);
  config.scheduler = sim::SchedulerKind::kThreadOrder;
  ExpectExactReplay(config, 1);
}

TEST(History, CheckpointsShareTheHazardArenas) {
  // Without a __syncthreads() each block's hazard arena holds its whole run, and the realistic
  // scheduler runs the blocks together: the states grow far past the initial one the history
  // planned its checkpoints by. A copied state shares the arenas' chunks (each state counts
  // its share), and the history thins by the bytes it holds, not only by its count.
  LessonConfig racy = sim_test::WithRandomFill(sim_test::Tiled(64, 64, 64, 16), 1);
  racy.barrier1 = racy.barrier2 = sim::SyncKind::kNone;
  sim::Machine machine(racy, sim::FillMatrix(racy.fill_a, 64, 64), sim::FillMatrix(racy.fill_b, 64, 64));
  constexpr std::size_t kBudget = std::size_t{4} << 20;
  sim::History history(kBudget);
  history.Reset(machine.state());
  // The same run without a history, where no other state holds its chunks.
  sim::Machine bare(racy, sim::FillMatrix(racy.fill_a, 64, 64), sim::FillMatrix(racy.fill_b, 64, 64));
  bool compared = false;
  while (machine.Step()) {
    bare.Step();
    history.OnStep(machine.state());
    ASSERT_TRUE(history.size() <= 4 || history.Bytes() <= kBudget) << "step " << machine.state().step;
    if (!compared && bare.state().hazard_detector.Bytes() > kBudget) {
      const std::size_t alone = bare.state().hazard_detector.Bytes();
      const sim::MachineState copy = bare.state();
      EXPECT_LT(copy.hazard_detector.Bytes() + bare.state().hazard_detector.Bytes(), alone + alone / 10);
      compared = true;
    }
  }
  EXPECT_TRUE(compared) << "the arenas never outgrew the budget: the lesson tests nothing";
}

TEST(History, JumpLandsOnTheSteppedState) {
  LessonConfig config = sim_test::Tiled(8, 8, 8, 4);
  config.scheduler = sim::SchedulerKind::kRandom;
  sim::Simulation stepped(config);
  for (int i = 0; i < 100; ++i) stepped.Step();
  sim::Simulation jumped(config);
  jumped.JumpTo(250);
  jumped.JumpTo(100);
  EXPECT_TRUE(jumped.snapshot().state() == stepped.snapshot().state());
  jumped.JumpTo(1 << 30);
  EXPECT_TRUE(jumped.Finished());
  EXPECT_EQ(jumped.step(), jumped.TotalSteps());
}

// A jump back cuts the logs to the state it lands on; a jump forward again may not restore a
// later checkpoint whose records were cut: it replays them, and the logs are a straight run's.
TEST(History, JumpForwardAfterAJumpBackKeepsTheLogsOfAStraightRun) {
  LessonConfig config = sim_test::WithRandomFill(sim_test::Tiled(30, 30, 40, 4), 5);  // checkpoints past step 10
  config.barrier1 = sim::SyncKind::kNone;  // hazards
  config.guard = false;                    // out-of-bounds accesses
  sim::Simulation straight(config);
  straight.RunToEnd();
  sim::Simulation jumped(config);
  jumped.RunToEnd();
  jumped.JumpTo(10);
  jumped.JumpTo(straight.step());
  ASSERT_GT(straight.hazards().size(), 0u);
  ASSERT_GT(straight.out_of_bounds().size(), 0u);
  EXPECT_EQ(jumped.hazards(), straight.hazards());
  EXPECT_EQ(jumped.out_of_bounds(), straight.out_of_bounds());
  for (int row = 0; row < config.m; ++row) {
    for (int col = 0; col < config.k; ++col) {
      EXPECT_TRUE(jumped.snapshot().Readers(sim::MatrixId::kA, row, col).readers ==
                  straight.snapshot().Readers(sim::MatrixId::kA, row, col).readers)
          << "A " << row << "," << col;
    }
  }
}

TEST(History, RunsStopWhereAsked) {
  sim::Simulation simulation(LessonConfig{});
  EXPECT_GT(simulation.RunToBarrier(), 0);
  bool released = false;
  for (const sim::TraceEvent& event : simulation.last_step_events()) released |= event.kind == sim::EventKind::kBarrierRelease;
  EXPECT_TRUE(released);
  simulation.Reset();
  simulation.RunToPhaseEnd();
  EXPECT_EQ(simulation.snapshot().BlockPhase(0), 1);
  simulation.Reset();
  simulation.RunUntil(sim::Breakpoint{sim::Breakpoint::Kind::kThread, 0, 3, 2});
  EXPECT_EQ(simulation.snapshot().thread(3, 2).instructions, 1);
  simulation.RunUntil(sim::Breakpoint{sim::Breakpoint::Kind::kPhase, 1});
  EXPECT_EQ(simulation.last_step_events().front().phase, 1);
}

TEST(History, StepWarpRunsEveryLaneOnce) {
  LessonConfig config;
  config.scheduler = sim::SchedulerKind::kThreadOrder;
  sim::Simulation simulation(config);
  EXPECT_EQ(simulation.StepWarp(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(simulation.snapshot().thread(0, i).instructions, 1);
}

TEST(History, TimelineMarksPhasesAndBarriers) {
  sim::Simulation simulation(LessonConfig{});
  const sim::Timeline& timeline = simulation.timeline();
  int phase_starts = 0, releases = 0;
  for (const sim::TimelineMark& mark : timeline.marks) {
    phase_starts += mark.kind == sim::TimelineMark::Kind::kPhaseStart;
    releases += mark.kind == sim::TimelineMark::Kind::kBarrierRelease;
  }
  EXPECT_EQ(phase_starts, 2);
  EXPECT_EQ(releases, 4 * 2 * 2);
  EXPECT_EQ(simulation.step(), 0);
}

// A lesson too big for step back is shown at the end of a whole run made on a worker: the
// simulation adopting it stands where stepping it to the end stands, with the same C and counts.
TEST(History, AnAdoptedWholeRunIsTheSteppedEnd) {
  for (const LessonConfig& lesson : {sim_test::Tiled(12, 10, 9, 4), sim_test::WithRandomFill(sim_test::Tiled(8, 8, 16, 4), 3)}) {
    sim::Simulation stepped(lesson);
    stepped.RunToEnd();
    sim::Simulation adopting(lesson, 0);
    std::optional<sim::FinishedRun> run = sim::RunWholeRun(adopting.FreshMachine(), nullptr, nullptr);
    ASSERT_TRUE(run);
    adopting.AdoptFinishedRun(std::move(*run));
    EXPECT_TRUE(adopting.Finished());
    EXPECT_EQ(adopting.step(), stepped.step());
    EXPECT_EQ(adopting.TotalSteps(), stepped.step());
    EXPECT_EQ(adopting.c(), stepped.c());
    ASSERT_NE(adopting.KnownReference(), nullptr) << "the reference comes with the run, not made on the caller's thread";
    EXPECT_EQ(*adopting.KnownReference(), stepped.reference());
    EXPECT_EQ(adopting.counters().global_reads_a, stepped.counters().global_reads_a);
    EXPECT_EQ(adopting.counters().global_reads_b, stepped.counters().global_reads_b);
    EXPECT_EQ(adopting.counters().thread_instructions, stepped.counters().thread_instructions);
    EXPECT_EQ(adopting.hazards().size(), stepped.hazards().size());
  }
}

TEST(History, AWholeRunStopsWhenCancelled) {
  sim::Simulation simulation(sim_test::Tiled(16, 16, 16, 4), 0);
  const std::atomic<bool> cancel{true};
  EXPECT_FALSE(sim::RunWholeRun(simulation.FreshMachine(), &cancel, nullptr));
}

}  // namespace
