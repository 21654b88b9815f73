// kernel_source.h — the CUDA source the app shows, embedded from kernels/ at build time,
// and the map from each model instruction to its 1-based line (the `// model: NAME`
// markers). One source of truth: the model's lines, the GPU kernel's lines and a race
// detector's file:line are the same lines.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/instruction.h"
#include "sim/model/kernel_config.h"

namespace sim {

struct KernelSource {
  std::string_view file_name;            // "02_tiled.cu"
  std::string_view text;                 // the file as it is in kernels/
  std::array<int, kOpCount> op_lines{};  // 1-based line of each instruction; 0 when absent
  std::vector<int> guard_lines;          // lines the bounds guard switches (kGuarded)
};

const KernelSource& SourceFor(KernelKind kernel);
// The line an instruction of this kernel runs at (0 for Op::kDone).
int LineOf(KernelKind kernel, Op op);
// kernels/sync.cuh, which the tiled kernels include for their barriers.
std::string_view SyncHeaderSource();
// The text with the `// model: NAME` comments removed (line numbers unchanged), for display.
std::string StripModelMarkers(std::string_view text);

}  // namespace sim
