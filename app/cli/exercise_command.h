// exercise_command.h — `tilescope exercise tiled DIR`: writes the tiled kernel's starter file
// (sim/lesson/exercise.h) into DIR, refusing to overwrite one without --force; with
// `--check FILE` it prints which of the exercise's milestones the file has reached; with
// `--open` it opens the window on DIR's file (the starter, or the work already there), whose
// Guide checks each milestone as the student saves. check's kernel flags (--kernel, --block,
// --grid, --sizes, --define) say how the file runs, for --check and the window alike.
// Exit 0: written, or every milestone reached; 1: a milestone not yet; 2: usage, a file
// that exists, a folder or file it cannot write or read.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "app/cli/command_line.h"

namespace cli {

// `window`: the window's own options as the command line gives them (--width, --screenshot...),
// for --open.
void AddExerciseCommand(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui, const GuiOptions& window);

}  // namespace cli
