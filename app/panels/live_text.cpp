#include "app/panels/live_text.h"

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace panels {

void MessageText(const std::string& text, bool error) {
  if (text.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  if (error) {
    gui::TextColored(Colour(gui::palette::kOrange), "%s %s", gui::palette::kGlyphWarning, text.c_str());
  } else {
    gui::TextColored(Colour(gui::palette::kSkyBlue), "%s", text.c_str());
  }
  ImGui::PopTextWrapPos();
}

void Dash() { gui::TextDisabled("\u2014"); }

}  // namespace panels
