// The sentences every view shares: counts in the right number, the warps of a block, and the
// race case a lesson is in, each checked against the geometry it describes.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/teaching.h"

#include <gtest/gtest.h>

#include "sim/lesson/glossary.h"
#include "sim/lesson/lesson_file.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

TEST(Teaching, CountsTakeTheRightNumber) {
  EXPECT_EQ(sim::CountOf(0, "hazard", "hazards"), "0 hazards");
  EXPECT_EQ(sim::CountOf(1, "hazard", "hazards"), "1 hazard");
  EXPECT_EQ(sim::CountOf(2, "warning", "warnings"), "2 warnings");
}

TEST(Teaching, WarpsOfABlockFollowItsThreads) {
  const sim::Simulation one_warp(sim::DefaultLesson());
  EXPECT_EQ(sim::WarpsOfBlock(one_warp.geometry()), "one warp of 4 live lanes (28 idle)");
  const sim::Simulation eight_warps(sim_test::Tiled(16, 16, 16, 16));
  EXPECT_EQ(sim::WarpsOfBlock(eight_warps.geometry()), "8 warps");
  const sim::Simulation ragged(sim_test::Tiled(6, 6, 6, 6));  // 36 threads: a full warp and 4 lanes
  EXPECT_EQ(sim::WarpsOfBlock(ragged.geometry()), "2 warps (the last has 4 lanes)");
}

TEST(Teaching, TheRaceCaseFollowsTheKernelAndTheWarps) {
  const sim::Simulation naive(sim_test::Naive(4, 4, 4, 2));
  EXPECT_NE(sim::RaceCaseHeadline(naive.config(), naive.geometry()).find("no barrier"), std::string::npos);
  const sim::Simulation one_warp(sim::DefaultLesson());
  EXPECT_NE(sim::RaceCaseHeadline(one_warp.config(), one_warp.geometry()).find("One warp per block"), std::string::npos);
  const sim::Simulation eight_warps(sim_test::Tiled(32, 32, 64, 16));
  EXPECT_NE(sim::RaceCaseHeadline(eight_warps.config(), eight_warps.geometry()).find("8 warps per block"),
            std::string::npos);
}

// "Lockstep hides this race" is said only where the run keeps lockstep: under the realistic
// scheduler a one-warp lesson without its second barrier ends with C right; under each other
// scheduler the same lesson's C can end wrong, and no sentence about it says lockstep hides it.
TEST(Teaching, LockstepHidesTheRaceOnlyUnderTheSchedulerThatKeepsIt) {
  for (const sim::SchedulerKind scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kRaceExposing,
                                             sim::SchedulerKind::kRandom, sim::SchedulerKind::kThreadOrder}) {
    sim::LessonConfig lesson = sim::DefaultLesson();
    lesson.barrier2 = sim::SyncKind::kNone;
    lesson.scheduler = scheduler;
    sim::Simulation run(lesson);
    run.RunToEnd();
    const bool c_right = run.c() == run.reference();
    SCOPED_TRACE(sim::Name(scheduler));
    const bool lockstep = scheduler == sim::SchedulerKind::kRealistic;
    const std::string note = sim::OneWarpRaceNote(scheduler);
    const std::string headline = sim::RaceCaseHeadline(lesson, run.geometry());
    const std::string why = sim::RaceCaseStatement(lesson, run.geometry());
    EXPECT_EQ(note.find("lockstep hides this race on today's GPUs, but") != std::string::npos, lockstep) << note;
    EXPECT_EQ(headline.find("lockstep hides a missing barrier") != std::string::npos, lockstep) << headline;
    EXPECT_EQ(why.find("The scheduler chosen now does not") == std::string::npos, lockstep) << why;
    if (lockstep) {
      EXPECT_TRUE(c_right) << "lockstep keeps the one-warp lesson's C right";
    }
    if (scheduler == sim::SchedulerKind::kRaceExposing) {
      EXPECT_FALSE(c_right) << "the race-exposing scheduler makes the race bite";
      EXPECT_NE(note.find("here the race bites"), std::string::npos) << note;
    }
  }
}

}  // namespace

namespace {

TEST(Teaching, CalibrationCaveatOnlyWhereTheModelIsNotTheH100s) {
  sim::LessonConfig lesson = sim_test::Tiled(32, 32, 64, 16);
  lesson.barrier1 = sim::SyncKind::kNone;  // the shipped race_tile16 lesson: calibrated
  EXPECT_EQ(sim::RealisticCalibrationCaveat(lesson), "");
  lesson.tile = 32;  // a lone block of 32 warps: a known gap, said with its reason
  EXPECT_NE(sim::RealisticCalibrationCaveat(lesson).find("alone on its SM"), std::string::npos);
  sim::LessonConfig large = sim_test::Tiled(1024, 1024, 1024, 16);
  EXPECT_NE(sim::RealisticCalibrationCaveat(large).find("256"), std::string::npos);
  EXPECT_NE(sim::RealisticCalibrationCaveat(sim_test::Tiled(48, 48, 48, 12)).find("TILE 12"), std::string::npos);
  EXPECT_NE(sim::RealisticCalibrationCaveat(sim_test::Naive(8, 8, 8, 4)).find("tiled kernel"), std::string::npos);
}

}  // namespace

// The words the Counters and Occupancy panels use, each explained once in the glossary F1 shows.
TEST(Glossary, EveryTermThePanelsUseHasOneMeaning) {
  for (const char* term : {"32-byte sectors", "barrier stall steps", "bank conflicts", "phase badge (p1, p2, ...)",
                           "warp slots"}) {
    EXPECT_GT(std::string(sim::Meaning(term)).size(), 40u) << term;
  }
  const std::vector<sim::GlossaryEntry>& entries = sim::Glossary();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    for (std::size_t j = i + 1; j < entries.size(); ++j) EXPECT_STRNE(entries[i].term, entries[j].term);
  }
}
