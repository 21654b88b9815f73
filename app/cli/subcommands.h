// subcommands.h — the subcommands of `tilescope`, each defined in its own file here.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace cli {

// Adds every subcommand to `app`; the chosen one stores its work in `action`.
void AddSubcommands(CLI::App& app, std::function<int()>& action);

}  // namespace cli
