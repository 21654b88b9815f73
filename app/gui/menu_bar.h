// menu_bar.h — the window's main menu bar: File, View, Guide (when a page has a tour), Help,
// then the pages as tabs. Every item is a registered action, shown with its first key and its
// description as the tooltip; a click queues the action, as its key would.
#pragma once
#include "app/gui/actions.h"
#include "app/gui/page_set.h"

namespace gui {

class MenuBar {
 public:
  void Draw(const ActionRegistry& registry, ActionQueue& queue, PageSet& pages, bool presentation);
  // As drawn at the last frame: the pages' area starts below it.
  float height() const { return height_; }

 private:
  float height_ = 0.0f;
};

}  // namespace gui
