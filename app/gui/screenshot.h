// screenshot.h — saves what the window shows as a PNG (the app's --screenshot and Export).
#pragma once
#include <optional>
#include <string>

#include "app/gui/window.h"

namespace gui {

// Returns an error message naming the file when it cannot be written.
std::optional<std::string> WritePng(const FramebufferPixels& pixels, const std::string& path);

// Where Ctrl+P saves: the desktop's pictures folder (XDG_PICTURES_DIR, from the environment or
// user-dirs.dirs), else ~/Pictures, else the home folder, else the working folder; one that
// exists, never a guess.
std::string ScreenshotFolder();

// The pixels of [x0, x1) × [y0, y1) (framebuffer pixels, top row 0), clamped to the image.
FramebufferPixels Crop(const FramebufferPixels& pixels, int x0, int y0, int x1, int y1);

}  // namespace gui
