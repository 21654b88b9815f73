// lesson_list_panel.h — the lessons by name: "1 · Tiles and phases", each with the student's
// score and the stop they reached, in a window over the page. Opened by Ctrl+O, the Guide and
// File menus, and on the first start of a new install. ↑/↓ and Enter, or a click, open
// one (the lesson-preset action); Esc closes the list. The page fills the view from
// the presets and the saved progress; the panel decides nothing.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/gui/frame_context.h"

namespace gui {

struct LessonListView {
  struct Entry {
    std::string name;      // the preset's name, which lesson-preset opens
    std::string heading;   // "2 · Two barriers"
    std::string progress;  // "score 3 of 4 · stopped at stop 5 of 8", or "not started"
    bool current = false;  // the lesson on show
  };
  std::vector<Entry> entries;
};

struct LessonListPanel {
  bool open = false;
  // Opens the list with the lesson on show marked, so Enter alone keeps it.
  void Open(const LessonListView& view);
  void Draw(const FrameContext& frame, const LessonListView& view);
  nlohmann::json Describe(const LessonListView& view) const;

 private:
  void MoveWithKeys(const FrameContext& frame, const LessonListView& view);
  void Choose(const FrameContext& frame, const LessonListView& view, int index);

  int highlighted_ = 0;
};

}  // namespace gui
