#include "app/cli/interrupt.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>

namespace cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void OnInterrupt(int) {
  g_interrupted = 1;
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  previous_ = std::signal(SIGINT, OnInterrupt);
}

InterruptGuard::~InterruptGuard() { std::signal(SIGINT, previous_); }

bool Interrupted() { return g_interrupted != 0; }

std::string PercentDone(double fraction) {
  return std::to_string(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0)) + "%";
}

std::string CtrlCHint() { return Interrupted() ? " \u2014 stopping" : " (Ctrl+C stops)"; }

ProgressLine::ProgressLine() : enabled_(isatty(STDERR_FILENO) != 0) {}

void ProgressLine::Show(const std::string& text) {
  if (!enabled_ || text == shown_) return;
  std::cerr << "\r\033[K" << text << std::flush;
  shown_ = text;
}

void ProgressLine::Clear() {
  if (!enabled_ || shown_.empty()) return;
  std::cerr << "\r\033[K" << std::flush;
  shown_.clear();
}

}  // namespace cli
