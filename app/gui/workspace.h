// workspace.h — a group of panels that share one source of truth (the lesson's model, the
// GPU runner). The application owns the workspaces and calls them in the main loop's
// order: actions first, then drawing; it never reaches into their panels.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/fonts.h"
#include "app/gui/notifications.h"
#include "app/gui/settings_store.h"

namespace gui {

// A part of the frame to save as PNG once it is rendered (a panel's "export plot as PNG").
struct RegionScreenshot {
  ImVec2 min;  // In ImGui's coordinates, as the panel laid the region out.
  ImVec2 max;
  std::string path;
};

struct FrameContext {
  const FontSet& fonts;
  ActionQueue& actions;
  Notifications& notifications;
  ImVec2 area_min;            // The space below the menu bar and above the status bar.
  ImVec2 area_max;
  bool presentation = false;  // High-contrast theme and large fonts are on.
  bool reset_layout = false;  // Place panels at their default spots this frame.
  // Regions to crop from this very frame's framebuffer after it is rendered, so the file holds
  // exactly what was drawn (a general hook; the live panel's plot export is its first user).
  std::vector<RegionScreenshot>* region_screenshots = nullptr;
};

class Workspace {
 public:
  virtual ~Workspace() = default;
  // Adds this workspace's actions (and their keys) to the registry, once at start-up.
  virtual void RegisterActions(ActionRegistry& registry) = 0;
  // Items for the menu bar's View menu (panel toggles and the like).
  virtual void DrawViewMenu() {}
  virtual void Draw(const FrameContext& frame) = 0;
  // What the panels show, for --dump-state and GUI tests.
  virtual void DumpState(nlohmann::json& state) const = 0;
  // True while a background job (GPU sweep, seed sweep) runs: automated runs wait for it.
  virtual bool Busy() const { return false; }
  virtual void SaveSettings(Settings& /*settings*/) const {}
};

}  // namespace gui
