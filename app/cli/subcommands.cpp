#include "app/cli/subcommands.h"

namespace cli {

void AddSubcommands(CLI::App& /*app*/, std::function<int()>& /*action*/) {}

}  // namespace cli
