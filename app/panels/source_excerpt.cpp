#include "app/panels/source_excerpt.h"

#include <utility>

namespace gui {

// The lines of a presentation excerpt, by their heights (indexed by line; those before `first`
// unused): each of `must`
// that fits, in order (the first always); if they all fit, then the lines that close the gaps
// between them, then a line after and a line before, while the room holds them. A gap left
// between two shown lines costs a row of its own. Where `must` does not fit, nothing else takes
// its room.
std::set<int> ExcerptLines(const std::vector<float>& heights, int first, const std::vector<int>& must, float room,
                           float gap_row) {
  const int count = static_cast<int>(heights.size()) - 1;
  std::set<int> shown;
  const auto cost = [&](const std::set<int>& lines) {
    float total = 0.0f;
    int previous = 0;
    for (int line : lines) {
      total += heights[static_cast<std::size_t>(line)] + (previous > 0 && line != previous + 1 ? gap_row : 0.0f);
      previous = line;
    }
    return total;
  };
  const auto add = [&](int line) {
    if (line < first || line > count || shown.count(line) > 0) return false;
    std::set<int> with = shown;
    with.insert(line);
    if (!shown.empty() && cost(with) > room) return false;
    shown = std::move(with);
    return true;
  };
  bool all = true;
  for (int line : must) all = add(line) && all;
  for (bool grew = all; grew;) {
    grew = false;
    const std::vector<int> now(shown.begin(), shown.end());
    for (std::size_t i = 0; i + 1 < now.size(); ++i) {
      if (now[i + 1] != now[i] + 1) grew = add(now[i] + 1) || grew;
    }
    if (grew) continue;
    const bool after = add(*shown.rbegin() + 1);
    const bool before = add(*shown.begin() - 1);
    grew = after || before;
  }
  return shown;
}

}  // namespace gui
