#include "app/gui/screenshot.h"

#include <stb_image_write.h>

namespace gui {

std::optional<std::string> WritePng(const FramebufferPixels& pixels, const std::string& path) {
  constexpr int kChannels = 4;
  const int ok = stbi_write_png(path.c_str(), pixels.width, pixels.height, kChannels,
                                pixels.rgba.data(), pixels.width * kChannels);
  if (!ok) return "cannot write the screenshot to " + path;
  return std::nullopt;
}

}  // namespace gui
