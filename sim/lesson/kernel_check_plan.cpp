#include "sim/lesson/kernel_check_plan.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <memory>

#include "sim/model/global_memory.h"

namespace sim {
namespace {

// The sizes C is checked at by default, besides a multiple of the block: none of them a
// multiple of any power-of-two tile, so a kernel that skips the tail tile shows it.
constexpr CheckSize kNonMultiple{50, 37, 29};
constexpr int kMinMultiple = 8;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A pointer parameter's matrix by its name (A, d_A, g_a, ...); -1 where the name says none.
int MatrixByName(const std::string& name) {
  std::string n = Lower(name);
  for (const char* prefix : {"d_", "g_", "dev_"}) {
    if (n.rfind(prefix, 0) == 0) n = n.substr(std::strlen(prefix));
  }
  if (n == "a") return static_cast<int>(MatrixId::kA);
  if (n == "b") return static_cast<int>(MatrixId::kB);
  if (n == "c") return static_cast<int>(MatrixId::kC);
  return -1;
}

bool IsSquareName(const std::string& name) {
  const std::string n = Lower(name);
  return n == "n" || n == "w" || n == "width" || n == "size";
}

// Each parameter's argument: a matrix, a size of the run, or a value given by name.
struct BoundArgument {
  enum class Source : std::uint8_t { kValue, kM, kN, kK };
  Source source = Source::kValue;
  std::int32_t value = 0;  // kValue: the matrix (MatrixId) of a pointer, else the int
  std::int32_t At(const CheckSize& size) const {
    switch (source) {
      case Source::kM: return size.m;
      case Source::kN: return size.n;
      case Source::kK: return size.k;
      case Source::kValue: break;
    }
    return value;
  }
};

struct Binding {
  std::vector<BoundArgument> arguments;  // per parameter
  bool square = false;
  std::string error;
};

Binding Bind(const cuda::CompiledKernel& kernel, const std::map<std::string, long long>& values) {
  Binding b;
  int ints = 0;
  for (const cuda::KernelParameterSlot& p : kernel.parameters) ints += !p.pointer;
  int next_pointer = 0;
  for (const cuda::KernelParameterSlot& p : kernel.parameters) {
    if (p.pointer) {
      int matrix = MatrixByName(p.name);
      if (matrix < 0) matrix = next_pointer;
      if (matrix > 2) {
        b.error = "the pointer parameter " + p.name + " is not A, B or C (the check gives a kernel three matrices)";
        return b;
      }
      ++next_pointer;
      b.arguments.push_back({BoundArgument::Source::kValue, matrix});
      continue;
    }
    const auto given = values.find(p.name);
    if (given != values.end()) {
      if (given->second < std::numeric_limits<std::int32_t>::min() || given->second > std::numeric_limits<std::int32_t>::max()) {
        b.error = "--define " + p.name + "=" + std::to_string(given->second) + ": the int parameter " + p.name + " holds " +
                  std::to_string(std::numeric_limits<std::int32_t>::min()) + " to " + std::to_string(std::numeric_limits<std::int32_t>::max());
        return b;
      }
      b.arguments.push_back({BoundArgument::Source::kValue, static_cast<std::int32_t>(given->second)});
    } else if (p.name == "M" || p.name == "m") {
      b.arguments.push_back({BoundArgument::Source::kM, 0});
    } else if (p.name == "K" || p.name == "k") {
      b.arguments.push_back({BoundArgument::Source::kK, 0});
    } else if (p.name == "N" || (IsSquareName(p.name) && ints > 1 && p.name == "n")) {
      b.arguments.push_back({BoundArgument::Source::kN, 0});
    } else if (IsSquareName(p.name) && ints == 1) {
      b.arguments.push_back({BoundArgument::Source::kN, 0});
      b.square = true;
    } else {
      b.error = "cannot bind the parameter " + p.name + ": it is not M, N, K or one square size (w, width, n, size); pass --define " +
                p.name + "=VALUE";
      return b;
    }
  }
  return b;
}

std::vector<float> Seeded(int rows, int cols, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(rows) * cols);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (float& e : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    e = static_cast<float>(static_cast<int>(x % 9) - 4);
  }
  return v;
}

std::vector<CheckSize> DefaultSizes(const std::array<int, 3>& block, bool square) {
  const int multiple = std::max(kMinMultiple, 2 * std::max(block[0], block[1]));
  if (square) return {{multiple, multiple, multiple}, {kNonMultiple.n, kNonMultiple.n, kNonMultiple.n}};
  return {{multiple, multiple, multiple}, kNonMultiple};
}

// Blocks per axis at `size`: the --grid expressions, or enough to cover C; the problem in `error`.
std::optional<std::array<int, 3>> GridAt(const std::array<std::string, 3>& axes, const std::array<int, 3>& block, const CheckSize& size,
                                          std::string& error) {
  const std::array<int, 3> automatic{(size.n + block[0] - 1) / std::max(block[0], 1), (size.m + block[1] - 1) / std::max(block[1], 1), 1};
  const std::map<std::string, long long> names{{"M", size.m}, {"N", size.n}, {"K", size.k}};
  std::array<int, 3> grid{};
  for (std::size_t d = 0; d < 3; ++d) {
    if (axes[d] == kAutoGrid) {
      grid[d] = automatic[d];
      continue;
    }
    std::string why;
    const std::optional<long long> value = cuda::EvaluateIntegerExpression(axes[d], names, block, why);
    if (!value) {
      error = "--grid " + axes[d] + ": " + why;
      return std::nullopt;
    }
    if (*value < 1 || *value > (1ll << 31) - 1) {
      error = "--grid " + axes[d] + " gives " + std::to_string(*value) + " blocks at " + SizeText(size) + " (a grid axis needs 1 or more)";
      return std::nullopt;
    }
    grid[d] = static_cast<int>(*value);
  }
  return grid;
}

}  // namespace

