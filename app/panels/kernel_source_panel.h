// kernel_source_panel.h — the CUDA kernel the lesson runs, as the handouts write it: the file in
// kernels/ with its switches resolved for the lesson's variant (sim/lesson/plain_source.h), on the
// file's line numbers, with where the run stands on it: the line the selected thread (or,
// until one is picked, every lane of the warp that ran last) runs next, the line just run, how many threads wait at
// each line, the barrier lines (a switched-off one commented out, marked, and pinned above the
// code while it is scrolled out of view), and checkboxes beside the switchable lines (each barrier, the bounds guard) that queue
// the same actions as keys 1, 2 and 3. With `side_by_side` (key L), the tiling notebook's
// Numba transcription stands beside 02_tiled.cu, each statement on its twin's row
// (sim/lesson/numba_source.h).
#pragma once
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "sim/lesson/plain_source.h"
#include "sim/model/snapshot.h"

namespace gui {

struct KernelSourcePanel {
  // The lines a tour's stop points at, by the kernel's `// model:` names: marked ★ beside
  // their line number. Set by the lesson page, empty off a tour.
  std::vector<sim::Op> tour_lines;
  // `picked`: the thread the user selected, or nullptr to follow the unit that ran last.
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked, bool side_by_side);
  // What the panel marks, for --dump-state.
  static nlohmann::json Describe(const sim::Snapshot& snapshot, const sim::Thread* picked, bool side_by_side);
  // The tour's starred lines, those of them the last frame showed (scrolled into view), every
  // line it showed, and the barrier lines it pinned above the code.
  nlohmann::json DescribeTourLines(const sim::Snapshot& snapshot) const;
  // Whether the lesson's kernel has a Numba twin to show beside it (02_tiled.cu has).
  static bool HasPythonTwin(const sim::Snapshot& snapshot);

 private:
  struct LineMarks;
  void DrawLines(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks, bool python);
  void DrawPythonTwin(const FrameContext& frame, int cuda_line);
  void DrawLanguageSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, bool side_by_side);
  // Presentation: the lines around the followed one that fit the panel, wrapped, no scrolling.
  void DrawExcerpt(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks);
  // Whether the line's number came into view. `dedent`: leading spaces left out (an excerpt's
  // common indentation).
  bool DrawLine(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks, int line, bool wrap,
                std::size_t dedent = 0);
  // The switched-off barriers the last frame left out of view, above the scrolling code.
  void DrawPinnedBarriers(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks,
                          const std::vector<int>& shown_before);
  void DrawSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, int line);
  // The line numbers of tour_lines in `kernel`'s source.
  std::set<int> TourLineNumbers(sim::KernelKind kernel) const;

  sim::KernelKind shown_kernel_ = sim::KernelKind::kTiled;
  sim::PlainSource plain_;  // the lesson's variant, in plain CUDA
  std::vector<std::string> python_lines_;  // the Numba transcription
  // What the view last scrolled for: a new focus line, a new stop's stars or a panel of
  // another height (a stop lays the panels out anew) each scroll it again.
  struct ScrollFor {
    int line = -1;
    std::vector<sim::Op> tour_lines;
    float height = 0.0f;
    bool operator==(const ScrollFor& o) const {
      return line == o.line && tour_lines == o.tour_lines && height == o.height;
    }
  };
  ScrollFor scrolled_for_;
  std::vector<int> lines_in_view_;  // the source lines the last frame drew in view
  std::vector<int> pinned_lines_;   // the switched-off barriers it pinned above the code
};

}  // namespace gui
