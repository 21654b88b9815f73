// your_kernel_view.h — what the panels are given of a student's kernel open as the lesson: the
// file that runs, the last read's problem while it stands, and the whole run's findings (null
// while they are checked). The page fills it from its StudentKernel; panels only read it.
#pragma once
#include <string>
#include <vector>

#include "sim/lesson/kernel_check.h"
#include "sim/lesson/kernel_lesson.h"

namespace gui {

struct YourKernelView {
  const sim::KernelLesson* lesson = nullptr;
  // The last save that did not compile: its message, its line (0: not in the source) and the
  // file's lines as read then; problem_lines null while there is none.
  const std::string* problem = nullptr;
  int problem_line = 0;
  const std::vector<std::string>* problem_lines = nullptr;
  const sim::KernelCheckReport* findings = nullptr;
  bool checking = false;
};

}  // namespace gui
