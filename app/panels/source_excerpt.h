// source_excerpt.h — which lines of a kernel a presentation excerpt shows, when the panel cannot
// scroll: the lines it must show first, then what closes the gaps and the lines around them.
#pragma once
#include <set>
#include <vector>

namespace gui {

std::set<int> ExcerptLines(const std::vector<float>& heights, int first, const std::vector<int>& must, float room,
                           float gap_row);

}  // namespace gui
