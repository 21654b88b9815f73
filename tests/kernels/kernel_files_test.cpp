// The rung source view's data: the line diff on small texts whose answer is known, and the
// embedded kernel files — every rung has its own, shown against the rung before it.
#include "kernels/kernel_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "kernels/line_diff.h"
#include "kernels/registry.h"
#include "sim/model/kernel_source.h"

namespace kernels {
namespace {

std::vector<bool> Flags(std::initializer_list<int> bits) {
  std::vector<bool> flags;
  for (const int bit : bits) flags.push_back(bit != 0);
  return flags;
}

TEST(LineDiff, SplitsAtNewlinesAndAFinalNewlineStartsNoLine) {
  EXPECT_TRUE(SplitLines("").empty());
  EXPECT_EQ(SplitLines("a\nb\n"), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(SplitLines("a\n\nb"), (std::vector<std::string_view>{"a", "", "b"}));
}

TEST(LineDiff, MarksTheLinesAddedOrChanged) {
  EXPECT_EQ(ChangedLines("a\nb\nc\n", "a\nb\nc\n"), Flags({0, 0, 0}));
  EXPECT_EQ(ChangedLines("a\nc\n", "a\nb\nc\n"), Flags({0, 1, 0}));
  EXPECT_EQ(ChangedLines("a\nb\nc\n", "a\nB\nc\n"), Flags({0, 1, 0}));
  EXPECT_EQ(ChangedLines("a\nb\nc\n", "a\nc\n"), Flags({0, 0}));  // a removed line marks none
  EXPECT_EQ(ChangedLines("", "x\ny\n"), Flags({1, 1}));
  EXPECT_EQ(ChangedLines("x\ny\n", ""), Flags({}));
}

// The longest common subsequence, not a line-by-line comparison: a block moved past another
// keeps the longer run unchanged.
TEST(LineDiff, KeepsTheLongestCommonRun) {
  EXPECT_EQ(ChangedLines("p\nq\nr\ns\nt\n", "t\np\nq\nr\ns\n"), Flags({1, 0, 0, 0, 0}));
  EXPECT_EQ(ChangedLines("a\nx\nb\nc\n", "a\nb\nc\nx\n"), Flags({0, 0, 0, 1}));
}

TEST(KernelFiles, TheTeachingKernelsAreTheFilesTheModelShows) {
  EXPECT_EQ(FileOf(*FindKernel("naive"))->text, sim::SourceFor(sim::KernelKind::kNaive).text);
  EXPECT_EQ(FileOf(*FindKernel("tiled32"))->text, sim::SourceFor(sim::KernelKind::kTiled).text);
  EXPECT_EQ(FileOf(*FindKernel("rect32x16x16"))->text, sim::SourceFor(sim::KernelKind::kTiledRect).text);
  EXPECT_FALSE(FileOf(*FindKernel("cublas_fp32")).has_value());
  EXPECT_FALSE(RungSourceOf(*FindKernel("tiled32")).has_value());
}

TEST(KernelFiles, EveryRungHasItsSourceShownAgainstTheRungBefore) {
  const KernelSpec* previous = FindKernel("tiled32");
  int rungs = 0;
  for (const KernelSpec* spec : AllKernels()) {
    if (spec->family != KernelFamily::kLadder) continue;
    ++rungs;
    const auto source = RungSourceOf(*spec);
    ASSERT_TRUE(source.has_value()) << spec->name;
    // Its own file, named by the rung's number (its label's first word: 04 … 17, and 12b
    // between 12 and 13) and name, defining its kernel.
    const std::string label = spec->label;
    EXPECT_EQ(source->file.name, label.substr(0, label.find(' ')) + "_" + spec->name + ".cu");
    const std::size_t kernel = source->file.text.find("__global__");
    ASSERT_NE(kernel, std::string_view::npos) << spec->name;
    EXPECT_NE(source->file.text.find(std::string(spec->name) + "_", kernel), std::string_view::npos) << spec->name;
    EXPECT_EQ(source->before, previous) << spec->name;
    EXPECT_EQ(source->before_file.name, FileOf(*previous)->name);
    // Every line marked is one the diff marks, and each rung changes something but keeps something.
    const std::vector<bool> changed = ChangedLines(source->before_file.text, source->file.text);
    EXPECT_EQ(source->changed, changed) << spec->name;
    EXPECT_EQ(source->changed_count, std::count(changed.begin(), changed.end(), true)) << spec->name;
    EXPECT_EQ(source->changed.size(), SplitLines(source->file.text).size()) << spec->name;
    EXPECT_GT(source->changed_count, 0) << spec->name;
    EXPECT_LT(source->changed_count, static_cast<int>(source->changed.size())) << spec->name;
    previous = spec;
  }
  EXPECT_EQ(rungs, 15);
}

TEST(KernelFiles, ALetteredRungIsFoundAndNamedByItsWholeNumber) {
  const auto source = RungSourceOf(*FindKernel("stream_k"));
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(source->file.name, "12b_stream_k.cu");
  EXPECT_EQ(RungSourceHeader(*source),
            "12b stream_k \u2014 " + std::to_string(source->changed_count) + " lines changed from 12 all_async");
  EXPECT_EQ(RungSourceOf(*FindKernel("mma_tf32"))->before_file.name, "12b_stream_k.cu");
}

TEST(KernelFiles, TheHeaderNamesBothFilesAndTheCount) {
  const auto source = RungSourceOf(*FindKernel("blocktile_1d"));
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(RungSourceHeader(*source),
            "04 blocktile_1d \u2014 " + std::to_string(source->changed_count) + " lines changed from 02 tiled");
}

}  // namespace
}  // namespace kernels
