// exercise_command.h — `tilescope exercise tiled DIR`: writes the tiled kernel's starter file
// (sim/lesson/exercise.h) into DIR, refusing to overwrite one without --force; with
// `--check FILE` it prints which of the exercise's milestones the file has reached.
// Exit 0: written, or every milestone reached; 1: a milestone not yet; 2: usage, a file
// that exists, a folder or file it cannot write or read.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

void AddExerciseCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
