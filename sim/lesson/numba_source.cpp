#include "sim/lesson/numba_source.h"

#include "sim/model/kernel_source.h"
#include "sim/model/kernel_source_data.h"

namespace sim {
namespace {

// The one list of twins: a piece of a line of 02_tiled.cu and a piece of its twin in the
// Python file. Both files are searched forwards from the previous row's lines, so a piece
// need only be unique from there on (the two cuda.syncthreads() of the Python); a CUDA
// piece repeated on consecutive rows gives that line several Python lines.
struct Twin {
  std::string_view cuda;
  std::string_view python;
};
constexpr Twin kTwins[] = {
    {"template <int TILE", "TILE = 16"},
    {"__global__ void tiled_matmul(", "@cuda.jit"},
    {"__global__ void tiled_matmul(", "def tiled_matmul("},
    {"__shared__ float As[", "As = cuda.shared.array("},
    {"__shared__ float Bs[", "Bs = cuda.shared.array("},
    {"const int tx = threadIdx.x;", "tx = cuda.threadIdx.x"},
    {"const int ty = threadIdx.y;", "ty = cuda.threadIdx.y"},
    {"const int row = blockIdx.y", "row = cuda.blockIdx.y"},
    {"const int col = blockIdx.x", "col = cuda.blockIdx.x"},
    {"float sum = 0.0f;", "total = float32(0.0)"},
    {"const int num_tiles", "num_tiles = ("},
    {"for (int t = 0;", "for t in range(num_tiles):"},
    {"const int a_col", "a_col = t * TILE + tx"},
    {"const int b_row", "b_row = t * TILE + ty"},
    {"// Zero padding past the edges", "# Zero padding past the edges"},
    {"// model: load_a", "a = A[row, a_col]"},
    {"// model: store_as", "As[ty, tx] = a"},
    {"// model: load_b", "b = B[b_row, col]"},
    {"// model: store_bs", "Bs[ty, tx] = b"},
    {"// 1st barrier:", "# 1st barrier:"},
    {"// model: barrier1", "cuda.syncthreads()"},
    {"for (int k = 0;", "for k in range(TILE):"},
    {"// model: fma", "total = cuda.fma("},
    {"// 2nd barrier:", "# 2nd barrier:"},
    {"// model: barrier2", "cuda.syncthreads()"},
    {"// model: store_c", "if row < M and col < N:"},
    {"// model: store_c", "C[row, col] = total"},
};

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The 1-based line at or after `from` holding `piece`; 0 when none.
int Find(const std::vector<std::string_view>& lines, std::string_view piece, int from) {
  for (int line = from; line <= static_cast<int>(lines.size()); ++line) {
    if (lines[static_cast<std::size_t>(line - 1)].find(piece) != std::string_view::npos) return line;
  }
  return 0;
}

SourceTwins Build() {
  SourceTwins twins;
  twins.file_name = "02_tiled_numba.py";
  twins.text = embedded::kTiledNumbaSource;
  const std::vector<std::string_view> cuda = Lines(SourceFor(KernelKind::kTiled).text);
  const std::vector<std::string_view> python = Lines(twins.text);
  twins.python_lines.assign(cuda.size() + 1, {});
  int cuda_line = 0;
  int python_line = 0;
  std::string_view last_cuda;
  for (const Twin& twin : kTwins) {
    if (twin.cuda != last_cuda) cuda_line = Find(cuda, twin.cuda, cuda_line + 1);
    python_line = Find(python, twin.python, python_line + 1);
    if (cuda_line == 0 || python_line == 0) {
      twins.error = "no line holding \"" + std::string(cuda_line == 0 ? twin.cuda : twin.python) + "\" in " +
                    (cuda_line == 0 ? "02_tiled.cu" : "02_tiled_numba.py") + " where the twins expect it";
      twins.python_lines.assign(cuda.size() + 1, {});
      return twins;
    }
    twins.python_lines[static_cast<std::size_t>(cuda_line)].push_back(python_line);
    last_cuda = twin.cuda;
  }
  return twins;
}

}  // namespace

const std::vector<int>& SourceTwins::PythonLinesOf(int cuda_line) const {
  static const std::vector<int> kNone;
  if (cuda_line <= 0 || cuda_line >= static_cast<int>(python_lines.size())) return kNone;
  return python_lines[static_cast<std::size_t>(cuda_line)];
}

const SourceTwins& TiledNumbaTwins() {
  static const SourceTwins twins = Build();
  return twins;
}

}  // namespace sim
