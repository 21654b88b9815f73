#include "app/gui/stop_signals.h"

#ifndef __EMSCRIPTEN__
#include <X11/Xlib.h>
#endif

#include <csignal>
#include <cstdlib>
#include <iterator>
#include <iostream>
#include <utility>

namespace gui {
namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

volatile std::sig_atomic_t g_received = 0;
struct sigaction g_previous[std::size(kStopSignals)];

extern "C" void OnStopSignal(int signal) { g_received = signal; }

std::function<void()>& LastSave() {
  static std::function<void()> save;
  return save;
}

#ifdef __EMSCRIPTEN__
// A browser tab has no X server to lose, and no signal reaches it: closing the tab ends the
// page where it is, with the settings as the autosave last wrote them (application.h).
void WatchDisplay(bool) {}
#else
// Xlib calls this when the connection to the X server breaks, and exits when it returns.
int OnDisplayLost(Display*) {
  std::cerr << "tilescope: the X server is gone; saving the settings before exiting" << std::endl;
  if (LastSave()) LastSave()();
  std::exit(1);
}

void WatchDisplay(bool on) { XSetIOErrorHandler(on ? OnDisplayLost : nullptr); }
#endif

}  // namespace

StopSignals::StopSignals(std::function<void()> last_save) {
  g_received = 0;
  LastSave() = std::move(last_save);
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], nullptr, &g_previous[i]);
    // A signal ignored when the app started (nohup's SIGHUP) stays ignored.
    if (g_previous[i].sa_handler != SIG_IGN) sigaction(kStopSignals[i], &action, nullptr);
  }
  WatchDisplay(true);
}

StopSignals::~StopSignals() {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) sigaction(kStopSignals[i], &g_previous[i], nullptr);
  WatchDisplay(false);
  LastSave() = nullptr;
}

int StopSignals::Received() { return g_received; }

}  // namespace gui
