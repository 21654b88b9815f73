// kernel_flags.h — the flags that say how a student's kernel runs: which kernel of the file,
// --block, --grid, --sizes and --define, read once for `tilescope check` and for the window's
// --kernel FILE alike.
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/kernel_lesson.h"

namespace cli {

struct KernelFlags {
  std::string kernel_name;
  CLI::Option* kernel_name_option = nullptr;  // given (even as ""): an empty name is refused
  std::string block;
  std::string grid = "auto";
  std::vector<std::string> sizes;
  std::vector<std::string> defines;
  CLI::Option* block_option = nullptr;  // given (even as ""): the file's launch is not used
  CLI::Option* grid_option = nullptr;
  CLI::Option* define_option = nullptr;
};

// "64" (64x64x64) or "50x37x29"; nothing where the text is neither.
std::optional<sim::CheckSize> ParseCheckSize(const std::string& text);

// Adds the flag that names the kernel where the file has several: `check --kernel NAME`, the
// window's `--kernel-name NAME` (its --kernel is the file).
void AddKernelNameFlag(CLI::App& command, KernelFlags& flags, const std::string& flag, const std::string& help);
// Adds the four flags to `command`; `sizes_help` says what the sizes are for there.
void AddKernelFlags(CLI::App& command, KernelFlags& flags, const std::string& sizes_help);
// Adds --block, --grid and --define alone: for `bench --student FILE`, whose --sizes are the sweep's.
void AddKernelLaunchFlags(CLI::App& command, KernelFlags& flags);
// The first of the kernel-name, --block, --grid and --define flags given, as "--block"; "" for none.
std::string LaunchFlagGiven(const KernelFlags& flags);
// Whether any of them or --sizes was given: where they would be ignored, the command refuses them.
bool AnyKernelFlagGiven(const KernelFlags& flags);
// Reads them into `options`; the first problem, or "".
std::string ReadKernelFlags(const KernelFlags& flags, sim::KernelLessonOptions& options);

}  // namespace cli
