// A student's kernel file opened as a lesson (sim/lesson/kernel_lesson.h): the run the window
// steps is the check's first run, on the same Simulation the lessons use; the textbook kernel
// it is compared with is counted on the model and matches its closed form.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/sim/corpus_lesson.h"
#include "sim/lesson/comparison.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/kernel_lesson.h"
#include "sim/model/simulation.h"
#include "sim/model/reference.h"
#include "sim/model/snapshot.h"

namespace sim {
namespace {

TEST(KernelLesson, RunsAsTheChecksFirstRun) {
  const KernelLesson lesson = LoadCorpusLesson("race_missing_first_barrier.cu");
  KernelCheckOptions options;
  options.sizes = {lesson.run.planned.size};
  const KernelCheckResult checked = CheckKernel(lesson.file, options);
  ASSERT_TRUE(checked.report.has_value()) << checked.error;
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  simulation.RunToEnd();
  const std::vector<float> reference = ReferenceProduct(lesson.run.planned.size.m, lesson.run.planned.size.n, lesson.run.planned.size.k,
                                                        lesson.run.a, lesson.run.b);
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) wrong += simulation.c()[i] != reference[i];
  EXPECT_GT(wrong, 0u);
  EXPECT_EQ(wrong, checked.report->runs.front().wrong_elements);
  EXPECT_FALSE(checked.report->findings.empty());
}

TEST(KernelLesson, WholeRunOnAWorkerMatchesTheRunAndStepsBackExactly) {
  const KernelLesson lesson = LoadCorpusLesson("tiled_correct.cu");
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  const std::optional<Timeline> whole = ComputeTimeline(simulation.FreshMachine(), nullptr, nullptr);
  ASSERT_TRUE(whole.has_value());
  simulation.JumpTo(150);
  const MachineState at_150 = simulation.snapshot().state();
  simulation.RunToEnd();
  EXPECT_EQ(simulation.step(), whole->total_steps);
  EXPECT_EQ(simulation.counters().GlobalReads(), whole->counters.GlobalReads());
  simulation.JumpTo(150);
  EXPECT_TRUE(simulation.snapshot().state() == at_150);
}

TEST(KernelLesson, BreakpointsStopWhereTheyShould) {
  const KernelLesson lesson = LoadCorpusLesson("race_missing_first_barrier.cu");
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  EXPECT_GT(simulation.RunToBarrier(), 0);
  EXPECT_EQ(simulation.counters().barrier_releases, 1u);
  EXPECT_FALSE(simulation.Finished());
  const std::uint64_t hazards = simulation.counters().hazards;
  EXPECT_GT(simulation.RunUntil(Breakpoint{Breakpoint::Kind::kHazard}), 0);
  EXPECT_GT(simulation.counters().hazards, hazards);  // a warp-instruction may find several
  Breakpoint thread{Breakpoint::Kind::kThread};
  thread.block = 3;
  thread.thread = 255;
  const std::int32_t before = simulation.snapshot().thread(3, 255).instructions;
  simulation.RunUntil(thread);
  EXPECT_GT(simulation.snapshot().thread(3, 255).instructions, before);
}

TEST(KernelLesson, SourceViewReadsTheStudentsLines) {
  const KernelLesson lesson = LoadCorpusLesson("tiled_correct.cu");
  Simulation simulation(lesson.run.launch, lesson.run.a, lesson.run.b);
  simulation.Step();
  const Snapshot now = simulation.snapshot();
  ASSERT_NE(now.kernel(), nullptr);
  for (const auto& [line, threads] : now.ThreadsByNextLine()) {
    EXPECT_GE(line, 1);
    EXPECT_LE(line, static_cast<int>(lesson.lines.size()));
    EXPECT_GT(threads, 0);
  }
  // A store to As or Bs lands in the word the snapshot names by array and index.
  simulation.RunToEnd();
  const Snapshot end = simulation.snapshot();
  EXPECT_TRUE(end.SharedWord(0, 1, lesson.file.kernel.shared[1].Words() - 1).written());
}

TEST(KernelLesson, TextbookKernelIsCountedAsItsClosedFormSays) {
  const KernelLesson lesson = LoadCorpusLesson("tiled_correct.cu");
  const KernelConfig textbook = TextbookKernelFor(lesson.run.launch);
  EXPECT_EQ(textbook.kernel, KernelKind::kTiled);
  EXPECT_EQ(textbook.tile, lesson.run.launch.block[0]);
  const ComparisonCount counted = CountKernel(textbook, lesson.run.a, lesson.run.b);
  ASSERT_TRUE(counted.global_reads.has_value()) << counted.error;
  EXPECT_EQ(*counted.global_reads, Expected(textbook).global_reads());
  Simulation yours(lesson.run.launch, lesson.run.a, lesson.run.b);
  yours.RunToEnd();
  EXPECT_EQ(yours.counters().GlobalReads(), *counted.global_reads);  // the handout's kernel, written as a file
}

TEST(KernelLesson, BadFilesAreRefusedByName) {
  const std::string folder = std::filesystem::temp_directory_path().string();
  EXPECT_NE(LoadKernelLesson(folder, {}).error.find(folder), std::string::npos);
  EXPECT_NE(LoadKernelLesson(folder + "/no_such_kernel.cu", {}).error.find("no_such_kernel.cu"), std::string::npos);
  const std::string broken = folder + "/kernel_lesson_test_broken.cu";
  std::ofstream(broken) << "__global__ void k(float* C) {\n  C[0] = ;\n}\n";
  const KernelLessonLoad load = LoadKernelLesson(broken, {});
  EXPECT_FALSE(load.lesson.has_value());
  ASSERT_TRUE(load.problem.has_value());
  EXPECT_EQ(load.problem->pos.line, 2);
  EXPECT_EQ(load.error.rfind(broken + ":2:", 0), 0u) << load.error;
  EXPECT_EQ(load.lines.size(), 3u);
  std::filesystem::remove(broken);
}

}  // namespace
}  // namespace sim
