// subcommands.h — the subcommands of `tilescope`, each defined in its own file here.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

#include "app/cli/command_line.h"

namespace cli {

// Adds every subcommand to `app`; the chosen one stores its work in `action`. `launch_gui`
// opens the window for a subcommand that saves what it shows (tour --slides, --record) or
// opens it on what it wrote (exercise --open), with `window`'s options.
void AddSubcommands(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui, const GuiOptions& window);

}  // namespace cli
