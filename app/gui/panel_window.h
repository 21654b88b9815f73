// panel_window.h — the window around every panel, and a page's table of panels.
//
// Each page lays its panels out in slots: a share of the area between the menu bar and the
// status bar, one for the normal view and one for presentation mode (larger fonts need the
// room to go to the panels a class looks at). The slots of a page tile its area, so no two
// panels overlap at any window size. ImGui keeps the user's moves until the layout is reset
// (View → Reset layout, a window resize, or switching presentation mode).
//
// A page lists its panels once, in a PanelTable of rows {title, slot, draw}: the window's
// title, the View menu, the default layout, --dump-state and the page's drawing all read
// that one row, so a new panel is one file plus one row. A panel only draws its contents.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/gui/text_item.h"

namespace gui {

struct PanelRect {
  float x, y, width, height;  // Fractions of the free area.
};

// Where one panel goes in the normal and in the presentation layout. A panel without a
// presentation place is folded away there (the View menu brings it back, floating at its
// normal place), so the room sees the few panels it reads.
class PanelSlot {
 public:
  constexpr PanelSlot(PanelRect normal, PanelRect presentation)
      : normal_(normal), presentation_(presentation), presented_(true) {}
  constexpr explicit PanelSlot(PanelRect normal) : normal_(normal), presentation_(normal), presented_(false) {}
  constexpr const PanelRect& For(bool presentation) const { return presentation ? presentation_ : normal_; }
  constexpr bool Presented() const { return presented_; }

 private:
  PanelRect normal_;
  PanelRect presentation_;
  bool presented_;
};

// Where a panel was drawn in the last frame: what --dump-state reports, so GUI tests can
// find each panel in the screenshot's pixels. Record() inside the panel's Begin/End.
struct DrawnRect {
  int frame = -1;  // ImGui's frame count when drawn
  ImVec2 min{0.0f, 0.0f};
  ImVec2 max{0.0f, 0.0f};

