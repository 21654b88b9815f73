#include "app/gui/fonts.h"

#include <imgui.h>

#include <cstdlib>
#include <filesystem>

namespace gui {
namespace {

constexpr const char* kTextFontFile = "DejaVuSans.ttf";
constexpr const char* kMonoFontFile = "DejaVuSansMono.ttf";
constexpr const char* kDebianFontDir = "/usr/share/fonts/truetype/dejavu";

// Latin text plus the marks TileScope draws: arrows, math operators, box and block
// shapes, ⚠ and ✓ ✗. Static storage: ImGui keeps the pointer until the atlas is built.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin, Latin-1 (× ·)
    0x0370, 0x03FF,  // Greek
    0x2010, 0x205E,  // punctuation (– … ‰)
    0x2100, 0x214F,  // letterlike symbols (ℹ)
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators (≤ ≥ ≈)
    0x2500, 0x25FF,  // box drawing, blocks, geometric shapes
    0x2600, 0x26FF,  // miscellaneous symbols (⚠)
    0x2700, 0x27BF,  // dingbats (✓ ✗)
    0,
};

}  // namespace

std::string FindFontDirectory() {
  if (const char* dir = std::getenv("TILESCOPE_FONT_DIR"); dir && *dir) return dir;
  return kDebianFontDir;
}

FontSet LoadFonts(float size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  FontSet fonts;
  fonts.size = size;
  const std::filesystem::path dir = FindFontDirectory();
  const std::filesystem::path text_path = dir / kTextFontFile;
  const std::filesystem::path mono_path = dir / kMonoFontFile;
  std::error_code ec;
  if (std::filesystem::exists(text_path, ec) && std::filesystem::exists(mono_path, ec)) {
    fonts.text = io.Fonts->AddFontFromFileTTF(text_path.c_str(), size, nullptr, kGlyphRanges);
    fonts.mono = io.Fonts->AddFontFromFileTTF(mono_path.c_str(), size, nullptr, kGlyphRanges);
    fonts.large = io.Fonts->AddFontFromFileTTF(text_path.c_str(), size * kLargeScale, nullptr, kGlyphRanges);
  }
  if (!fonts.text || !fonts.mono || !fonts.large) {
    io.Fonts->Clear();
    fonts.warning = "font files " + text_path.string() + " / " + mono_path.string() +
                    " not found; using ImGui's built-in font (install fonts-dejavu-core)";
    ImFontConfig config;
    config.SizePixels = size;
    fonts.text = io.Fonts->AddFontDefault(&config);
    fonts.mono = fonts.text;
    config.SizePixels = size * kLargeScale;
    fonts.large = io.Fonts->AddFontDefault(&config);
    fonts.builtin_fallback = true;
  }
  io.Fonts->Build();
  return fonts;
}

}  // namespace gui
