// frame_loop.h — who calls the window's frames. On the desktop a plain loop, holding each frame
// to a display's rate when asked. A browser tab must never block: there the page's own frame
// callback (requestAnimationFrame) calls one frame at a time, and RunFrameLoop never returns to
// its caller; when a frame says stop, `finish` runs and the page is told the window closed.
#pragma once
#include <functional>

namespace gui {

struct FrameLoop {
  std::function<bool()> frame;  // draws and presents one frame; false: the run is over
  std::function<int()> finish;  // after the last frame: the exit status
  // Held to a display's rate where the swap does not wait for one (Xvfb, vsync off): off for a
  // benchmark, which measures the unpaced rate.
  bool paced = true;
};

// The exit status from `finish` (on the desktop; in a browser it does not return).
int RunFrameLoop(FrameLoop loop);

}  // namespace gui
