// The estimate Validate refuses lessons by. Its agreement with the memory actually used is
// checked by model_memory --quick --check (sim.memory_estimate in CTest): a fresh process
// per machine, where a forked test would reuse the test's own freed heap and measure less.
#include <gtest/gtest.h>

#include <string>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/simulation.h"

namespace {

sim::LessonConfig Cube(int size, int tile) {
  sim::LessonConfig config;
  config.m = config.n = config.k = size;
  config.tile = tile;
  return config;
}

// A lesson beyond the limit is refused before it starts, naming the size and the limit.
TEST(MemoryEstimate, TooBigALessonIsRefusedNamingSizeAndLimit) {
  const sim::LessonConfig config = Cube(2048, 32);
  const auto error = sim::Validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("M = 2048, N = 2048, K = 2048"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("the limit is 1024 MiB"), std::string::npos) << error->message;
  EXPECT_GT(sim::EstimateModelMemory(config).total(), sim::kMaxModelBytes);
}

// The three machines the GUI holds together are all counted, each at least its A and B.
TEST(MemoryEstimate, CountsTheLessonTheWholeRunAndTheComparison) {
  const sim::MemoryEstimate estimate = sim::EstimateModelMemory(Cube(64, 16));
  const std::uint64_t a_and_b = 2ull * 64 * 64 * sizeof(float);
  EXPECT_GT(estimate.lesson, estimate.whole_run) << "the lesson also keeps its history and reference C";
  EXPECT_GT(estimate.whole_run, a_and_b);
  EXPECT_GT(estimate.comparison, a_and_b);
  EXPECT_EQ(estimate.total(), estimate.lesson + estimate.whole_run + estimate.comparison);
}

// A lesson whose step-back history does not fit opens without step back when what that holds
// fits: 1024³ TILE 16 (issue 29), not refused any more.
TEST(MemoryEstimate, ABigLessonOpensWithoutStepBack) {
  const sim::LessonConfig config = Cube(1024, 16);
  const sim::MemoryEstimate estimate = sim::EstimateModelMemory(config);
  ASSERT_GT(estimate.total(), sim::kMaxModelBytes) << "too big with step back";
  EXPECT_LE(estimate.without_step_back(), sim::kMaxModelBytes);
  EXPECT_TRUE(sim::Validate(config).has_value()) << "no lesson with step back";
  EXPECT_FALSE(sim::Validate(config, sim::ModelUse::kLessonWithoutStepBack).has_value());
  EXPECT_EQ(sim::OpeningMode(config), sim::LessonMode::kWithoutStepBack);
  const std::string why = sim::SteppingOffReason(config);
  EXPECT_NE(why.find("Stepping and step back are off for this size"), std::string::npos) << why;
  EXPECT_NE(why.find(std::to_string(estimate.total() >> 20) + " MiB"), std::string::npos) << why;
  EXPECT_NE(why.find(std::to_string(estimate.without_step_back() >> 20) + " MiB"), std::string::npos) << why;
  EXPECT_NE(why.find(std::to_string(sim::kMaxModelBytes >> 20) + " MiB limit"), std::string::npos) << why;
}

// Without step back the lesson keeps no history: less than with it, more than one bare run.
TEST(MemoryEstimate, WithoutStepBackHoldsTheMachinesButNoHistory) {
  for (int size : {64, 256, 1024}) {
    const sim::MemoryEstimate estimate = sim::EstimateModelMemory(Cube(size, 16));
    EXPECT_LT(estimate.lesson_without_history, estimate.lesson) << size;
    EXPECT_GE(estimate.lesson_without_history, estimate.whole_run) << size;
    EXPECT_EQ(estimate.without_step_back(), estimate.lesson_without_history + estimate.whole_run + estimate.comparison);
  }
}

TEST(MemoryEstimate, ALessonThatFitsWithStepBackSteps) {
  EXPECT_EQ(sim::OpeningMode(Cube(64, 16)), sim::LessonMode::kStepping);
  EXPECT_EQ(sim::OpeningMode(Cube(512, 16)), sim::LessonMode::kStepping);
}

// Too big even without step back: refused, and the message says so.
TEST(MemoryEstimate, TooBigEvenWithoutStepBackIsRefused) {
  const auto error = sim::Validate(Cube(2048, 16), sim::ModelUse::kLessonWithoutStepBack);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("even without step back: the limit is 1024 MiB"), std::string::npos) << error->message;
}

}  // namespace
