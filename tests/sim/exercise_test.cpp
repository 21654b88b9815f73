// The tiled exercise's milestones: the starter reaches only "compiles", each step of a
// student's way through it reaches exactly its own milestones, the finished kernel all.
#include <gtest/gtest.h>

#include <array>
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
  for (const MilestoneState& m : CheckTiledExercise(text, "tiled.cu", {})) {
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
  const std::vector<MilestoneState> states = CheckTiledExercise(Filled("  double d = 0;"), "tiled.cu", {});
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
  const std::vector<MilestoneState> states = CheckTiledExercise(Filled(body), "tiled.cu", {});
  for (const MilestoneState& m : states) EXPECT_TRUE(m.reached) << Describe(m.milestone) << ": " << m.why;
}

// The finished kernel as a student may write it: TILE a template parameter and no launch, so
// only the options (check's --define and --block, the window's alike) say how it runs.
std::string FinishedTemplateWithoutLaunch() {
  const std::string body = std::string("  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {\n") + kLoadsGuarded +
                           "    __syncthreads();\n" + kKLoop + "    __syncthreads();\n  }";
  std::string text = Filled(body);
  const std::size_t define = text.find("#define TILE 16\n");
  EXPECT_NE(define, std::string::npos);
  text.replace(define, std::string("#define TILE 16\n").size(), "template <int TILE>\n");
  const std::size_t main = text.find("int main()");
  EXPECT_NE(main, std::string::npos);
  return text.substr(0, main);
}

KernelLessonOptions TileAndBlock(int tile) {
  KernelLessonOptions options;
  options.front.defines["TILE"] = std::to_string(tile);
  options.check.block = std::array<int, 3>{tile, tile, 1};
  return options;
}

TEST(TiledExercise, TheOptionsSayHowAKernelWithoutALaunchRuns) {
  const std::string text = FinishedTemplateWithoutLaunch();
  const std::vector<MilestoneState> unbound = CheckTiledExercise(text, "tiled.cu", {});
  EXPECT_FALSE(unbound.front().reached) << "TILE has no value without --define: " << unbound.front().why;
  for (const int tile : {8, 16}) {
    const std::vector<MilestoneState> states = CheckTiledExercise(text, "tiled.cu", TileAndBlock(tile));
    for (const MilestoneState& m : states) EXPECT_TRUE(m.reached) << tile << " " << Describe(m.milestone) << ": " << m.why;
  }
  // The textbook kernel's reads are those of the options' tile: TILE 8 reads twice what 16 does.
  EXPECT_NE(CheckTiledExercise(text, "tiled.cu", TileAndBlock(8)).back().why,
            CheckTiledExercise(text, "tiled.cu", TileAndBlock(16)).back().why);
}

TEST(TiledExercise, SizesGivenAreTheSizesJudged) {
  KernelLessonOptions options;
  options.check.sizes = {CheckSize{32, 32, 32}};
  const std::string body = std::string("  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {\n") + kLoadsGuarded +
                           "    __syncthreads();\n" + kKLoop + "    __syncthreads();\n  }";
  const std::vector<MilestoneState> states = CheckTiledExercise(Filled(body), "tiled.cu", options);
  const MilestoneState& multiple = states[static_cast<int>(Milestone::kRightAtMultiple)];
  const MilestoneState& other = states[static_cast<int>(Milestone::kRightAtNonMultiple)];
  EXPECT_TRUE(multiple.reached);
  EXPECT_EQ(multiple.why, "C right at 32x32x32");
  EXPECT_FALSE(other.reached) << "no size of --sizes is a non-multiple";
  EXPECT_NE(other.why.find("--sizes"), std::string::npos) << other.why;
}

TEST(TiledExercise, ANaiveKernelRightEverywhereLoadsNoTiles) {
  const std::string body = "  for (int k = 0; k < K; ++k) if (row < M && col < N) sum += A[row * K + k] * B[k * N + col];";
  EXPECT_EQ(Reached(Filled(body)), (Expect{true, false, true, true, false, false}));
}

}  // namespace
}  // namespace sim
