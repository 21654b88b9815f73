// page_set.h — the window's pages ("Lesson", "Live GPU") and which one is shown. Only the shown
// page draws, so pages never overlap; every page updates each frame, so work a page started
// finishes while another is on screen. A page's own action (a key, a script line) shows it.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/frame_context.h"
#include "app/gui/page.h"
#include "app/gui/settings_store.h"

namespace gui {

class PageSet {
 public:
  // The shown page is kept in `settings` (its "page" entry), for the next start.
  explicit PageSet(Settings& settings) : settings_(settings) {}

  // `slug` names the page in actions ("page-<slug>"), settings and --dump-state.
  void Add(std::string slug, std::string title, std::unique_ptr<Page> page);
  // Each page's actions, then one "page-<slug>" action (Ctrl+1, Ctrl+2…) per page; then shows
  // the page saved at the last exit.
  void RegisterActions(ActionRegistry& registry);
  // Shows the page that registered `action`, if a page did.
  void ShowOwnerOf(const std::string& action);

  void Update();
  void DrawShown(const FrameContext& frame);
  // The pages as tabs in the menu bar; a click queues the page's action.
  void DrawTabs(ActionQueue& queue) const;
  // The shown page's panels, in the View menu.
  void DrawPanelMenuItems(bool presentation);
  // Zooms the shown page's focused panel by `factor`; false when no panel has the focus.
  bool ZoomFocusedPanel(float factor);

  bool HoldsScript(const std::string& action) const;
  bool Busy() const;
  bool Opening() const;
  // Each page's state, slots and panels in `state`; `area_*` is the free area, in pixels.
  void DumpState(nlohmann::json& state, ImVec2 area_min, ImVec2 area_size, bool presentation) const;
  void SaveSettings(Settings& settings) const;

 private:
  struct Entry {
    std::string slug;
    std::string title;
    std::unique_ptr<Page> page;
  };
  void Show(size_t page);
  void RestoreShown();

  Settings& settings_;
  std::vector<Entry> pages_;
  size_t shown_ = 0;
  std::map<std::string, size_t> page_of_action_;
};

}  // namespace gui
