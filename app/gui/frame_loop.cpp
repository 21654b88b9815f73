#include "app/gui/frame_loop.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>
#include <utility>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/eventloop.h>
#endif

namespace gui {
namespace {

#ifdef __EMSCRIPTEN__
// The page's frame callback. The loop it runs lives as long as the page.
void BrowserFrame(void* data) {
  auto* loop = static_cast<FrameLoop*>(data);
  if (loop->frame()) return;
  emscripten_cancel_main_loop();
  const int status = loop->finish();
  std::cout << "tilescope: the window has closed (exit status " << status << "); reload the page to open it again"
            << std::endl;
}
#else
constexpr int kMaxFramesPerSecond = 60;  // a display's usual refresh
#endif

}  // namespace

#ifdef __EMSCRIPTEN__
int RunFrameLoop(FrameLoop loop) {
  const bool paced = loop.paced;
  // 0 frames/s: at the browser's display rate; unpaced, as soon as the browser can call again.
  emscripten_set_main_loop_arg(BrowserFrame, new FrameLoop(std::move(loop)), 0, /*simulate_infinite_loop=*/0);
  if (!paced) emscripten_set_main_loop_timing(EM_TIMING_SETIMMEDIATE, 0);
  emscripten_unwind_to_js_event_loop();
}
#else
// Where the swap does not wait for the display the window would redraw as fast as the cores
// allow and leave nothing to the workers behind it (a lesson's whole-run pass, a tour being
// prepared), which run a step below it in priority: a frame is then held to its share of
// kMaxFramesPerSecond.
int RunFrameLoop(FrameLoop loop) {
  for (;;) {
    const auto frame_start = std::chrono::steady_clock::now();
    if (!loop.frame()) break;
    if (loop.paced) std::this_thread::sleep_until(frame_start + std::chrono::microseconds(1000000 / kMaxFramesPerSecond));
  }
  return loop.finish();
}
#endif

}  // namespace gui
