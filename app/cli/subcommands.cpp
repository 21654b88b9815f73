#include "app/cli/subcommands.h"

#include "app/cli/bench_command.h"

namespace cli {

void AddSubcommands(CLI::App& app, std::function<int()>& action) {
  AddBenchCommand(app, action);
}

}  // namespace cli
