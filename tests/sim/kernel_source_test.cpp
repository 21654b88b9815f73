// The embedded kernel text is the file in kernels/, and every model instruction has its
// marker line there.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sim/model/kernel_source.h"

namespace {

using sim::KernelKind;
using sim::Op;

std::string Line(std::string_view text, int number) {
  std::size_t start = 0;
  for (int i = 1; i < number; ++i) start = text.find('\n', start) + 1;
  return std::string(text.substr(start, text.find('\n', start) - start));
}

TEST(KernelSource, TiledKernelsHaveEveryMarker) {
  for (KernelKind kernel : {KernelKind::kTiled, KernelKind::kTiledRect}) {
    const sim::KernelSource& source = sim::SourceFor(kernel);
    for (int op = 0; op < sim::kOpCount; ++op) {
      const int line = source.op_lines[static_cast<std::size_t>(op)];
      ASSERT_GT(line, 0) << source.file_name << " " << sim::kMarkerNames[static_cast<std::size_t>(op)];
      EXPECT_NE(Line(source.text, line).find(std::string("// model: ") + sim::kMarkerNames[static_cast<std::size_t>(op)]),
                std::string::npos);
    }
    EXPECT_EQ(source.guard_lines.size(), 3u);
  }
  EXPECT_NE(Line(sim::SourceFor(KernelKind::kTiled).text, sim::LineOf(KernelKind::kTiled, Op::kBarrier1)).find("Sync<kFirstSync>"),
            std::string::npos);
}

TEST(KernelSource, NaiveKernelMarkers) {
  for (Op op : {Op::kLoadA, Op::kLoadB, Op::kFma, Op::kStoreC}) EXPECT_GT(sim::LineOf(KernelKind::kNaive, op), 0);
  EXPECT_EQ(sim::LineOf(KernelKind::kNaive, Op::kStoreAs), 0);
  ASSERT_EQ(sim::SourceFor(KernelKind::kNaive).guard_lines.size(), 1u);
}

TEST(KernelSource, StrippingMarkersKeepsLines) {
  const std::string_view text = sim::SourceFor(KernelKind::kTiled).text;
  const std::string stripped = sim::StripModelMarkers(text);
  EXPECT_EQ(stripped.find("// model: "), std::string::npos);
  EXPECT_EQ(std::count(stripped.begin(), stripped.end(), '\n'), std::count(text.begin(), text.end(), '\n'));
  EXPECT_EQ(Line(stripped, sim::LineOf(KernelKind::kTiled, Op::kStoreAs)), "    As[ty][tx] = a;");
  EXPECT_NE(sim::SyncHeaderSource().find("__syncwarp"), std::string_view::npos);
}

}  // namespace
