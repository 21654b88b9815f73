// live_text.h — the few ways the live GPU panel's parts write a line: a message (an error in
// orange with a warning sign, else in sky blue), a dash for a figure not shown, a colour.
#pragma once
#include <imgui.h>

#include <string>

namespace panels {

inline ImVec4 Colour(ImU32 colour) { return ImGui::ColorConvertU32ToFloat4(colour); }

// Wrapped at the panel's edge; nothing for an empty message.
void MessageText(const std::string& text, bool error);

// Where a figure means nothing (a wrong C's speed) or is not known.
void Dash();

}  // namespace panels
