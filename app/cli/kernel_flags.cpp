#include "app/cli/kernel_flags.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace cli {
namespace {

// "16x16", "256" or "8x8x2": up to three positive integers split by `separator`.
std::optional<std::array<int, 3>> ParseDims(const std::string& text, char separator) {
  std::array<int, 3> dims{1, 1, 1};
  std::size_t at = 0;
  for (int d = 0; d < 3; ++d) {
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text.substr(at), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used == 0 || value < 1 || value > (1 << 16) || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
    dims[static_cast<std::size_t>(d)] = static_cast<int>(value);
    at += used;
    if (at == text.size()) return dims;
    if (text[at] != separator) return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

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

// X,Y,Z, each a count or auto.
std::string ReadGrid(const std::string& grid, sim::KernelCheckOptions& check) {
  if (grid == "auto") return "";
  std::size_t at = 0;
  for (std::size_t d = 0; d < 3 && at <= grid.size(); ++d) {
    const std::size_t comma = std::min(grid.find(',', at), grid.size());
    const std::string part = grid.substr(at, comma - at);
    const std::optional<std::array<int, 3>> count = ParseDims(part, ',');
    if (part != "auto" && (!count || part.find(',') != std::string::npos)) {
      return "--grid " + grid + ": write auto, or X,Y,Z (blocks, each a count or auto)";
    }
    check.grid[d] = part == "auto" ? 0 : (*count)[0];
    at = comma + 1;
  }
  if (at <= grid.size()) return "--grid " + grid + ": at most three axes";
  return "";
}

}  // namespace

void AddKernelFlags(CLI::App& command, KernelFlags& flags, const std::string& sizes_help) {
  flags.block_option =
      command.add_option("--block", flags.block, "Threads per block, XxY[xZ] (default: the file's <<<grid, block>>> launch)");
  command.add_option("--grid", flags.grid,
                     "Blocks, X,Y,Z, each a count or auto (auto: enough to cover C, x along N and y along M; z 1); "
                     "default auto");
  command.add_option("--sizes", flags.sizes, sizes_help)->delimiter(',');
  command.add_option("--define", flags.defines,
                     "NAME=VALUE: a template parameter, a macro (replacing the file's #define), or an int parameter");
}

std::string ReadKernelFlags(const KernelFlags& flags, sim::KernelLessonOptions& options) {
  if (std::string problem = ReadDefines(flags.defines, options); !problem.empty()) return problem;
  if (flags.block_option != nullptr && flags.block_option->count() > 0) {
    options.check.block = ParseDims(flags.block, 'x');
    if (!options.check.block) return "--block " + flags.block + ": write X, XxY or XxYxZ (threads, each 1 to 65536)";
  }
  if (std::string problem = ReadGrid(flags.grid, options.check); !problem.empty()) return problem;
  for (const std::string& s : flags.sizes) {
    const std::optional<std::array<int, 3>> dims = ParseDims(s, 'x');
    const bool square = s.find('x') == std::string::npos;
    if (!dims || (!square && std::count(s.begin(), s.end(), 'x') != 2)) return "--sizes " + s + ": write N or MxNxK";
    options.check.sizes.push_back(square ? sim::CheckSize{(*dims)[0], (*dims)[0], (*dims)[0]}
                                         : sim::CheckSize{(*dims)[0], (*dims)[1], (*dims)[2]});
  }
  return "";
}

}  // namespace cli
