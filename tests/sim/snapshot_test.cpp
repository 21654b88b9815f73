// What the snapshot tells the views about phases and shared cells, at every step: no block
// is ever in a phase past the last, and a cell a run-ahead thread overwrote for the next
// phase is not shown as this phase's fresh value.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_file.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

// Between a thread's exit from the tile loop and its store of C, its phase counter equals
// the number of phases: a block was once said to be in "phase 3" of 2.
TEST(Snapshot, NoBlockIsInAPhasePastTheLast) {
  for (const sim::LessonConfig& lesson : {sim::DefaultLesson(), sim_test::Tiled(6, 5, 7, 4)}) {
    sim::Simulation simulation(lesson);
    const int phases = simulation.geometry().phases;
    bool storing_seen = false;
    do {
      const sim::Snapshot snapshot = simulation.snapshot();
      for (int block = 0; block < static_cast<int>(snapshot.blocks().size()); ++block) {
        const int phase = snapshot.BlockPhase(block);
        ASSERT_LT(phase, phases) << "block " << block << " at step " << simulation.step();
        storing_seen = storing_seen || phase == phases - 1;
      }
      EXPECT_LT(snapshot.current_phase(), phases);
    } while (simulation.Step() > 0);
    EXPECT_TRUE(storing_seen);
  }
}

// Without the 2nd barrier the race-exposing scheduler lets the first thread refill As and
// Bs for the next phase while its block still reads this phase's values: the WAR race.
TEST(Snapshot, ACellOverwrittenAheadIsNotFresh) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  lesson.barrier2 = sim::SyncKind::kNone;
  lesson.scheduler = sim::SchedulerKind::kRaceExposing;
  sim::Simulation simulation(lesson);
  sim::Breakpoint first_hazard;
  first_hazard.kind = sim::Breakpoint::Kind::kHazard;
  ASSERT_GT(simulation.RunUntil(first_hazard), 0);
  ASSERT_FALSE(simulation.hazards().empty());
  ASSERT_EQ(simulation.hazards().front().kind, sim::HazardKind::kWar);
  const sim::Snapshot snapshot = simulation.snapshot();
  const int block = simulation.hazards().front().block;
  int ahead = 0;
  for (const sim::TileId id : {sim::TileId::kAs, sim::TileId::kBs}) {
    const sim::SharedTile tile = snapshot.tile(block, id);
    for (int row = 0; row < tile.rows; ++row) {
      for (int col = 0; col < tile.cols; ++col) {
        const sim::SharedCell& cell = tile.at(row, col);
        const sim::CellFreshness freshness = snapshot.Freshness(block, id, row, col);
        if (cell.written() && cell.phase > snapshot.BlockPhase(block)) {
          EXPECT_EQ(freshness, sim::CellFreshness::kAhead);
          ++ahead;
        } else {
          EXPECT_NE(freshness, sim::CellFreshness::kAhead);
        }
      }
    }
  }
  EXPECT_GT(ahead, 0) << "the WAR hazard's cell was written for the next phase";
}

// A finished block keeps its last phase's tiles: they are what it read last, not values
// written "ahead" over ones still read (the end of a correct run once showed ⚠ on every cell).
TEST(Snapshot, AFinishedBlocksTilesAreItsLastPhase) {
  sim::Simulation simulation(sim::DefaultLesson());
  simulation.RunToEnd();
  const sim::Snapshot snapshot = simulation.snapshot();
  for (int block = 0; block < static_cast<int>(snapshot.blocks().size()); ++block) {
    ASSERT_EQ(snapshot.BlockPhase(block), -1) << "block " << block << " has finished";
    for (sim::TileId id : {sim::TileId::kAs, sim::TileId::kBs}) {
      const sim::SharedTile tile = snapshot.tile(block, id);
      for (int row = 0; row < tile.rows; ++row) {
        for (int col = 0; col < tile.cols; ++col) {
          EXPECT_EQ(snapshot.Freshness(block, id, row, col), sim::CellFreshness::kFresh)
              << "block " << block << " cell " << row << "," << col;
        }
      }
    }
  }
}

