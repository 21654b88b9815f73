// The figures the Counters panel shows beside the model's counts (sim/lesson/formulas.h,
// sim/lesson/comparison.h), against runs of the model: reads per element of C, a phase's full
// reads, the comparison kernel's closed form and the saving counted on both kernels.
#include <gtest/gtest.h>

#include <optional>

#include "sim/lesson/comparison.h"
#include "sim/lesson/formulas.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim_test::Naive;
using sim_test::Tiled;

TEST(ReadsPerElement, NaiveTwoKTiledTwoKOverTAndTheMinimum) {
  const sim::LessonConfig lesson = Tiled(8, 8, 8, 4);
  sim::Simulation simulation(lesson);
  sim::ReadsPerElement before = sim::ReadsPerElementOf(lesson, simulation.counters());
  EXPECT_EQ(before.counted, 0.0);
  EXPECT_EQ(before.naive, 16.0);   // 2K
  EXPECT_EQ(before.kernel, 4.0);   // 2K/T
  EXPECT_EQ(before.minimum, 2.0);  // (8·8 + 8·8) / (8·8)
  simulation.RunToEnd();
  EXPECT_EQ(sim::ReadsPerElementOf(lesson, simulation.counters()).counted, 4.0);
}

// Every phase whose tiles lie inside A and B reads exactly the full amount; a padded tail less.
TEST(FullPhaseReads, InsidePhasesReadItAndAPaddedTailReadsLess) {
  for (bool guard : {true, false}) {
    sim::LessonConfig lesson = Tiled(6, 5, 7, 4);
    lesson.guard = guard;
    sim::Simulation simulation(lesson);
    simulation.RunToEnd();
    const double full = sim::FullPhaseReads(lesson, simulation.geometry());
    const std::vector<sim::PhaseCounters>& phases = simulation.counters().phases;
    ASSERT_EQ(phases.size(), 2u);  // K = 7 in slices of 4: one whole, one padded
    const auto reads = [](const sim::PhaseCounters& p) { return double(p.global_reads_a + p.global_reads_b); };
    EXPECT_EQ(reads(phases[0]), full) << "guard " << guard;
    // Guarded, the tail reads only the 3 columns of K left; unguarded, whole tiles regardless.
    if (guard) {
      EXPECT_LT(reads(phases[1]), full);
    } else {
      EXPECT_EQ(reads(phases[1]), full);
    }
  }
  const sim::LessonConfig naive = Naive(6, 5, 7, 4);
  sim::Simulation simulation(naive);
  simulation.RunToEnd();
  EXPECT_EQ(sim::FullPhaseReads(naive, simulation.geometry()), double(simulation.counters().GlobalReads()));
}

TEST(ComparisonReads, TheClosedFormIsWhatTheComparisonKernelCounts) {
  for (const sim::LessonConfig& lesson : {Tiled(8, 8, 8, 4), Naive(6, 5, 7, 2), Tiled(6, 5, 7, 4)}) {
    sim::Simulation simulation(lesson);
    const sim::ComparisonCount counted = sim::CountComparison(lesson, simulation.a(), simulation.b());
    ASSERT_TRUE(counted.global_reads) << counted.error;
    EXPECT_EQ(sim::ExpectedComparisonReads(lesson), *counted.global_reads) << sim::Name(lesson.kernel);
  }
  EXPECT_EQ(sim::ExpectedComparisonReads(Tiled(8, 8, 8, 4)), 2u * 8 * 8 * 8);  // the naive kernel: 2·M·N·K
}

// Naive reads over tiled reads, whichever of the two the lesson runs; nothing until both counts are in.
TEST(CountedSaving, NaiveOverTiledOnceBothAreCounted) {
  for (const sim::LessonConfig& lesson : {Tiled(8, 8, 8, 4), Naive(8, 8, 8, 4)}) {
    sim::Simulation simulation(lesson);
    const std::optional<sim::ComparisonCount> comparison =
        sim::CountComparison(lesson, simulation.a(), simulation.b());
    EXPECT_FALSE(sim::CountedSaving(simulation, comparison)) << "the whole run is not counted yet";
    std::optional<sim::Timeline> timeline =
        sim::ComputeTimeline(lesson, simulation.a(), simulation.b(), nullptr, nullptr);
    ASSERT_TRUE(timeline);
    simulation.AdoptTimeline(std::move(*timeline));
    EXPECT_FALSE(sim::CountedSaving(simulation, std::nullopt)) << "the comparison is not counted yet";
    sim::ComparisonCount stopped = *comparison;
    stopped.global_reads.reset();
    EXPECT_FALSE(sim::CountedSaving(simulation, stopped)) << "the comparison was stopped";
    const std::optional<double> saving = sim::CountedSaving(simulation, comparison);
    ASSERT_TRUE(saving) << sim::Name(lesson.kernel);
    EXPECT_DOUBLE_EQ(*saving, 4.0) << sim::Name(lesson.kernel);  // 2K over 2K/T, T = 4
  }
}

}  // namespace
