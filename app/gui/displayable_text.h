// displayable_text.h — text made fit to draw: a character the font lacks replaced by one it
// has, lines broken at spaces to a width, and a line cut short with an ellipsis.
#pragma once
#include <imgui.h>

#include <string>

namespace gui {

// `text` as `font` can draw it: a character the font lacks becomes one it has (a keycap emoji
// "2️⃣" of a quoted handout becomes "(2)"; variation selectors and joiners, which draw nothing,
// go; anything else becomes □) instead of ImGui's "?". Every text_item.h helper draws through it.
std::string Displayable(const char* text, const char* text_end, const ImFont* font);
// `text` with line breaks at spaces so that no line is wider than `width` (a word wider than
// that stands alone on its line): ImGui's own wrapping also breaks after a full stop, inside a
// number ("filled 1. / .16").
std::string WrapAtSpaces(const std::string& text, float width);
// `text` cut to end in "…" so that it is no wider than `width` (at a whole UTF-8 character), or
// `text` itself where it fits.
std::string ElideToWidth(const std::string& text, float width);

}  // namespace gui
