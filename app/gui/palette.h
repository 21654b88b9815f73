// palette.h — the colours TileScope draws state with.
//
// Okabe & Ito's palette stays distinguishable under the common colour-vision deficiencies;
// every state drawn in one of these colours also carries a glyph or text, never colour alone.
#pragma once
#include <imgui.h>

namespace gui::palette {

constexpr ImU32 Rgb(unsigned r, unsigned g, unsigned b, unsigned a = 255) {
  return (a << 24) | (b << 16) | (g << 8) | r;  // ImGui packs colours as ABGR.
}

constexpr ImU32 kBlack = Rgb(0, 0, 0);
constexpr ImU32 kOrange = Rgb(230, 159, 0);
constexpr ImU32 kSkyBlue = Rgb(86, 180, 233);
constexpr ImU32 kBluishGreen = Rgb(0, 158, 115);
constexpr ImU32 kYellow = Rgb(240, 228, 66);
constexpr ImU32 kBlue = Rgb(0, 114, 178);
constexpr ImU32 kVermillion = Rgb(213, 94, 0);
constexpr ImU32 kReddishPurple = Rgb(204, 121, 167);
constexpr ImU32 kGrey = Rgb(153, 153, 153);
// Outside Okabe & Ito's eight: the student's own kernel in a sweep, whose series would otherwise
// share a colour with a rung (the rungs cycle through the seven above); its label says which it is.
constexpr ImU32 kStudentMagenta = Rgb(255, 64, 255);

// ImGui takes a text colour as four floats; the palette keeps packed colours.
inline ImVec4 Colour(ImU32 colour) { return ImGui::ColorConvertU32ToFloat4(colour); }

// The glyphs that accompany colours (DejaVu Sans has them; fonts.cpp loads their ranges).
constexpr const char* kGlyphCheck = "\u2713";    // ✓
constexpr const char* kGlyphCross = "\u2717";    // ✗
constexpr const char* kGlyphWarning = "\u26A0";  // ⚠
constexpr const char* kGlyphRight = "\u2192";    // →
constexpr const char* kGlyphLeft = "\u2190";     // ←
constexpr const char* kGlyphNext = "\u25B6";     // ▶ the followed thread runs this line next

}  // namespace gui::palette
