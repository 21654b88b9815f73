// Program::Corners: where the lowest and highest corner of a warp's lanes agree on the next
// instruction (or on whether a thread stores to shared memory before its next
// __syncthreads()), every lane whose program has the instruction agrees, for strided loops
// that split a warp's lanes and every barrier setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/model/program.h"
#include "sim/model/warp.h"
#include "test_lessons.h"

namespace {

using sim::ProgramCounter;
using sim::SyncKind;

std::vector<sim::Thread> BlockThreads(const sim::Geometry& g) {
  std::vector<sim::Thread> threads(static_cast<std::size_t>(g.block_threads));
  for (int i = 0; i < g.block_threads; ++i) {
    sim::Thread& thread = threads[static_cast<std::size_t>(i)];
    thread.tx = static_cast<std::int16_t>(i % g.tn);
    thread.ty = static_cast<std::int16_t>(i / g.tn);
    thread.index_in_block = static_cast<std::int16_t>(i);
    thread.regs.row = thread.ty;
    thread.regs.col = thread.tx;
  }
  return threads;
}

std::int64_t KeyOf(const ProgramCounter& pc) { return pc.Key() * 16 + static_cast<int>(pc.op); }

TEST(Program, CornersThatAgreeSpeakForEveryLane) {
  int agreed = 0;
  int disagreed = 0;
  // Tiles whose A or B loop leaves some lanes of a warp an iteration short (TK not a multiple
  // of TN or TM), one where only the warp's last tx is (TK = 2·TN − 1), and square ones.
  for (auto [tm, tn, tk] : std::vector<std::tuple<int, int, int>>{
           {4, 8, 20}, {4, 8, 15}, {8, 12, 20}, {12, 4, 9}, {6, 5, 9}, {5, 7, 3}, {16, 16, 16}}) {
    for (auto [b1, b2] : std::vector<std::tuple<SyncKind, SyncKind>>{{SyncKind::kSyncthreads, SyncKind::kSyncthreads},
                                                                     {SyncKind::kNone, SyncKind::kSyncthreads},
                                                                     {SyncKind::kSyncthreads, SyncKind::kNone},
                                                                     {SyncKind::kSyncwarp, SyncKind::kNone}}) {
      sim::LessonConfig config = sim_test::Rect(2 * tm, 2 * tn, 3 * tk, tm, tn, tk);
      config.barrier1 = b1;
      config.barrier2 = b2;
      const sim::Geometry g = sim::MakeGeometry(config);
      const sim::Program program(config, g);
      const std::vector<sim::Thread> threads = BlockThreads(g);
      for (int first = 0; first < g.block_threads; first += sim::kWarpSize) {
        const int last = std::min(first + sim::kWarpSize, g.block_threads) - 1;
        const sim::Program::Corners corners = program.CornersOf(first, last);
        // Every instruction some lane of the warp runs, and the lanes that run it.
        std::set<std::int64_t> seen;
        for (int i = first; i <= last; ++i) {
          const sim::Thread& lane = threads[static_cast<std::size_t>(i)];
          for (ProgramCounter pc = program.First(lane); pc.op != sim::Op::kDone; pc = program.Next(lane, pc)) {
            if (!seen.insert(KeyOf(pc)).second) continue;
            const ProgramCounter next = program.Next(corners.low, pc);
            const bool next_agrees = next == program.Next(corners.high, pc);
            const bool stores = program.StoresSharedBeforeSyncthreads(corners.low, pc);
            const bool stores_agree = stores == program.StoresSharedBeforeSyncthreads(corners.high, pc);
            (next_agrees ? agreed : disagreed) += 1;
            for (int j = first; j <= last; ++j) {
              const sim::Thread& other = threads[static_cast<std::size_t>(j)];
              if (!program.Contains(other, pc)) continue;
              if (next_agrees) {
                EXPECT_TRUE(program.Next(other, pc) == next) << "thread " << j << ", tiles " << tm << "x" << tn << "x" << tk;
              }
              if (stores_agree) {
                EXPECT_EQ(program.StoresSharedBeforeSyncthreads(other, pc), stores)
                    << "thread " << j << ", tiles " << tm << "x" << tn << "x" << tk;
              }
            }
          }
        }
      }
    }
  }
  // Both answers happen: the strided loops split some warps' lanes.
  EXPECT_GT(agreed, 0);
  EXPECT_GT(disagreed, 0);
}

}  // namespace
