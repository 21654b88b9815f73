#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kernels/registry.h"

namespace kernels {
namespace {

TEST(Registry, NamesAreUniqueAndFindable) {
  std::set<std::string> names;
  for (const KernelSpec* spec : AllKernels()) {
    EXPECT_TRUE(names.insert(spec->name).second) << spec->name;
    EXPECT_EQ(FindKernel(spec->name), spec);
    EXPECT_EQ(AllKernels()[KernelIndex(*spec)], spec);
  }
  EXPECT_EQ(names.size(), kKernelCount);
  EXPECT_EQ(FindKernel("tiled6"), nullptr);
}

TEST(Registry, DefaultSweepHoldsTheLectureKernels) {
  std::set<std::string> chosen;
  for (const KernelSpec* spec : DefaultKernels()) chosen.insert(spec->name);
  for (const char* name : {"naive", "tiled8", "tiled16", "tiled32", "rect32x16x16", "cublas_fp32", "cublas_tf32"}) {
    EXPECT_TRUE(chosen.count(name)) << name;
  }
  // Race variants and the unguarded kernel compute a wrong C by design: never in the sweep.
  EXPECT_FALSE(chosen.count("tiled16_nosync1"));
  EXPECT_FALSE(chosen.count("tiled16_unguarded"));
}

TEST(Registry, TF32IsLabelledAsLowerPrecision) {
  const KernelSpec* tf32 = FindKernel("cublas_tf32");
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->precision, Precision::kTf32);
  EXPECT_NE(std::string(tf32->label).find("lower precision"), std::string::npos);
}

TEST(Registry, SeedsRectangularTileHasItsParameters) {
  const KernelSpec* rect = FindKernel("rect32x16x16");
  ASSERT_NE(rect, nullptr);
  EXPECT_EQ(rect->family, KernelFamily::kTiledRect);
  EXPECT_EQ(rect->tile_m, 32);
  EXPECT_EQ(rect->tile_n, 16);
  EXPECT_EQ(rect->tile_k, 16);
}

TEST(Registry, LessonLookupFindsTheExactVariant) {
  KernelQuery query;
  query.tile_m = query.tile_n = query.tile_k = 16;
  query.first_barrier = Barrier::kNone;
  const KernelLookup found = FindCompiledKernel(query);
  ASSERT_NE(found.kernel, nullptr) << found.reason;
  EXPECT_STREQ(found.kernel->name, "tiled16_nosync1");

  query.first_barrier = Barrier::kSyncthreads;
  query.guarded = false;
  query.ceil_tiles = false;
  ASSERT_NE(FindCompiledKernel(query).kernel, nullptr);
  EXPECT_STREQ(FindCompiledKernel(query).kernel->name, "tiled16_unguarded");
}

TEST(Registry, LessonLookupRefusesATileWithNoKernelAndSaysWhy) {
  KernelQuery query;
  query.tile_m = query.tile_n = query.tile_k = 6;
  const KernelLookup none = FindCompiledKernel(query);
  EXPECT_EQ(none.kernel, nullptr);
  EXPECT_NE(none.reason.find("TILE 6"), std::string::npos) << none.reason;
  EXPECT_NE(none.reason.find("TILE 16"), std::string::npos) << none.reason;

  // TILE 2 exists, but not unguarded: no silent fallback to the guarded one.
  query.tile_m = query.tile_n = query.tile_k = 2;
  query.guarded = false;
  EXPECT_EQ(FindCompiledKernel(query).kernel, nullptr);
}

TEST(Registry, RaceSetsPairEachVariantWithItsBaseline) {
  const std::vector<int> tiles = RaceTiles();
  EXPECT_EQ(tiles, (std::vector<int>{2, 4, 8, 16, 32}));
  const RaceSet set = RaceSetForTile(16);
  ASSERT_NE(set.baseline, nullptr);
  EXPECT_STREQ(set.baseline->name, "tiled16");
  std::set<std::string> variants;
  for (const KernelSpec* spec : set.variants) variants.insert(spec->name);
  EXPECT_EQ(variants, (std::set<std::string>{"tiled16_nosync1", "tiled16_nosync2", "tiled16_nosync12",
                                             "tiled16_syncwarp"}));
  EXPECT_TRUE(RaceSetForTile(6).variants.empty());
}

TEST(Registry, PaddingCoversTheLargestTile) { EXPECT_EQ(kMaxTileEdge, 32); }

TEST(Registry, PhaseCountRoundsAsTheKernelDoes) {
  EXPECT_EQ(PhaseCount(*FindKernel("tiled16"), 1000), 63);
  EXPECT_EQ(PhaseCount(*FindKernel("tiled16_unguarded"), 1000), 62);
  EXPECT_EQ(PhaseCount(*FindKernel("naive"), 1000), 0);
}

}  // namespace
}  // namespace kernels
