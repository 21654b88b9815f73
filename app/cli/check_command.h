// check_command.h — `tilescope check FILE.cu`: the grader. Runs a student's kernel on the model
// at a few sizes (sim/lesson/kernel_check.h), says whether C is right at each, and names every
// mistake at its line. Exit 0 when C is right everywhere and no finding is an error, 1
// otherwise, 2 for usage and for a file the front end cannot read.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

void AddCheckCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
