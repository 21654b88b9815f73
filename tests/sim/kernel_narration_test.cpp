// A step of a student's kernel told in a sentence (sim/lesson/kernel_narration.h): the thread,
// the line and what it read or wrote, each checked against the model's own state, never typed
// in. Lines are found in the corpus file by their `// @name` markers.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "tests/sim/corpus_lesson.h"
#include "sim/lesson/kernel_lesson.h"
#include "sim/lesson/kernel_narration.h"
#include "sim/lesson/narration.h"
#include "sim/model/simulation.h"
#include "sim/model/snapshot.h"

namespace sim {
namespace {

int MarkerLine(const std::string& name, const std::string& marker) {
  std::ifstream in(Corpus(name));
  const std::regex code_with_marker("^\\s*[^/\\s].*//.*@" + marker + "\\b");
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (std::regex_search(line, code_with_marker)) return number;
  }
  ADD_FAILURE() << "no @" << marker << " in " << name;
  return 0;
}

KernelLesson LoadScheduled(const std::string& name, SchedulerKind scheduler = SchedulerKind::kRealistic) {
  KernelLessonOptions options;
  options.check.scheduler = scheduler;
  return LoadCorpusLesson(name, options);
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(KernelNarration, TheFirstStepReadsTheElementOfAItsThreadLoads) {
  const KernelLesson lesson = LoadScheduled("race_missing_first_barrier.cu", SchedulerKind::kThreadOrder);
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  EXPECT_TRUE(Has(NarrateLastStep(simulation.snapshot()), "Ready"));
  simulation.Step();
  const Snapshot now = simulation.snapshot();
  const KernelStepRecord& told = now.last_kernel_step();
  ASSERT_EQ(told.did, KernelStepRecord::Did::kLoadGlobal);
  // Thread order runs thread (0,0) of the first block alone: its load of A[0][0].
  EXPECT_EQ(told.array, static_cast<int>(MatrixId::kA));
  EXPECT_EQ(told.element, 0);
  EXPECT_EQ(told.value, lesson.run.a[0]);
  const std::string sentence = NarrateLastStep(now);
  EXPECT_EQ(sentence, "Thread (0,0) of block (0,0), line " + std::to_string(MarkerLine("race_missing_first_barrier.cu", "load_a")) +
                          ": reads A[0][0] = " + FormatValue(lesson.run.a[0]) + " from global memory");
}

TEST(KernelNarration, AWarpStoresItsTileCellsAndTheSentenceNamesTheCellItWrote) {
  const KernelLesson lesson = LoadScheduled("tiled_correct.cu");
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  const int line = MarkerLine("tiled_correct.cu", "load_a");
  while (simulation.Step() > 0 && simulation.snapshot().last_kernel_step().did != KernelStepRecord::Did::kStoreShared) {
  }
  const Snapshot now = simulation.snapshot();
  const KernelStepRecord& told = now.last_kernel_step();
  ASSERT_EQ(told.did, KernelStepRecord::Did::kStoreShared);
  const Thread& first = now.threads()[static_cast<std::size_t>(told.first_thread + __builtin_ctz(told.lanes))];
  // What the sentence says was stored is in the cell: As[ty][tx] of the thread's block.
  const int tile = now.kernel()->shared[0].dims[1];
  const SharedCell& cell = now.SharedWord(first.block, told.array, first.ty * tile + first.tx);
  EXPECT_EQ(cell.value, told.value);
  const std::string sentence = NarrateLastStep(now);
  EXPECT_TRUE(Has(sentence, "32 lanes at line " + std::to_string(line))) << sentence;
  EXPECT_TRUE(Has(sentence, "stores " + FormatValue(cell.value) + " into As[" + std::to_string(first.ty) + "][" +
                                std::to_string(first.tx) + "]"))
      << sentence;
}

// Every step is told; a barrier's release names the threads it lets go, as many as the block
// has; the race kernel's steps name races exactly where the model logged them.
TEST(KernelNarration, EveryStepIsToldWithItsReleasesAndItsRaces) {
  for (const char* name : {"tiled_correct.cu", "race_missing_first_barrier.cu"}) {
    const KernelLesson lesson = LoadScheduled(name, SchedulerKind::kRaceExposing);
    Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
    const int block_threads = lesson.run.launch.block[0] * lesson.run.launch.block[1] * lesson.run.launch.block[2];
    int releases = 0, racing_steps = 0, told_races = 0;
    while (simulation.Step() > 0) {
      const Snapshot now = simulation.snapshot();
      const std::string sentence = NarrateLastStep(now);
      ASSERT_FALSE(sentence.empty()) << name << " step " << now.step();
      if (now.last_kernel_step().released > 0) {
        ++releases;
        EXPECT_TRUE(Has(sentence, std::to_string(block_threads) + " waiting threads")) << sentence;
      }
      racing_steps += now.first_hazard_of_last_step() < now.hazards().size();
      told_races += Has(sentence, " race on ");
    }
    EXPECT_GT(releases, 0) << name;
    EXPECT_EQ(told_races, racing_steps) << name;
    EXPECT_EQ(racing_steps > 0, std::string(name) == "race_missing_first_barrier.cu") << name;
  }
}

}  // namespace
}  // namespace sim
