// screenshot.h — saves what the window shows as a PNG (the app's --screenshot and Export).
#pragma once
#include <optional>
#include <string>

#include "app/gui/window.h"

namespace gui {

// Returns an error message naming the file when it cannot be written.
std::optional<std::string> WritePng(const FramebufferPixels& pixels, const std::string& path);

}  // namespace gui
