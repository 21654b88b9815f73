// stop_signals.h — SIGTERM, SIGINT, SIGHUP and the X server going away end the window as Quit
// does: the settings (the tour's answers and stop, the layout, the window size) are saved.
// A signal handler only records which signal came; the frame loop reads it between frames and
// closes the window, and the saving runs there, on the main thread, as at any exit. Losing the
// X server cannot wait for the loop: Xlib ends the process once its I/O error handler returns,
// so that handler (called on the main thread inside an Xlib call, not in a signal) writes the
// settings the loop last handed over, which the loop keeps current (see Application).
#pragma once
#include <functional>

namespace gui {

class StopSignals {
 public:
  // `last_save` runs when the X server is gone, before the process exits.
  explicit StopSignals(std::function<void()> last_save);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal that asked the window to close, or 0. A second one of the same kind ends the
  // process as it would have without the window (its handler is reset once it has fired).
  static int Received();
};

// The exit status of a run a signal stopped, as a shell reports a process the signal killed.
constexpr int ExitStatusOfSignal(int signal) { return 128 + signal; }

}  // namespace gui
