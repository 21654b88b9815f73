// Narration: each sentence is built from the model's events and state, so every name and
// number in it must agree with what the model holds — checked here against the shared
// tiles, global memory and the kernel source, never against a sentence written by hand.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/narration.h"
#include "sim/lesson/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "sim/model/kernel_source.h"
#include "sim/model/simulation.h"
#include "test_lessons.h"

namespace {

using sim::EventKind;
using sim::LessonConfig;

// Threads of `block` whose store into `tile` in phase `phase` has landed, read from the tile.
int StoredThisPhase(const sim::Snapshot& view, int block, sim::TileId tile, int phase) {
  const sim::SharedTile cells = view.tile(block, tile);
  int stored = 0;
  for (int r = 0; r < cells.rows; ++r) {
    for (int c = 0; c < cells.cols; ++c) stored += cells.at(r, c).written() && cells.at(r, c).phase == phase;
  }
  return stored;
}

std::string ThreadText(const sim::Snapshot& view, const sim::TraceEvent& event) {
  const sim::Thread& thread = view.thread(event.block, event.thread);
  const sim::Block& block = view.blocks()[static_cast<std::size_t>(event.block)];
  return "Thread " + sim::Coordinates(thread.tx, thread.ty) + " of block " + sim::Coordinates(block.bx, block.by);
}

// The sentence a store must read, from the model: the element of A or B the kernel loads
// for this thread (02_tiled.cu: As[ty][tx] = A[row][t*T + tx], Bs[ty][tx] = B[t*T + ty][col]),
// its value in global memory, the cell, and the threads of the block that have stored.
std::string ExpectedStoreSentence(const sim::Snapshot& view, const sim::TraceEvent& event) {
  const sim::Thread& thread = view.thread(event.block, event.thread);
  const int tile = view.config().tile;
  const bool as = event.to.tile == sim::TileId::kAs;
  const int row = as ? thread.regs.row : event.phase * tile + thread.ty;
  const int col = as ? event.phase * tile + thread.tx : thread.regs.col;
  const float value = as ? view.a(row, col) : view.b(row, col);
  const sim::SharedCell& cell = view.tile(event.block, event.to.tile).at(thread.ty, thread.tx);
  EXPECT_EQ(cell.value, value);
  EXPECT_EQ(cell.writer, event.thread);
  return ThreadText(view, event) + " stores " + (as ? "A[" : "B[") + std::to_string(row) + "][" + std::to_string(col) +
         "] = " + sim::FormatValue(value) + " into " + (as ? "As[" : "Bs[") + std::to_string(thread.ty) + "][" +
         std::to_string(thread.tx) + "]; " +
         std::to_string(StoredThisPhase(view, event.block, event.to.tile, event.phase)) + " of " +
         std::to_string(view.geometry().block_threads) + " threads of this block have stored";
}

// A sum that read a tile cell no thread had stored holds the model's mark for it: the store
// says so in words ("writes C[30][0] = ?" said nothing).
TEST(Narration, AStoreOfAnUndefinedSumSaysSoInWords) {
  sim::Simulation simulation(sim_test::Tiled(4, 4, 4, 2));
  std::optional<sim::TraceEvent> store;
  while (!store && simulation.Step() > 0) {
    for (const sim::TraceEvent& event : simulation.last_step_events()) {
      if (event.kind == EventKind::kStoreC) store = event;
    }
  }
  ASSERT_TRUE(store);
  const sim::Snapshot view = simulation.snapshot();
  EXPECT_NE(sim::Narrate(*store, view).find("= " + sim::FormatValue(store->value)), std::string::npos);
  store->value = sim::SharedPoison();
  const std::string sentence = sim::Narrate(*store, view);
  EXPECT_EQ(sentence.find("= ?"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("an undefined value"), std::string::npos) << sentence;
}

TEST(Narration, SharedStoreNamesThreadBlockSourceValueAndThreadsStored) {
  for (auto scheduler : {sim::SchedulerKind::kThreadOrder, sim::SchedulerKind::kRandom}) {
    LessonConfig config = sim_test::Tiled(4, 4, 4, 2);
    config.scheduler = scheduler;
    sim::Simulation simulation(config);
    int stores = 0;
    while (simulation.Step() > 0) {
      const sim::Snapshot view = simulation.snapshot();
      const sim::TraceEvent& event = simulation.last_step_events().front();
      if (event.kind != EventKind::kSharedStore) continue;
      ++stores;
      EXPECT_EQ(sim::NarrateStep(simulation.last_step_events(), view), ExpectedStoreSentence(view, event))
          << "step " << simulation.step();
    }
    EXPECT_EQ(static_cast<std::uint64_t>(stores), simulation.counters().shared_writes);
  }
}

TEST(Narration, StoreOfZeroPaddingSaysSo) {
  LessonConfig config = sim_test::Tiled(6, 5, 7, 4);
  config.scheduler = sim::SchedulerKind::kThreadOrder;
  sim::Simulation simulation(config);
  int padded = 0;
  while (simulation.Step() > 0) {
    const sim::TraceEvent& event = simulation.last_step_events().front();
    if (event.kind != EventKind::kSharedStore) continue;
    const bool outside = event.from.matrix == sim::MatrixId::kA
                             ? event.from.row >= config.m || event.from.col >= config.k
                             : event.from.row >= config.k || event.from.col >= config.n;
    const std::string sentence = sim::Narrate(event, simulation.snapshot());
    EXPECT_EQ(
        sentence.find("zero padding: " + sim::PlaceName(event.from) + " lies outside the matrix") != std::string::npos,
        outside)
        << sentence;
    padded += outside;
  }
  // The select-zeros the model counted are exactly the padded stores narrated.
  EXPECT_EQ(static_cast<std::uint64_t>(padded), simulation.counters().select_zero);
}

TEST(Narration, WarpInstructionIsOneSentenceForItsLanes) {
  sim::Simulation simulation(sim_test::Tiled(4, 4, 4, 2));  // realistic: whole warps in lockstep
  ASSERT_EQ(simulation.Step(), 1);
  const sim::Snapshot view = simulation.snapshot();
  const auto& events = simulation.last_step_events();
  const std::string sentence = sim::NarrateStep(events, view);
  EXPECT_EQ(sentence.rfind("Warp 0 of block (0,0), " + std::to_string(events.size()) + " lanes together: ", 0), 0u)
      << sentence;
  EXPECT_NE(sentence.find(sim::Narrate(events.front(), view)), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("(line " + std::to_string(sim::LineOf(sim::KernelKind::kTiled, sim::Op::kLoadA)) + ")"),
            std::string::npos)
      << sentence;
}

TEST(Narration, BarrierReleaseCountsTheWaitingThreadsAndNamesTheLine) {
  LessonConfig config = sim_test::Tiled(4, 4, 4, 2);
  config.scheduler = sim::SchedulerKind::kThreadOrder;
  sim::Simulation simulation(config);
  int releases = 0;
  while (simulation.Step() > 0) {
    for (const sim::TraceEvent& event : simulation.last_step_events()) {
      if (event.kind != EventKind::kBarrierRelease) continue;
      ++releases;
      const sim::Block& block = simulation.snapshot().blocks()[static_cast<std::size_t>(event.block)];
      const std::string want = "All " + std::to_string(block.LiveThreads()) + " waiting threads of block " +
                               sim::Coordinates(block.bx, block.by) + " pass __syncthreads() at line " +
                               std::to_string(sim::LineOf(sim::KernelKind::kTiled, event.op)) + " together";
      EXPECT_EQ(sim::NarrateStep(simulation.last_step_events(), simulation.snapshot()), want);
    }
  }
  EXPECT_EQ(static_cast<std::uint64_t>(releases), simulation.counters().barrier_releases);
}

TEST(Narration, HazardNamesKindSeverityCellAndThreads) {
  LessonConfig config = sim_test::WithRandomFill(sim_test::Tiled(4, 4, 4, 2), 3);
  config.barrier1 = sim::SyncKind::kNone;
  config.scheduler = sim::SchedulerKind::kRaceExposing;
  sim::Simulation simulation(config);
  simulation.RunUntil(sim::Breakpoint{sim::Breakpoint::Kind::kHazard});
  ASSERT_FALSE(simulation.hazards().empty());
  const sim::Hazard& hazard = simulation.hazards().front();
  const std::string sentence = sim::NarrateStep(simulation.last_step_events(), simulation.snapshot());
  const std::string cell = std::string(hazard.tile == sim::TileId::kAs ? "As[" : "Bs[") + std::to_string(hazard.row) +
                           "][" + std::to_string(hazard.col) + "]";
  for (const std::string& part :
       {std::string(sim::Name(hazard.kind)), std::string(sim::Name(hazard.severity)), cell,
        "threads " + std::to_string(hazard.first.thread) + " and " + std::to_string(hazard.second.thread)}) {
    EXPECT_NE(sentence.find(part), std::string::npos) << sentence << " lacks " << part;
  }
  EXPECT_EQ(sentence.find("crossed them the wrong way") != std::string::npos, !hazard.observed_in_program_order);
}

TEST(Narration, ValuesAsTheLessonShowsThem) {
  EXPECT_EQ(sim::FormatValue(sim::SharedPoison()), "?");
  EXPECT_EQ(sim::FormatValue(sim::GlobalPoison()), "NaN");
  EXPECT_EQ(sim::FormatValue(10.0f), "10");
  EXPECT_EQ(sim::FormatValue(0.25f), "0.25");
  EXPECT_EQ(sim::FormatValue(-1.5f), "-1.5");
  EXPECT_EQ(sim::FormatValueShort(-0.7934561f), "-0.793");
  EXPECT_EQ(sim::FormatValueShort(1060.0f), "1060");
  EXPECT_EQ(sim::FormatValueShort(123456.0f), "123456");
  EXPECT_EQ(sim::FormatValueShort(1234567.0f), "1.23e+06");
  EXPECT_EQ(sim::FormatValueShort(sim::SharedPoison()), "?");
  EXPECT_EQ(sim::PlaceName(sim::Place::Global(sim::MatrixId::kC, 0, 3)), "C[0][3]");
  EXPECT_EQ(sim::PlaceName(sim::Place::Shared(sim::TileId::kBs, 1, 0)), "Bs[1][0]");
  EXPECT_EQ(sim::PlaceName(sim::Place{}), "");
}

TEST(Narration, BeforeTheFirstStepOfALessonWithoutStepBack) {
  EXPECT_NE(sim::NarrateBeforeFirstStep("").find("Step (\u2192) to run the first instruction"), std::string::npos);
  const sim::LessonConfig big = sim_test::Tiled(1024, 1024, 1024, 16);
  ASSERT_EQ(sim::OpeningMode(big), sim::LessonMode::kWithoutStepBack);
  const std::string reason = sim::SteppingOffReason(big);
  const std::string said = sim::NarrateBeforeFirstStep(reason);
  EXPECT_EQ(said.rfind(reason, 0), 0u) << said;
  EXPECT_EQ(said.find("Step (\u2192)"), std::string::npos) << said;
}

TEST(Narration, BeforeTheFirstStep) {
  sim::Simulation simulation(sim_test::Tiled(4, 4, 4, 2));
  EXPECT_EQ(sim::NarrateStep(simulation.last_step_events(), simulation.snapshot()),
            "Ready: no instruction has run yet");
}

}  // namespace
