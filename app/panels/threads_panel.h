// threads_panel.h — the threads of the selected block as a grid (x along N, y along M),
// outlined warp by warp, each with its state — running, waiting at the 1st barrier, at the
// 2nd, done — as a shape and a colour, and its registers on hover; above it, for lessons
// with several blocks, the grid of blocks. A click picks the thread (or block) that Shared
// tiles, Matrices and the source view follow (the `select-thread` action).
#pragma once
#include <nlohmann/json.hpp>

#include <array>

#include "app/gui/frame_context.h"
#include "app/panels/thread_selection.h"
#include "sim/model/snapshot.h"

namespace gui {

struct ThreadsPanel {

  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const ThreadSelection& selection);
  void DumpState(nlohmann::json& state) const;

 private:
  void DrawNotes(const FrameContext& frame, const sim::Snapshot& snapshot, const ThreadSelection& selection,
                 ThreadRef shown);
  void DrawBlockGrid(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef shown);
  void DrawThreadGrid(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef shown);

  // Threads of the shown block in each state (running, barrier 1, barrier 2, done), last frame.
  std::array<int, 4> states_{};
  ThreadRef shown_{};
  bool one_partial_warp_ = false;
};

}  // namespace gui
