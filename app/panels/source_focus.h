// source_focus.h — whom a source view follows: the thread the user picked, or every lane of the
// unit the scheduler ran last; and that focus in words. The lesson's and a student's source
// views follow alike.
#pragma once
#include <string>
#include <vector>

#include "sim/model/snapshot.h"

namespace gui {

// Global indices of the threads the view follows (`picked` may be null).
std::vector<int> FocusThreads(const sim::Snapshot& snapshot, const sim::Thread* picked);
// "thread (1,0) of block (0,1) (warp 0)" or "warp 1 of block (0,0) (32 lanes)".
std::string FocusName(const sim::Snapshot& snapshot, const std::vector<int>& threads);

}  // namespace gui
