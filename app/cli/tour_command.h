// tour_command.h — `tilescope tour FILE|NAME`: a lesson's guided tour without the window.
// Each stop with the step it resolves to, its text filled from the model, a source document's
// claim beside the model's figure, and its question with the model's answer and why: what a
// teacher reads to check a lesson, and what the tests run. `--queries` lists the queries a
// tour may name; `--json` prints the same as JSON. `--slides DIR` and `--record FILE` save the
// window's view of it instead (tour_take_away.h).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "app/cli/command_line.h"

namespace cli {

void AddTourCommand(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui);

}  // namespace cli
