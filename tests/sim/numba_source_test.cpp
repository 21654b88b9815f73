// The tiling notebook's Python half beside 02_tiled.cu: every line the model can mark in the CUDA
// source has a Python twin, the twins run in the same order, and they say the same thing.
#include "sim/lesson/numba_source.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/model/kernel_source.h"

namespace {

std::string Line(std::string_view text, int line) {
  std::size_t start = 0;
  for (int i = 1; i < line; ++i) start = text.find('\n', start) + 1;
  return std::string(text.substr(start, text.find('\n', start) - start));
}

TEST(NumbaSource, EveryAnchorIsFound) {
  const sim::SourceTwins& twins = sim::TiledNumbaTwins();
  EXPECT_EQ(twins.error, "");
  EXPECT_EQ(twins.file_name, "02_tiled_numba.py");
  EXPECT_NE(twins.text.find("@cuda.jit"), std::string_view::npos);
}

TEST(NumbaSource, EveryRunMarkerLineHasATwin) {
  const sim::SourceTwins& twins = sim::TiledNumbaTwins();
  const sim::KernelSource& cuda = sim::SourceFor(sim::KernelKind::kTiled);
  for (int op = 0; op < sim::kOpCount; ++op) {
    const int line = cuda.op_lines[static_cast<std::size_t>(op)];
    if (line == 0) continue;
    EXPECT_FALSE(twins.PythonLinesOf(line).empty()) << "no Python twin for line " << line << ": " << Line(cuda.text, line);
  }
}

TEST(NumbaSource, TwinsRunInTheSameOrder) {
  const sim::SourceTwins& twins = sim::TiledNumbaTwins();
  int last = 0;
  for (std::size_t cuda_line = 1; cuda_line < twins.python_lines.size(); ++cuda_line) {
    for (int python_line : twins.python_lines[cuda_line]) {
      EXPECT_GT(python_line, last) << "CUDA line " << cuda_line;
      last = python_line;
    }
  }
}

// The statements the model runs read the same in both languages.
TEST(NumbaSource, TwinsSayTheSameThing) {
  const sim::SourceTwins& twins = sim::TiledNumbaTwins();
  const auto twin = [&](sim::Op op) {
    const int line = sim::LineOf(sim::KernelKind::kTiled, op);
    const std::vector<int>& lines = twins.PythonLinesOf(line);
    return lines.empty() ? std::string() : Line(twins.text, lines.back());
  };
  EXPECT_NE(twin(sim::Op::kStoreAs).find("As[ty, tx] = a"), std::string::npos);
  EXPECT_NE(twin(sim::Op::kFma).find("cuda.fma(As[ty, k], Bs[k, tx], total)"), std::string::npos);
  EXPECT_NE(twin(sim::Op::kBarrier1).find("cuda.syncthreads()"), std::string::npos);
  EXPECT_NE(twin(sim::Op::kBarrier2).find("cuda.syncthreads()"), std::string::npos);
  EXPECT_NE(twin(sim::Op::kStoreC).find("C[row, col] = total"), std::string::npos);
}

}  // namespace
