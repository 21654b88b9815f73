// The tiled exercise's milestones: the starter reaches only "compiles", each step of a
// student's way through it reaches exactly its own milestones, the finished kernel all.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/lesson/exercise.h"

namespace sim {
namespace {

// The starter with its TODO block replaced by `body`.
std::string Filled(const std::string& body) {
  std::string text = TiledStarterSource();
  const std::size_t from = text.find("  // TODO 1");
  const std::size_t to = text.find("\n\n", from);
  EXPECT_NE(from, std::string::npos);
  EXPECT_NE(to, std::string::npos);
  return text.replace(from, to - from, body);
}

std::vector<bool> Reached(const std::string& text) {
  std::vector<bool> reached;
  for (const MilestoneState& m : CheckTiledExercise(text, "tiled.cu")) {
    reached.push_back(m.reached);
    EXPECT_FALSE(m.why.empty()) << Describe(m.milestone);
  }
  return reached;
}

// compiles, loads both tiles, right at a multiple, right at a non-multiple, no race, textbook reads
using Expect = std::vector<bool>;

constexpr const char* kLoadsGuarded =
    "    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;\n"
    "    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;\n";
constexpr const char* kKLoop = "    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];\n";

TEST(TiledExercise, TheStarterOnlyCompiles) {
  EXPECT_EQ(Reached(TiledStarterSource()), (Expect{true, false, false, false, false, false}));
}

TEST(TiledExercise, AFileThatDoesNotCompileReachesNothing) {
  const std::vector<MilestoneState> states = CheckTiledExercise(Filled("  double d = 0;"), "tiled.cu");
  ASSERT_EQ(states.size(), static_cast<std::size_t>(kMilestoneCount));
  for (const MilestoneState& m : states) EXPECT_FALSE(m.reached);
  EXPECT_NE(states[0].why.find("tiled.cu:"), std::string::npos) << states[0].why;
}

TEST(TiledExercise, TilesLoadedWithoutBarriersRace) {
  const std::string body = std::string("  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {\n") + kLoadsGuarded + kKLoop + "  }";
  EXPECT_EQ(Reached(Filled(body)), (Expect{true, true, false, false, false, false}));
}

TEST(TiledExercise, BarriersButFloorTilesAndNoGuardsAreRightOnlyAtAMultiple) {
  const std::string body =
      "  for (int t = 0; t < K / TILE; ++t) {\n"
      "    As[ty][tx] = A[row * K + t * TILE + tx];\n"
      "    Bs[ty][tx] = B[(t * TILE + ty) * N + col];\n"
      "    __syncthreads();\n" +
      std::string(kKLoop) + "    __syncthreads();\n  }";
  EXPECT_EQ(Reached(Filled(body)), (Expect{true, true, true, false, true, false}));
}

TEST(TiledExercise, TheFinishedKernelReachesEveryMilestone) {
  const std::string body = std::string("  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {\n") + kLoadsGuarded +
                           "    __syncthreads();\n" + kKLoop + "    __syncthreads();\n  }";
  const std::vector<MilestoneState> states = CheckTiledExercise(Filled(body), "tiled.cu");
  for (const MilestoneState& m : states) EXPECT_TRUE(m.reached) << Describe(m.milestone) << ": " << m.why;
}

TEST(TiledExercise, ANaiveKernelRightEverywhereLoadsNoTiles) {
  const std::string body = "  for (int k = 0; k < K; ++k) if (row < M && col < N) sum += A[row * K + k] * B[k * N + col];";
  EXPECT_EQ(Reached(Filled(body)), (Expect{true, false, true, true, false, false}));
}

}  // namespace
}  // namespace sim
