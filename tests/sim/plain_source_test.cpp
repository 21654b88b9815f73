// The Kernel source panel's text: every variant of every lesson kernel as plain CUDA, a
// switched-off barrier or guard commented out on its own line, and the model's lines still
// on the statements they run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/model/kernel_source.h"
#include "sim/lesson/plain_source.h"

namespace {

using sim::KernelKind;
using sim::Op;
using sim::SyncKind;

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string Stripped(const std::string& line) { return line.substr(line.find_first_not_of(' ')); }

std::vector<sim::KernelConfig> Variants() {
  std::vector<sim::KernelConfig> variants;
  for (KernelKind kernel : {KernelKind::kTiled, KernelKind::kTiledRect, KernelKind::kNaive}) {
    for (SyncKind first : {SyncKind::kSyncthreads, SyncKind::kSyncwarp, SyncKind::kNone}) {
      for (SyncKind second : {SyncKind::kSyncthreads, SyncKind::kNone}) {
        for (bool guard : {true, false}) {
          for (sim::TileCount count : {sim::TileCount::kCeil, sim::TileCount::kFloor}) {
            for (sim::SharedLayout layout : {sim::SharedLayout::kRowMajor, sim::SharedLayout::kTransposed}) {
              sim::KernelConfig config;
              config.kernel = kernel;
              config.tile = 16;
              config.rect = {4, 2, 8};
              config.barrier1 = first;
              config.barrier2 = second;
              config.guard = guard;
              config.tile_count = count;
              config.bs_layout = kernel == KernelKind::kTiled ? layout : sim::SharedLayout::kRowMajor;
              variants.push_back(config);
            }
          }
        }
      }
    }
  }
  return variants;
}

std::string Describe(const sim::KernelConfig& c) {
  return std::string(sim::SourceFor(c.kernel).file_name) + " barriers " + sim::Name(c.barrier1) + "/" +
         sim::Name(c.barrier2) + (c.guard ? " guarded" : " unguarded") +
         (c.tile_count == sim::TileCount::kCeil ? " ceil" : " floor") +
         (c.bs_layout == sim::SharedLayout::kTransposed ? " transposed" : "");
}

TEST(PlainSource, NoTemplateNamesInAnyVariant) {
  for (const sim::KernelConfig& config : Variants()) {
    const sim::PlainSource plain = sim::PlainSourceFor(config);
    ASSERT_FALSE(plain.lines.empty()) << Describe(config);
    for (const std::string& line : plain.lines) {
      for (const char* name : {"template", "kFirstSync", "kSecondSync", "kGuarded", "kCeilTiles", "kBsTransposed",
                               "Sync<", "constexpr (", "SyncKind"}) {
        EXPECT_FALSE(Has(line, name)) << Describe(config) << ": " << line;
      }
    }
  }
}

TEST(PlainSource, ModelLinesLandOnTheirStatements) {
  for (const sim::KernelConfig& config : Variants()) {
    const sim::PlainSource plain = sim::PlainSourceFor(config);
    const auto line = [&](Op op) { return plain.Line(sim::LineOf(config.kernel, op)); };
    EXPECT_TRUE(Has(line(Op::kLoadA), "A[row * K + ")) << Describe(config);
    EXPECT_TRUE(Has(line(Op::kLoadB), "B[")) << Describe(config);
    EXPECT_TRUE(Has(line(Op::kFma), "fmaf(")) << Describe(config);
    EXPECT_TRUE(Has(line(Op::kStoreC), "C[row * N + col] = sum;")) << Describe(config);
    if (config.kernel == KernelKind::kNaive) continue;
    EXPECT_TRUE(Has(line(Op::kStoreAs), "As[ty][")) << Describe(config);
    const bool transposed = config.bs_layout == sim::SharedLayout::kTransposed;
    EXPECT_EQ(Has(line(Op::kFma), "Bs[tx][k]"), transposed) << Describe(config);
    EXPECT_EQ(Has(line(Op::kStoreBs), "Bs[tx][ty] = b;"), transposed) << Describe(config);
    for (const auto& [op, kind] : {std::pair<Op, SyncKind>{Op::kBarrier1, config.barrier1}, {Op::kBarrier2, config.barrier2}}) {
      const char* expected = kind == SyncKind::kSyncthreads ? "__syncthreads();"
                             : kind == SyncKind::kSyncwarp  ? "__syncwarp();"
                                                            : "// __syncthreads();";
      EXPECT_EQ(Stripped(line(op)), expected) << Describe(config);
    }
  }
}

TEST(PlainSource, GuardAndTileCountAsTheHandoutsWriteThem) {
  sim::KernelConfig config;
  config.tile = 16;
  const sim::PlainSource guarded = sim::PlainSourceFor(config);
  EXPECT_EQ(guarded.lines.front(), "constexpr int TILE = 16;");
  EXPECT_EQ(Stripped(guarded.Line(sim::LineOf(KernelKind::kTiled, Op::kLoadA))),
            "const float a = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;");
  EXPECT_EQ(Stripped(guarded.Line(sim::LineOf(KernelKind::kTiled, Op::kStoreC))),
            "if (row < M && col < N) C[row * N + col] = sum;");
  config.guard = false;
  config.tile_count = sim::TileCount::kFloor;
  const sim::PlainSource bare = sim::PlainSourceFor(config);
  EXPECT_EQ(Stripped(bare.Line(sim::LineOf(KernelKind::kTiled, Op::kLoadA))), "const float a = A[row * K + a_col];");
  EXPECT_EQ(Stripped(bare.Line(sim::LineOf(KernelKind::kTiled, Op::kStoreC))), "C[row * N + col] = sum;");
  bool floor_count = false;
  for (const std::string& line : bare.lines) floor_count = floor_count || Has(line, "num_tiles = K / TILE;");
  EXPECT_TRUE(floor_count);

  sim::KernelConfig naive;
  naive.kernel = KernelKind::kNaive;
  const std::vector<int> guard = sim::SourceFor(KernelKind::kNaive).guard_lines;
  ASSERT_EQ(guard.size(), 1u);
  EXPECT_EQ(Stripped(sim::PlainSourceFor(naive).Line(guard[0])), "if (row >= M || col >= N) return;");
  naive.guard = false;
  EXPECT_EQ(Stripped(sim::PlainSourceFor(naive).Line(guard[0])), "// if (row >= M || col >= N) return;");

  sim::KernelConfig rect;
  rect.kernel = KernelKind::kTiledRect;
  rect.rect = {4, 2, 8};
  EXPECT_EQ(sim::PlainSourceFor(rect).lines.front(), "constexpr int TM = 4, TN = 2, TK = 8;");
}

}  // namespace
