#include "app/cli/subcommands.h"

#include "app/cli/bench_command.h"
#include "app/cli/verify_command.h"

namespace cli {

void AddSubcommands(CLI::App& app, std::function<int()>& action) {
  AddBenchCommand(app, action);
  AddVerifyCommand(app, action);
}

}  // namespace cli
