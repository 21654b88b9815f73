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
std::string SubcommandFooter(CLI::App& app) {
  std::string footer = "Each subcommand has its own options:";
  const char* separator = " ";
  for (const CLI::App* subcommand : app.get_subcommands({})) {
    footer += separator + app.get_name() + " " + subcommand->get_name() + " --help";
    separator = ", ";
  }
  return footer;
}

}  // namespace

void AddSubcommands(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui) {
  AddTraceCommand(app, action);
  AddBenchCommand(app, action);
  AddVerifyCommand(app, action);
  AddOccupancyCommand(app, action);
  AddTourCommand(app, action, launch_gui);
  AddCheckCommand(app, action);
  AddExerciseCommand(app, action);
  app.footer(SubcommandFooter(app));
}

}  // namespace cli
