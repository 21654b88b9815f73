#include "app/gui/screenshot.h"

#include <stb_image_write.h>

#include <algorithm>

namespace gui {

std::optional<std::string> WritePng(const FramebufferPixels& pixels, const std::string& path) {
  constexpr int kChannels = 4;
  const int ok = stbi_write_png(path.c_str(), pixels.width, pixels.height, kChannels,
                                pixels.rgba.data(), pixels.width * kChannels);
  if (!ok) return "cannot write the screenshot to " + path;
  return std::nullopt;
}

FramebufferPixels Crop(const FramebufferPixels& pixels, int x0, int y0, int x1, int y1) {
  constexpr size_t kChannels = 4;
  x0 = std::clamp(x0, 0, pixels.width);
  x1 = std::clamp(x1, x0, pixels.width);
  y0 = std::clamp(y0, 0, pixels.height);
  y1 = std::clamp(y1, y0, pixels.height);
  FramebufferPixels crop;
  crop.width = x1 - x0;
  crop.height = y1 - y0;
  crop.rgba.resize(static_cast<size_t>(crop.width) * crop.height * kChannels);
  for (int y = y0; y < y1; ++y) {
    const auto row = pixels.rgba.begin() + (static_cast<size_t>(y) * pixels.width + x0) * kChannels;
    std::copy_n(row, static_cast<size_t>(crop.width) * kChannels,
                crop.rgba.begin() + static_cast<size_t>(y - y0) * crop.width * kChannels);
  }
  return crop;
}

}  // namespace gui
