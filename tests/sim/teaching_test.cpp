// The sentences every view shares: counts in the right number, the warps of a block, and the
// race case a lesson is in, each checked against the geometry it describes.
#include "sim/teaching.h"

#include <gtest/gtest.h>

#include "sim/lesson_file.h"
#include "sim/simulation.h"
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
  EXPECT_NE(sim::RaceCaseHeadline(naive.geometry()).find("no barrier"), std::string::npos);
  const sim::Simulation one_warp(sim::DefaultLesson());
  EXPECT_NE(sim::RaceCaseHeadline(one_warp.geometry()).find("One warp per block"), std::string::npos);
  const sim::Simulation eight_warps(sim_test::Tiled(32, 32, 64, 16));
  EXPECT_NE(sim::RaceCaseHeadline(eight_warps.geometry()).find("8 warps per block"), std::string::npos);
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
