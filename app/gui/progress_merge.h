// progress_merge.h — two windows on one settings folder. Each saves its whole settings, and
// the second to save once put what it had over the first's tour progress. Progress is kept
// per lesson (panels.guide.lessons.<lesson> = {"stop": N, "answers": {"3": "128", ...}}), and
// a save merges it three ways: against what this window last read or wrote (`base`), an answer
// or a stop this window changed is its own; everything else is what the file holds now, so
// the other window's answers stay. Answers are never taken back, so an answer this window
// lacks is one it never had, not one it removed.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gui {

struct MergedProgress {
  nlohmann::json lessons = nlohmann::json::object();
  // Lessons whose progress in the file came from elsewhere (another window saved since).
  std::vector<std::string> from_elsewhere;
  // "default, stop 3": answered in both windows, differently; this window's answer was kept.
  std::vector<std::string> overruled;
};

// Each argument is a "lessons" object (anything else counts as none).
MergedProgress MergeLessonProgress(const nlohmann::json& on_disk, const nlohmann::json& base,
                                   const nlohmann::json& mine);

// What a merge tells the window that saved, or "" when the file held nothing of another's.
std::string DescribeMerge(const MergedProgress& merged);

}  // namespace gui
