// help_overlay.h — F1's list of every key: each keyed action's chords, label and what it does,
// then the glossary of the words the panels use (sim/lesson/glossary.h); drawn opaque over the page, as wide as a line reads well and scrolling where the window is
// short. It draws the registry it is given and keeps what it drew for --dump-state.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/text_item.h"

namespace gui {

struct HelpOverlay {
  bool open = false;

  void Draw(const ActionRegistry& registry);
  // The list as drawn: its text counted as a panel's is, where it lies, and its key column.
  nlohmann::json Describe() const;

 private:
  std::array<float, 4> rect_{};    // min x, min y, max x, max y
  void DrawGlossary();
  // In a browser: the desktop's keys it takes for itself, and what to press instead.
  void DrawBrowserKeys(const ActionRegistry& registry);

  std::vector<std::string> keys_;
  std::vector<std::string> browser_keys_;
  std::vector<std::string> terms_;
  TextCount text_;
};

}  // namespace gui
