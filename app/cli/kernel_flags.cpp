#include "app/cli/kernel_flags.h"

#include <algorithm>
#include <array>
#include <optional>

namespace cli {
namespace {

std::string ReadDefines(const std::vector<std::string>& defines, sim::KernelLessonOptions& options) {
  for (const std::string& d : defines) {
    const std::size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) return "--define " + d + ": write NAME=VALUE";
    options.front.defines[d.substr(0, eq)] = d.substr(eq + 1);
    try {
      std::size_t used = 0;
      const long long v = std::stoll(d.substr(eq + 1), &used, 0);
      if (used == d.size() - eq - 1) options.check.int_values[d.substr(0, eq)] = v;
    } catch (const std::exception&) {
    }
  }
  return "";
}

// --grid's axes: split at the commas outside parentheses (an axis may be `min(N, 64)`).
std::vector<std::string> GridAxes(const std::string& text) {
  std::vector<std::string> axes(1);
  int depth = 0;
  for (const char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (c == ',' && depth == 0) {
      axes.emplace_back();
    } else {
      axes.back() += c;
    }
  }
  return axes;
}

// X,Y,Z, each auto, a count or an expression in M, N, K and blockDim.
std::string ReadGrid(const std::string& grid, sim::KernelCheckOptions& check) {
  const std::vector<std::string> axes = GridAxes(grid);
  if (axes.size() > 3) return "--grid " + grid + ": at most three axes, X,Y,Z";
  for (std::size_t d = 0; d < axes.size(); ++d) {
    if (axes[d].find_first_not_of(' ') == std::string::npos) {
      return "--grid " + grid + ": axis " + std::to_string(d + 1) + " is empty (write auto, a count or an expression in M, N, K, blockDim)";
    }
    if (const std::string problem = sim::GridAxisProblem(axes[d]); !problem.empty()) return problem;
    check.grid[d] = axes[d];
  }
  return "";
}

}  // namespace

std::optional<sim::CheckSize> ParseCheckSize(const std::string& text) {
  const std::optional<std::array<int, 3>> dims = sim::ParseExtents(text, 'x');
  const auto separators = std::count(text.begin(), text.end(), 'x');
  if (!dims || (separators != 0 && separators != 2)) return std::nullopt;
  if (separators == 0) return sim::CheckSize{(*dims)[0], (*dims)[0], (*dims)[0]};
  return sim::CheckSize{(*dims)[0], (*dims)[1], (*dims)[2]};
}

void AddKernelNameFlag(CLI::App& command, KernelFlags& flags, const std::string& flag, const std::string& help) {
  flags.kernel_name_option = command.add_option(flag, flags.kernel_name, help);
}

void AddKernelLaunchFlags(CLI::App& command, KernelFlags& flags) {
  flags.block_option =
      command.add_option("--block", flags.block, "Threads per block, XxY[xZ] (default: the file's <<<grid, block>>> launch)");
  flags.grid_option = command.add_option(
      "--grid", flags.grid,
      "Blocks, X,Y,Z, each auto, a count or an integer expression in M, N, K and blockDim.x/y/z, such as "
      "(N+15)/16 (auto: enough to cover C, x along N and y along M; z 1); default auto");
  flags.define_option = command.add_option(
      "--define", flags.defines, "NAME=VALUE: a template parameter, a macro (replacing the file's #define), or an int parameter");
}

void AddKernelFlags(CLI::App& command, KernelFlags& flags, const std::string& sizes_help) {
  AddKernelLaunchFlags(command, flags);
  command.add_option("--sizes", flags.sizes, sizes_help)->delimiter(',');
}

std::string LaunchFlagGiven(const KernelFlags& flags) {
  for (const CLI::Option* option : {flags.kernel_name_option, flags.block_option, flags.grid_option, flags.define_option}) {
    if (option != nullptr && option->count() > 0) return option->get_name();
  }
  return "";
}

bool AnyKernelFlagGiven(const KernelFlags& flags) {
  return !LaunchFlagGiven(flags).empty() || flags.grid != sim::kAutoGrid || !flags.sizes.empty() || !flags.defines.empty();
}

std::string ReadKernelFlags(const KernelFlags& flags, sim::KernelLessonOptions& options) {
  if (flags.kernel_name_option != nullptr && flags.kernel_name_option->count() > 0) {
    if (flags.kernel_name.empty()) return flags.kernel_name_option->get_name() + " needs a kernel's name";
    options.front.kernel = flags.kernel_name;
  }
  if (std::string problem = ReadDefines(flags.defines, options); !problem.empty()) return problem;
  if (flags.block_option != nullptr && flags.block_option->count() > 0) {
    options.check.block = sim::ParseExtents(flags.block, 'x');
    if (!options.check.block) return "--block " + flags.block + ": write X, XxY or XxYxZ (threads, each 1 to 65536)";
  }
  if (std::string problem = ReadGrid(flags.grid, options.check); !problem.empty()) return problem;
  for (const std::string& s : flags.sizes) {
    const std::optional<sim::CheckSize> size = ParseCheckSize(s);
    if (!size) return "--sizes " + s + ": write N or MxNxK";
    options.check.sizes.push_back(*size);
  }
  return "";
}

}  // namespace cli
