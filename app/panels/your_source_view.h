// your_source_view.h — the Kernel source panel while a student's kernel is the lesson: THEIR
// file on its own line numbers, with the line each warp of the followed block runs next
// (w0, w1, ...), the followed thread's line (▶), how many threads wait at each line, the two
// lines of the race picked in the Hazards panel (◆), and the last save's problem at its line
// over the last version that compiled. In presentation, where a room cannot scroll, the lines
// around the followed thread's that fit the panel, wrapped (as the lesson's source does).
#pragma once
#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/panels/your_kernel_view.h"
#include "sim/model/snapshot.h"

namespace gui {

struct YourSourceView {
  // The lines a finding points at (a race's write and read): marked and scrolled to. Set by the
  // page when the Hazards panel's line is clicked (source-show-lines).
  std::vector<int> marked_lines;

  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked,
            const YourKernelView& view);
  nlohmann::json Describe(const sim::Snapshot& snapshot, const sim::Thread* picked, const YourKernelView& view) const;

 private:
  struct Marks {
    std::map<int, std::string> warps;  // line → the followed block's warps that run it next
    std::map<int, int> waiting;        // line → threads of the grid that run it next
    std::vector<int> focus;            // the followed thread(s)' next lines
  };
  static Marks MarksOf(const sim::Snapshot& snapshot, const std::vector<int>& threads);
  void DrawProblem(const YourKernelView& view);
  void DrawLine(const FrameContext& frame, const std::vector<std::string>& lines, int line, const Marks& marks,
                int problem_line, bool wrap = false);
  // Presentation: the followed line and the marked ones, then the lines around them that fit.
  void DrawExcerpt(const FrameContext& frame, const std::vector<std::string>& lines, const Marks& marks);

  std::vector<int> excerpt_lines_;  // what the last presentation frame showed (none in the normal view)

  // What the view last scrolled to: a new focus line or newly marked lines scroll it again.
  int scrolled_line_ = -1;
  std::vector<int> scrolled_marks_;
};

}  // namespace gui
