#include "app/gui/panel_window.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace gui {

std::string PanelRow::Key() const {
  std::string key = title;
  for (char& c : key) c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

void PanelTable::Draw(const FrameContext& frame) {
  for (PanelRow& row : rows_) {
    bool& open = row.Open(frame.presentation);
    if (!open) continue;
    const ImGuiWindowFlags flags = PlacePanel(frame, *row.slot, row.drawn);
    // A collapsed window returns false: it draws no contents and does not count as drawn.
    if (ImGui::Begin(row.title, &open, flags)) {
      row.drawn.Record();
      if (!frame.presentation || frame.reset_layout || frame.fonts.size != row.fitted_font_size) {
        row.presentation_fit = 1.0f;
        row.fitted_font_size = frame.fonts.size;
        row.cut_last_frame = false;
      }
      row.focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
      const bool zoomed = frame.presentation && row.zoom != 1.0f;
      if (zoomed) row.presentation_fit = 1.0f;
      ImGui::SetWindowFontScale(row.presentation_fit * (frame.presentation ? row.zoom : 1.0f));
      {
        const TextRecordScope recording(row.text, frame.presentation, frame.dumping);
        row.draw(frame);
      }
      const bool cut = frame.presentation && !zoomed && row.text.clipped > 0;
      if (cut && row.cut_last_frame) {
        row.presentation_fit = std::max(kMinPresentationFit, row.presentation_fit * kPresentationFitStep);
      }
      row.cut_last_frame = cut;
    }
    ImGui::End();
  }
}

bool PanelTable::ZoomFocused(float factor) {
  for (PanelRow& row : rows_) {
    if (!row.focused || row.drawn.frame < ImGui::GetFrameCount() - 1) continue;  // drawn last frame
    row.zoom = std::clamp(row.zoom * factor, kMinPanelZoom, kMaxPanelZoom);
    if (std::fabs(row.zoom - 1.0f) < 0.01f) row.zoom = 1.0f;  // back where it started, fitted again
    return true;
  }
  return false;
}

void PanelTable::DrawMenuItems(bool presentation) {
  for (PanelRow& row : rows_) {
    ImGui::MenuItem(row.title, row.shortcut, &row.Open(presentation));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Show or hide the %s panel (Reset layout puts it back in place).", row.title);
    }
  }
}

PanelRow& PanelTable::Row(const char* title) {
  for (PanelRow& row : rows_) {
    if (std::strcmp(row.title, title) == 0) return row;
  }
  std::abort();
}

nlohmann::json PanelTable::Placement(bool presentation) const {
  nlohmann::json placement = nlohmann::json::object();
  for (const PanelRow& row : rows_) {
    nlohmann::json& entry = placement[row.Key()];
    entry = row.drawn.ToJson();
    entry["open"] = row.Open(presentation);
    if (row.drawn.Visible()) {
      entry.update(row.text.ToJson());
      entry["font_scale"] = presentation ? row.presentation_fit * row.zoom : 1.0f;
      entry["zoom"] = row.zoom;
      entry["focused"] = row.focused;
    }
  }
  return placement;
}

nlohmann::json PanelTable::Slots(ImVec2 area_min, ImVec2 area_size, bool presentation) const {
  nlohmann::json slots = nlohmann::json::object();
  for (const PanelRow& row : rows_) {
    if (!row.Open(presentation) || (presentation && !row.slot->Presented())) continue;
    const PanelRect& rect = row.slot->For(presentation);
    const ImVec2 min = SlotMin(area_min, area_size, rect);
    const ImVec2 size = SlotSize(area_size, rect);
    slots[row.title] = {min.x, min.y, min.x + size.x, min.y + size.y};
  }
  return slots;
}

}  // namespace gui
