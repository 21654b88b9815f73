// kernel_check_plan.h — the runs the grader makes of a student's kernel: the sizes, each
// size's grid and launch, the kernel's parameters bound to A, B, C and the sizes, and the seeded
// A and B every run (model and GPU alike) multiplies.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/model/kernel_config.h"
#include "sim/model/kernel_launch.h"

namespace sim {

struct CheckSize {
  int m = 0, n = 0, k = 0;
};

// "16x16", "256" or "8x8x2": one to three positive integers (each at most 65536) split by
// `separator`; the missing ones are 1. Nothing where the text is not that.
std::optional<std::array<int, 3>> ParseExtents(const std::string& text, char separator);

// A --grid axis: "auto" (enough blocks to cover C: x along N, y along M; z: 1), or an
// integer expression in M, N, K and blockDim.x/y/z, such as `(N+15)/16`.
constexpr const char* kAutoGrid = "auto";
// Why `axis` is not an axis the check can compute (its expression tried at one size), or "".
std::string GridAxisProblem(const std::string& axis);

struct KernelCheckOptions {
  std::vector<CheckSize> sizes;                  // empty: a multiple of the block and a non-multiple
  std::optional<std::array<int, 3>> block;       // else the file's launch
  std::array<std::string, 3> grid{kAutoGrid, kAutoGrid, kAutoGrid};
  std::map<std::string, long long> int_values;   // --define NAME=VALUE for int parameters that are not sizes
  SchedulerKind scheduler = SchedulerKind::kRealistic;
  std::uint64_t seed = 1;
};

struct CheckRun {
  CheckSize size;
  // The launch, as a GPU repeats it: blocks, and per kernel parameter a matrix (0 A, 1 B,
  // 2 C) for a pointer, else the int's value.
  std::array<int, 3> grid{};
  std::vector<std::int32_t> arguments;
  std::vector<float> c;  // the model's C (M×N)
  std::uint64_t global_reads = 0;   // elements of A and B read from global memory
  std::uint64_t shared_writes = 0;
  std::uint64_t elements = 0;
  std::uint64_t wrong_elements = 0;
  struct Wrong {
    int row = 0, col = 0;
    float got = 0.0f, expected = 0.0f;
  };
  std::optional<Wrong> first_wrong;
};

// "50x37x29".
std::string SizeText(const CheckSize& size);

// The runs the check makes: each size's launch and its seeded A and B, or why it cannot run.
// The window runs a student's kernel as the first of them, so it shows what the check judges.
struct CheckPlan {
  struct Run {
    CheckRun planned;  // its size, grid and arguments, before it runs
    KernelLaunch launch;
    std::vector<float> a, b;
  };
  std::array<int, 3> block{};
  std::vector<Run> runs;
  std::string error;
};
CheckPlan PlanCheck(const cuda::KernelFile& file, const KernelCheckOptions& options);

// The launch the check makes at `size` with `block` (a CheckRun's size, grid and arguments;
// no C): for a GPU to repeat at a size the model did not run. The problem in `error`.
std::optional<CheckRun> PlanCheckRun(const cuda::KernelFile& file, const KernelCheckOptions& options, const std::array<int, 3>& block,
                                     const CheckSize& size, std::string& error);

// A (M×K) and B (K×N) of a check at `size`: seeded small integers, so every product and
// every sum of an inner product is exact in float and a wrong element is a wrong kernel,
// never rounding. The same for the model and for a GPU.
struct CheckInputs {
  std::vector<float> a, b;
};
CheckInputs InputsFor(const CheckSize& size, std::uint64_t seed);

}  // namespace sim
