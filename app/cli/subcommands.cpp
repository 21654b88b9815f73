#include "app/cli/subcommands.h"

#include "app/cli/bench_command.h"
#include "app/cli/check_command.h"
#include "app/cli/exercise_command.h"
#include "app/cli/occupancy_command.h"
#include "app/cli/tour_command.h"
#include "app/cli/trace_command.h"
#include "app/cli/verify_command.h"

namespace cli {
namespace {

// "Each subcommand has its own options: tilescope trace --help, ...", from the list itself.
[[maybe_unused]] std::string SubcommandFooter(CLI::App& app) {  // unused in a browser (below)
  std::string footer = "Each subcommand has its own options:";
  const char* separator = " ";
  for (const CLI::App* subcommand : app.get_subcommands({})) {
    footer += separator + app.get_name() + " " + subcommand->get_name() + " --help";
    separator = ", ";
  }
  return footer;
}

}  // namespace

void AddSubcommands(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui, const GuiOptions& window) {
#ifdef __EMSCRIPTEN__
  // A browser has no command line: the page turns its link into the window's options
  // (web/shell.html), and the subcommands are the desktop program's (docs/web.md).
  (void)app, (void)action, (void)launch_gui, (void)window;
#else
  AddTraceCommand(app, action);
  AddBenchCommand(app, action);
  AddVerifyCommand(app, action);
  AddOccupancyCommand(app, action);
  AddTourCommand(app, action, launch_gui);
  AddCheckCommand(app, action);
  AddExerciseCommand(app, action, launch_gui, window);
  app.footer(SubcommandFooter(app));
#endif
}

}  // namespace cli
