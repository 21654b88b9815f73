#include "app/gui/screenshot.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/io/atomic_file.h"

namespace gui {
namespace {

bool IsFolder(const std::string& path) {
  std::error_code error;
  return !path.empty() && std::filesystem::is_directory(path, error);
}

// XDG_PICTURES_DIR="$HOME/Bilder" in user-dirs.dirs, with $HOME expanded.
std::string PicturesFromUserDirs(const std::string& config, const std::string& home) {
  std::ifstream in(config + "/user-dirs.dirs");
  std::string line;
  const std::string key = "XDG_PICTURES_DIR=";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::string value = line.substr(key.size());
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (value.rfind("$HOME", 0) == 0) value = home + value.substr(5);
    return value;
  }
  return "";
}

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string ScreenshotFolder() {
  const std::string home = Environment("HOME");
  const std::string config = IsFolder(Environment("XDG_CONFIG_HOME")) ? Environment("XDG_CONFIG_HOME") : home + "/.config";
  for (const std::string& candidate :
       {Environment("XDG_PICTURES_DIR"), PicturesFromUserDirs(config, home), home + "/Pictures", home}) {
    if (IsFolder(candidate)) return candidate;
  }
  std::error_code error;  // the working folder may be gone: "." still names it to the user
  const std::filesystem::path here = std::filesystem::current_path(error);
  return error ? std::string(".") : here.string();
}


// The encoder streams into an atomic file: a screenshot cut short (a full disk) leaves the
// previous picture at that path, never a truncated PNG.
std::optional<std::string> WritePng(const FramebufferPixels& pixels, const std::string& path) {
  constexpr int kChannels = 4;
  sim::AtomicFile file(path);
  const auto write = [](void* context, void* data, int size) {
    static_cast<sim::AtomicFile*>(context)->Write(data, static_cast<std::size_t>(size));
  };
  const int encoded = stbi_write_png_to_func(write, &file, pixels.width, pixels.height, kChannels, pixels.rgba.data(),
                                             pixels.width * kChannels);
  if (encoded && file.Commit()) return std::nullopt;
  const std::string reason = file.error().empty() ? "cannot encode the screenshot as PNG for " + path : file.error();
  return "cannot save the screenshot: " + reason;
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
