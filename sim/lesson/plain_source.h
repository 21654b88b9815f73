// plain_source.h — a lesson's kernel as the handouts write it: the file in kernels/ with its
// template switches resolved for the lesson's variant (tile sizes as constants, each barrier
// as __syncthreads() or __syncwarp(), a switched-off barrier or guard as a commented-out
// line, one branch of each layout or tile-count choice). Line for line with the file, so the
// model's lines (kernel_source.h) mark the same statements here.
#pragma once
#include <string>
#include <vector>

#include "sim/model/kernel_config.h"

namespace sim {

struct PlainSource {
  int first_line = 1;              // the file's line of lines[0]: the kernel's template line
  std::vector<std::string> lines;  // the kernel, from there to the file's end
  int last_line() const { return first_line + static_cast<int>(lines.size()) - 1; }
  // The shown text of a file line; empty outside the kernel.
  const std::string& Line(int file_line) const;
};

PlainSource PlainSourceFor(const KernelConfig& config);

}  // namespace sim
