// gui_options.h — how the command line starts the window (see app/cli/command_line.cpp).
#pragma once
#include <string>

#include "sim/lesson/kernel_lesson.h"

namespace cli {

// The window sizes the window may be asked for, by --width/--height and by the saved settings
// alike: a size the command line takes is never refused from the settings at the next start.
constexpr int kMinWindowWidth = 320;
constexpr int kMinWindowHeight = 240;
constexpr int kMaxWindowSide = 16384;

struct GuiOptions {
  std::string lesson;       // "" → last lesson from settings, else the default; "default"; or a file.
  std::string kernel;       // a student's .cu file to open as the lesson ("": none)
  sim::KernelLessonOptions kernel_options;  // how it runs: --block, --grid, --sizes, --define
  std::string screenshot;   // Save the window as PNG once frames are drawn and jobs idle, then exit.
  int frames = 0;           // Render at least this many frames, then exit (0: run until closed).
  std::string actions;      // A script of named actions (the same ones the keys call).
  std::string dump_state;   // Write what the panels show as JSON on exit.
  int dump_state_every = 0;  // Also every this many seconds while the window runs (0: on exit only).
  int bench_frames = 0;     // Step once per frame for N frames with vsync off; print frames/s.
  int soak_seconds = 0;     // Repeat the --actions script for this long, print resident memory, exit.
  int width = 0;            // Window size; 0 → from settings.
  int height = 0;
  bool presentation = false;  // Start in presentation mode.
  float content_scale = 0.0f;  // Fonts and layout × this; 0 → what GLFW reports for the window's screen.
  int stop = 0;              // Open the lesson's tour at this stop (1-based); 0 → where the last session left it.
  long long step = -1;       // Open the lesson at this step of its run; -1 → none asked for.

  // A run that ends by itself (a script, a screenshot, a state dump, a count of frames): no one
  // reads its status bar, so what a user is told there and goes on from fails such a run.
  bool Scripted() const {
    return frames > 0 || bench_frames > 0 || soak_seconds > 0 || !screenshot.empty() || !actions.empty() ||
           !dump_state.empty();
  }
};

}  // namespace cli