std::string SizeText(const CheckSize& s) { return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k); }

std::optional<std::array<int, 3>> ParseExtents(const std::string& text, char separator) {
  std::array<int, 3> dims{1, 1, 1};
  std::size_t at = 0;
  for (std::size_t d = 0; d < 3; ++d) {
    if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text.substr(at), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (value < 1 || value > (1 << 16)) return std::nullopt;
    dims[d] = static_cast<int>(value);
    at += used;
    if (at == text.size()) return dims;
    if (text[at] != separator) return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

std::string GridAxisProblem(const std::string& axis) {
  if (axis == kAutoGrid) return "";
  std::string error;
  const CheckSize sample{64, 64, 64};
  return GridAt({axis, kAutoGrid, kAutoGrid}, {16, 16, 1}, sample, error) ? "" : error;
}

std::optional<CheckRun> PlanCheckRun(const cuda::KernelFile& file, const KernelCheckOptions& options, const std::array<int, 3>& block,
                                     const CheckSize& size, std::string& error) {
  const Binding binding = Bind(file.kernel, options.int_values);
  if (!binding.error.empty()) {
    error = binding.error;
    return std::nullopt;
  }
  if (binding.square && (size.m != size.n || size.n != size.k)) {
    error = "the kernel takes one size, so each --sizes must be square (N), not " + SizeText(size);
    return std::nullopt;
  }
  const std::optional<std::array<int, 3>> grid = GridAt(options.grid, block, size, error);
  if (!grid) return std::nullopt;
  CheckRun run;
  run.size = size;
  run.grid = *grid;
  for (const BoundArgument& argument : binding.arguments) run.arguments.push_back(argument.At(size));
  return run;
}

CheckInputs InputsFor(const CheckSize& size, std::uint64_t seed) {
  return {Seeded(size.m, size.k, seed * 2 + 1), Seeded(size.k, size.n, seed * 2 + 2)};
}

CheckPlan PlanCheck(const cuda::KernelFile& file, const KernelCheckOptions& options) {
  CheckPlan plan;
  const cuda::CompiledKernel& kernel = file.kernel;
  std::array<int, 3> block{};
  if (options.block) {
    block = *options.block;
  } else if (file.launch_block) {
    for (std::size_t d = 0; d < 3; ++d) block[d] = static_cast<int>(std::clamp<long long>((*file.launch_block)[d], 0, 1 << 16));
  } else {
    plan.error = "the file launches no block the check can compute: pass --block XxY";
    return plan;
  }
  const Binding binding = Bind(kernel, options.int_values);
  if (!binding.error.empty()) {
    plan.error = binding.error;
    return plan;
  }
  plan.block = block;
  const std::vector<CheckSize> sizes = options.sizes.empty() ? DefaultSizes(block, binding.square) : options.sizes;
  const auto shared = std::make_shared<const cuda::CompiledKernel>(kernel);
  for (const CheckSize& size : sizes) {
    std::optional<CheckRun> planned = PlanCheckRun(file, options, block, size, plan.error);
    if (!planned) return plan;
    CheckPlan::Run run;
    KernelLaunch& launch = run.launch;
    launch.kernel = shared;
    launch.block = block;
    launch.grid = planned->grid;
    launch.m = size.m;
    launch.n = size.n;
    launch.k = size.k;
    launch.scheduler = options.scheduler;
    launch.seed = options.seed;
    launch.arguments = planned->arguments;
    if (const std::optional<std::string> problem = ValidateLaunch(launch)) {
      plan.error = "at " + SizeText(size) + ": " + *problem;
      return plan;
    }
    CheckInputs inputs = InputsFor(size, options.seed);
    run.a = std::move(inputs.a);
    run.b = std::move(inputs.b);
    run.planned = std::move(*planned);
    plan.runs.push_back(std::move(run));
  }
  return plan;
}

}  // namespace sim
