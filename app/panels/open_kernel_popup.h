// open_kernel_popup.h — File → Open kernel…: a path field and an Open button over the page. Open
// queues kernel-open with the path, as a script or a key would; the page reports what came of it.
#pragma once
#include <array>

#include "app/gui/frame_context.h"

namespace gui {

struct OpenKernelPopup {
  bool open = false;
  void Draw(const FrameContext& frame);

 private:
  std::array<char, 1024> path_{};
  bool focus_ = true;
};

}  // namespace gui