// The source view's count of threads per next line, made by instruction, is NextLine's thread
// by thread, at every step of a tiled, a rectangular-tile and a naive lesson.
TEST(Snapshot, ThreadsByNextLineCountsEachThreadAtItsNextLine) {
  for (const sim::LessonConfig& lesson :
       {sim_test::Tiled(6, 5, 7, 4), sim_test::Rect(7, 9, 5, 4, 2, 3), sim_test::Naive(5, 6, 3, 2)}) {
    sim::Simulation simulation(lesson);
    do {
      const sim::Snapshot snapshot = simulation.snapshot();
      std::map<int, int> one_by_one;
      for (const sim::Thread& thread : snapshot.threads()) {
        if (thread.state != sim::ThreadState::kDone) ++one_by_one[snapshot.NextLine(thread)];
      }
      ASSERT_EQ(snapshot.ThreadsByNextLine(), one_by_one) << lesson.name << " at step " << simulation.step();
    } while (simulation.Step() > 0);
  }
}

// ReadC, the one pass the Matrices panel makes over a large C each frame, gives every element
// as c() does: not started, partial after its phase, final, with the thread that computes it,
// for tiled kernels with tail tiles, rectangular tiles and the naive kernel, at every step.
TEST(Snapshot, ReadingAllOfCGivesEachElementAsCDoes) {
  for (const sim::LessonConfig& lesson :
       {sim_test::Tiled(6, 5, 7, 4), sim_test::Rect(7, 9, 5, 4, 2, 3), sim_test::Naive(5, 6, 3, 2)}) {
    sim::Simulation simulation(lesson);
    const sim::Geometry& g = simulation.geometry();
    std::vector<sim::CElement> all;
    int partial_seen = 0;
    do {
      const sim::Snapshot snapshot = simulation.snapshot();
      snapshot.ReadC(all);
      ASSERT_EQ(all.size(), static_cast<std::size_t>(g.m * g.n));
      for (int row = 0; row < g.m; ++row) {
        for (int col = 0; col < g.n; ++col) {
          const sim::CElement one = snapshot.c(row, col);
          const sim::CElement& read = all[static_cast<std::size_t>(row * g.n + col)];
          ASSERT_EQ(read.progress, one.progress) << lesson.name << " C[" << row << "][" << col << "]";
          ASSERT_EQ(read.phase, one.phase);
          ASSERT_EQ(read.block, one.block);
          ASSERT_EQ(read.thread, one.thread);
          ASSERT_EQ(std::memcmp(&read.value, &one.value, sizeof(float)), 0);
          partial_seen += one.progress == sim::CProgress::kPartial;
        }
      }
    } while (simulation.Step() > 0);
    EXPECT_GT(partial_seen, 0);
  }
}

// Each element's readers are the threads whose row of A (column of B) it lies on, in the
// phase of its tile, up to the step shown; after a jump back they are those of a run that went
// no further (the read log is cut back with the state it was restored to).
TEST(Snapshot, ReadersAreTheThreadsOnTheElementsRowOrColumnAndSurviveAJumpBack) {
  for (sim::SchedulerKind scheduler : {sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder}) {
    sim::LessonConfig config = sim_test::Rect(13, 11, 17, 4, 8, 12);
    config.scheduler = scheduler;
    sim::Simulation simulation(config);
    simulation.RunToEnd();
    const std::int64_t middle = simulation.step() / 2;
    simulation.JumpTo(middle);
    sim::Simulation fresh(config);
    fresh.JumpTo(middle);
    const sim::Geometry& g = simulation.geometry();
    std::size_t readers = 0;
    for (sim::MatrixId id : {sim::MatrixId::kA, sim::MatrixId::kB}) {
      const int rows = id == sim::MatrixId::kA ? g.m : g.k;
      const int cols = id == sim::MatrixId::kA ? g.k : g.n;
      for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
          const sim::ReaderSummary summary = simulation.snapshot().Readers(id, row, col);
          const sim::ReaderSummary expected = fresh.snapshot().Readers(id, row, col);
          EXPECT_TRUE(summary.readers == expected.readers) << "element " << row << "," << col;
          EXPECT_EQ(summary.reads_by_phase, expected.reads_by_phase);
          for (const sim::ReadRecord& reader : summary.readers) {
            ++readers;
            EXPECT_LE(reader.step, middle);
            const int by = reader.block / g.grid_x;
            const int bx = reader.block % g.grid_x;
            if (id == sim::MatrixId::kA) {
              EXPECT_EQ(by * g.tm + reader.thread / g.tn, row);
              EXPECT_EQ(reader.phase, col / g.tk);
            } else {
              EXPECT_EQ(bx * g.tn + reader.thread % g.tn, col);
              EXPECT_EQ(reader.phase, row / g.tk);
            }
          }
        }
      }
    }
    EXPECT_GT(readers, 0u);
  }
}

}  // namespace
