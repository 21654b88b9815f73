// line_diff.h — the lines of a text that are new since an earlier version of it: a longest
// common subsequence of whole lines, as `diff` finds, marking what is not in it. Small and
// quadratic, for the few hundred lines of a kernel file.
#pragma once
#include <string_view>
#include <vector>

namespace kernels {

// The lines of `text`, split at '\n'; a final newline ends the last line and starts no other.
std::vector<std::string_view> SplitLines(std::string_view text);

// One flag per line of `after`: true where the line is added or changed since `before`.
std::vector<bool> ChangedLines(std::string_view before, std::string_view after);

}  // namespace kernels
