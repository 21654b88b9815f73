// theme.h — ImGui styles for the normal and the presentation (high-contrast) look.
#pragma once

namespace gui {

enum class ThemeKind { kNormal, kHighContrast };

// Applies the style to the current ImGui context; sizes follow the font size so spacing
// stays proportional when presentation mode rebuilds the fonts larger.
void ApplyTheme(ThemeKind kind, float font_size);

}  // namespace gui
