// fonts.h — DejaVu Sans (text) and DejaVu Sans Mono (source), rasterised at the size in use.
//
// Presentation mode rebuilds the atlas at the large size instead of scaling the small one,
// so text stays crisp from the back of a room.
#pragma once
#include <string>

struct ImFont;

namespace gui {

struct FontSet {
  ImFont* text = nullptr;
  ImFont* mono = nullptr;
  ImFont* large = nullptr;  // the text font kLargeScale times as big: what a class reads from afar
  float size = 0.0f;
  bool builtin_fallback = false;  // DejaVu was not found: ImGui's own font is in use.
  std::string warning;            // Why the fallback happened; empty when DejaVu loaded.
};

// A lecturer's question and its reveal are read from the back of a room, over presentation's large size.
constexpr float kLargeScale = 1.5f;

// Where DejaVu is looked for: $TILESCOPE_FONT_DIR, then Debian's fonts-dejavu-core folder.
std::string FindFontDirectory();

// Clears the current ImGui font atlas and fills it at `size` pixels. Call between frames;
// the renderer's font texture must be rebuilt afterwards (Window::RebuildFontTexture).
FontSet LoadFonts(float size);

}  // namespace gui
