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
  const sim::LessonConfig config = Cube(1024, 32);
  const auto error = sim::Validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("M = 1024, N = 1024, K = 1024"), std::string::npos) << error->message;
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

}  // namespace
