// What the snapshot tells the views about phases and shared cells, at every step: no block
// is ever in a phase past the last, and a cell a run-ahead thread overwrote for the next
// phase is not shown as this phase's fresh value.
#include <gtest/gtest.h>

#include "sim/lesson_file.h"
#include "sim/simulation.h"
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

}  // namespace
