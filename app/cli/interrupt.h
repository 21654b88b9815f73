// interrupt.h — Ctrl+C and a progress line for the long-running subcommands (bench, verify,
// trace, tour).
//
// A long run stops cleanly on the first Ctrl+C: the guard's handler only sets a flag, the
// command checks it between pieces of work, says where it stopped and exits 130 (128 +
// SIGINT, as a shell reports a process killed by it). A second Ctrl+C kills as usual.
#pragma once
#include <chrono>
#include <string>

namespace cli {

// The status a run stopped by Ctrl+C exits with; what it had done is still printed (and
// bench's files written).
constexpr int kExitInterrupted = 130;

// While alive, the first SIGINT sets Interrupted() instead of killing the process.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void (*previous_)(int);
};

bool Interrupted();

// How often a progress line is redrawn while a worker runs.
constexpr std::chrono::milliseconds kProgressInterval{100};

// "42%": how far a run has got, as a progress line says it (clamped to 0–100).
std::string PercentDone(double fraction);

// The end of a progress line: that Ctrl+C stops the run, or, once pressed, that it is stopping.
std::string CtrlCHint();

// A one-line progress indicator on stderr, on a terminal only (a log or a pipe gets none);
// rows printed to stdout go above it once Clear() has removed it.
class ProgressLine {
 public:
  ProgressLine();
  void Show(const std::string& text);
  void Clear();

 private:
  bool enabled_;
  std::string shown_;
};

}  // namespace cli
