// numba_source.h — the tiling notebook's Python half: the Numba transcription of 02_tiled.cu
// (kernels/python/02_tiled_numba.py, embedded at build time like the CUDA sources) and,
// for every line of the CUDA file, the Python lines that are its twin. The Kernel source
// panel shows them side by side with the same run markers.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sim {

struct SourceTwins {
  std::string_view file_name;  // "02_tiled_numba.py"
  std::string_view text;       // the file as it is in kernels/python/
  // Indexed by CUDA line (1-based; [0] unused): the 1-based Python lines of its twin, in order.
  std::vector<std::vector<int>> python_lines;
  std::string error;  // an anchor the files no longer hold: names it (tests fail on it)

  const std::vector<int>& PythonLinesOf(int cuda_line) const;
};

// The twins of 02_tiled.cu's lines.
const SourceTwins& TiledNumbaTwins();

}  // namespace sim
