// tour_take_away.h — `tilescope tour LESSON --slides DIR` and `--record FILE`: the window runs
// the tour as a class saw it (presentation, lecturer mode, each question revealed) from a
// script of the app's own actions, saving a screenshot per stop or per step; then the slides
// become one PDF and the steps one animation (slide_files.h). The window is the GUI's, started
// through the launcher main() hands the command line, with settings of its own so the user's
// are neither read nor changed.
#pragma once
#include <optional>
#include <string>

#include "app/cli/command_line.h"
#include "sim/lesson/tour.h"

namespace cli {

struct TakeAwayOptions {
  std::string slides;    // a folder: stop-01.png ... and LESSON.pdf
  std::string record;    // a .gif or .webp
  std::string steps;     // "FIRST:LAST" of the run for --record; "" → the whole run
  int width = 1920;
  int height = 1080;
  int frame_ms = 500;
};

// The exit status; what went wrong is printed.
int WriteSlides(const std::string& lesson, const sim::Tour& tour, const TakeAwayOptions& options,
                const GuiLauncher& launch_gui);
int RecordSteps(const std::string& lesson, const sim::LessonConfig& config, const TakeAwayOptions& options,
                const GuiLauncher& launch_gui);

}  // namespace cli
