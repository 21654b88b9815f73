// frame_context.h — what the shell hands each page and panel for one frame: fonts, the
// action queue, notifications, the free area, and the display mode.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/fonts.h"
#include "app/gui/notifications.h"

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
  // A state dump may follow this frame (one is pending, or the run dumps on exit): panels keep
  // the text they show for it.
  bool dumping = false;
  // Regions to crop from this very frame's framebuffer after it is rendered, so the file holds
  // exactly what was drawn (a general hook; the live panel's plot export is its first user).
  std::vector<RegionScreenshot>* region_screenshots = nullptr;
};

}  // namespace gui
