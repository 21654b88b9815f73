// kernel_files.h — a kernel's source file as the build embedded it from kernels/, the kernel
// a ladder rung builds on, and the lines of a rung's file that are new since that kernel's:
// what the live page's rung source view shows and marks.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_table.h"

namespace kernels {

struct KernelFile {
  std::string_view name;  // "12_all_async.cu"
  std::string_view text;
};

// The file a kernel row runs: 01_naive.cu, 02_tiled.cu, 03_tiled_rect.cu, or a rung's
// NN_<name>.cu; nothing for cuBLAS, whose source is not ours.
std::optional<KernelFile> FileOf(const KernelSpec& spec);

// What a rung is shown against: the rung before it in the table, and for the first rung the
// tiled kernel at TILE 32 (02_tiled.cu), whose shared-load bound 04's header starts from.
// Null for a row that is not a rung.
const KernelSpec* RungBefore(const KernelSpec& spec);

// A rung's file beside the one before it: changed[i] says line i (0-based) of `file` is not
// in the longest common subsequence of lines with `before` (ChangedLines).
struct RungSource {
  const KernelSpec* spec = nullptr;
  const KernelSpec* before = nullptr;
  KernelFile file;
  KernelFile before_file;
  std::vector<bool> changed;
  int changed_count = 0;
};

// Nothing for a row that is not a rung.
std::optional<RungSource> RungSourceOf(const KernelSpec& spec);

// "12 all_async — 40 lines changed from 11 register_tile": each file named as its number and stem.
std::string RungSourceHeader(const RungSource& source);

}  // namespace kernels
