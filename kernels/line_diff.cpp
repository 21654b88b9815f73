#include "kernels/line_diff.h"

#include <algorithm>
#include <cstddef>

namespace kernels {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<bool> ChangedLines(std::string_view before, std::string_view after) {
  const std::vector<std::string_view> old_lines = SplitLines(before);
  const std::vector<std::string_view> new_lines = SplitLines(after);
  const std::size_t rows = old_lines.size();
  const std::size_t cols = new_lines.size();
  // common[i][j]: the longest common subsequence of old_lines[i..] and new_lines[j..].
  std::vector<std::vector<int>> common(rows + 1, std::vector<int>(cols + 1, 0));
  for (std::size_t i = rows; i-- > 0;) {
    for (std::size_t j = cols; j-- > 0;) {
      common[i][j] = old_lines[i] == new_lines[j] ? common[i + 1][j + 1] + 1
                                                  : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  // Walk one longest subsequence from the front: a new line outside it is changed.
  std::vector<bool> changed(cols, true);
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < rows && j < cols) {
    if (old_lines[i] == new_lines[j]) {
      changed[j] = false;
      ++i;
      ++j;
    } else if (common[i + 1][j] >= common[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return changed;
}

}  // namespace kernels
