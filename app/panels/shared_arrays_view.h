// shared_arrays_view.h — the Shared tiles panel while a student's kernel is the lesson: every
// __shared__ array the kernel declares, by its name, in the followed thread's block. A 2-D array
// is drawn as it is indexed (rows down, columns across); a 1-D array as rows of 32 words, one
// column per bank; a 3-D array as its 2-D slices [0], [1], ... one under the other. A cell shows
// its value where it fits (the exact value, its index and writer on hover); a cell no thread
// wrote yet is left dark with "?".
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/panels/thread_selection.h"
#include "sim/model/snapshot.h"

namespace gui {

struct SharedArraysView {
  void Draw(const sim::Snapshot& snapshot, ThreadRef selected);
  // What the last frame drew, for --dump-state: each array's name, grid of cells, written cells.
  void DumpState(nlohmann::json& state) const;

 private:
  struct Drawn {
    std::string name;
    int rows = 0, cols = 0, slices = 0;
    int written = 0;
    std::string caption;                    // "float As[16][16] (line 9)"
    std::vector<std::string> caption_lines;  // as drawn: broken at spaces, cut with "…" where short
    ImVec2 caption_min, caption_max;        // where they were drawn
  };
  // The array's caption in the column's width: on one line where it fits, else broken at its
  // spaces, a word still too wide cut with "…", the whole caption on hover. Never wider than
  // its column, so captions side by side never run into each other.
  static void DrawCaption(Drawn& drawn, const std::string& caption);
  // `height_room`: the height its cells may take.
  void DrawArray(const sim::Snapshot& snapshot, int array, int block, float height_room);

  int block_ = 0;
  std::vector<Drawn> drawn_;
  // The most lines a caption took last frame: each caption takes as many, so that arrays side
  // by side start their cells at one height.
  std::size_t caption_rows_ = 1;
};

}  // namespace gui