  void Record() {
    frame = ImGui::GetFrameCount();
    min = ImGui::GetWindowPos();
    max = ImVec2(min.x + ImGui::GetWindowWidth(), min.y + ImGui::GetWindowHeight());
  }
  // Closed panels, collapsed ones and those of another page were not drawn last frame.
  bool Visible() const { return frame == ImGui::GetFrameCount(); }
  nlohmann::json ToJson() const {
    return {{"visible", Visible()}, {"rect", {min.x, min.y, max.x, max.y}}};
  }
};

// A slot's corner and size in pixels, in the free area from `area_min` spanning `area_size`.
inline ImVec2 SlotMin(ImVec2 area_min, ImVec2 area_size, const PanelRect& rect) {
  return ImVec2(area_min.x + rect.x * area_size.x, area_min.y + rect.y * area_size.y);
}
inline ImVec2 SlotSize(ImVec2 area_size, const PanelRect& rect) {
  return ImVec2(rect.width * area_size.x, rect.height * area_size.y);
}

// A page whose single panel has the whole area.
inline constexpr PanelSlot kWholeArea{{0.0f, 0.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};

// Places a panel at its slot (on first use, or when the layout is reset) and returns the
// flags for its Begin(). A panel that lay exactly at its slot last frame overlaps no other
// (the slots tile the area), so it draws no background of its own: the frame is cleared to
// the window background colour (window.cpp), and that shows through. A window background is
// a blended fill of the whole panel; on a software renderer (Mesa llvmpipe, a classroom PC
// without a GPU) leaving them out draws the lesson page about half as fast again. A panel the
// user moved or resized draws its background again, so it can lie over another.
inline ImGuiWindowFlags PlacePanel(const FrameContext& frame, const PanelSlot& slot, const DrawnRect& drawn) {
  const PanelRect& rect = slot.For(frame.presentation && slot.Presented());
  const ImVec2 area_size(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  const ImVec2 min = SlotMin(frame.area_min, area_size, rect);
  const ImVec2 size = SlotSize(area_size, rect);
  const ImGuiCond cond = frame.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(min, cond);
  ImGui::SetNextWindowSize(size, cond);
  // ImGui places windows at whole pixels.
  constexpr float kRounding = 2.0f;
  const auto near = [](ImVec2 a, ImVec2 b) { return std::fabs(a.x - b.x) <= kRounding && std::fabs(a.y - b.y) <= kRounding; };
  const bool in_slot_last_frame = drawn.frame == ImGui::GetFrameCount() - 1 && near(drawn.min, min) &&
                                  near(drawn.max, ImVec2(min.x + size.x, min.y + size.y));
  return in_slot_last_frame && !frame.reset_layout ? ImGuiWindowFlags_NoBackground : ImGuiWindowFlags_None;
}

// Ctrl+= / Ctrl+- on a focused panel in presentation: a step, and the bounds.
inline constexpr float kPanelZoomStep = 1.25f;
inline constexpr float kMinPanelZoom = 0.5f;
inline constexpr float kMaxPanelZoom = 3.0f;

// The smallest share of the presentation font a panel shrinks its text to so that it fits:
// three quarters of 24-32 pixels stays above the normal view's 17.
inline constexpr float kMinPresentationFit = 0.75f;
inline constexpr float kPresentationFitStep = 0.9f;

// One panel of a page.
struct PanelRow {
  PanelRow(const char* title, const PanelSlot* slot, std::function<void(const FrameContext&)> draw,
           const char* shortcut = nullptr)
      : title(title), slot(slot), draw(std::move(draw)), shortcut(shortcut), open_presenting(slot->Presented()) {}

  const char* title;  // the window's title, and the panel's name in the View menu
  const PanelSlot* slot;
  std::function<void(const FrameContext&)> draw;  // the contents, inside the panel's window
  const char* shortcut;  // the key of the action that shows or hides it, for the menu
  bool open = true;             // in the normal view
  bool open_presenting = true;  // in presentation mode: at first, where the slot has a place
  DrawnRect drawn;
  TextCount text;  // what its contents drew last frame, and how much of it was cut off
  // Presentation only: the share of the presentation font its contents are drawn at. A room
  // cannot scroll, so a panel whose text did not fit in two frames running draws smaller, a
  // step at a time, never below kMinPresentationFit (one frame is not enough: a table sizes
  // its columns from the frame before, so the first frame of a new font or layout cuts text
  // the next one fits); a new layout or font size starts again from the full size.
  float presentation_fit = 1.0f;
  float fitted_font_size = 0.0f;  // the font size presentation_fit was found for
  bool cut_last_frame = false;
  // Presentation only: the lecturer's own size for this panel (Ctrl+= / Ctrl+- while it has
  // the focus). A zoomed panel is not shrunk to fit: the size is the one asked for.
  float zoom = 1.0f;
  bool focused = false;  // it had the focus last frame

  // "Shared tiles" → "shared_tiles": the panel's key in --dump-state.
  std::string Key() const;
  bool& Open(bool presentation) { return presentation ? open_presenting : open; }
  bool Open(bool presentation) const { return presentation ? open_presenting : open; }
};

class PanelTable {
 public:
  explicit PanelTable(std::vector<PanelRow> rows) : rows_(std::move(rows)) {}

  // Each open panel in its window, placed at its slot.
  void Draw(const FrameContext& frame);
  // Presentation: the focused panel's zoom times `factor` (within bounds); false when no
  // panel has the focus.
  bool ZoomFocused(float factor);
  // A show/hide item per panel, for the View menu, in the current mode.
  void DrawMenuItems(bool presentation);
  // The panel titled `title`; the table is the page's own list, so a missing title is a bug.
  PanelRow& Row(const char* title);
  // Every row, for a page that shows a chosen few and places them itself (a tour's stop).
  std::vector<PanelRow>& Rows() { return rows_; }
  const std::vector<PanelRow>& Rows() const { return rows_; }
  // For --dump-state: where each panel was drawn, under its key.
  nlohmann::json Placement(bool presentation) const;
  // Each shown panel's slot in pixels, by title: tests check that none overlap.
  nlohmann::json Slots(ImVec2 area_min, ImVec2 area_size, bool presentation) const;

 private:
  std::vector<PanelRow> rows_;
};

}  // namespace gui
