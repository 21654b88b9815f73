// command_line.h — `tilescope` with no subcommand opens the GUI; subcommands (trace, bench,
// verify) run the same model and runner without a window. CLI11 parses; a wrong flag,
// subcommand or value gets one line naming it and exit status 2.
#pragma once
#include <functional>

#include "app/cli/gui_options.h"

namespace cli {

constexpr int kExitUsage = 2;

using GuiLauncher = std::function<int(const GuiOptions&)>;

int RunCommandLine(int argc, char** argv, const GuiLauncher& launch_gui);

}  // namespace cli
