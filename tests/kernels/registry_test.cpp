#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/occupancy.h"

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

// The ladder: rungs 04 to 16 (and 12b) in teaching order, GPU only, guarded, and out of the default
// sweep (the live panel's ladder view chooses them). 04 to 12 compute in FP32 on the CUDA
// cores; 13 in TF32 on the tensor cores, from sm_80 on; 14 and 15 in BF16 and 16 in TF32 on
// sm_90 alone; 15 to 17 with a producer warpgroup.
TEST(Registry, LadderRungsAreInTeachingOrderAndRecordTheirMath) {
  std::vector<const KernelSpec*> rungs;
  for (const KernelSpec* spec : AllKernels()) {
    if (spec->family == KernelFamily::kLadder) rungs.push_back(spec);
  }
  const std::vector<std::string> expected = {"blocktile_1d",    "blocktile_2d", "vectorized",   "conflict_free",
                                             "warptile",        "double_buffered", "async_copy", "register_tile",
                                             "all_async",       "stream_k",     "mma_tf32",     "wgmma_bf16",
                                             "warp_specialized", "wgmma_tf32", "staged_epilogue"};
  // A rung added between two numbered ones takes a letter: 12b.
  const std::vector<std::string> numbers = {"04", "05", "06", "07", "08", "09", "10",
                                            "11", "12", "12b", "13", "14", "15", "16", "17"};
  ASSERT_EQ(rungs.size(), expected.size());
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    const KernelSpec& rung = *rungs[i];
    SCOPED_TRACE(rung.name);
    EXPECT_EQ(rung.name, expected[i]);
    EXPECT_EQ(static_cast<int>(rung.rung), static_cast<int>(i) + 1) << "one LadderRung per row, in order";
    EXPECT_EQ(std::string(rung.label).substr(0, numbers[i].size() + 1), numbers[i] + " ");
    EXPECT_FALSE(HasModel(rung));
    EXPECT_FALSE(IsCublas(rung));
    EXPECT_TRUE(rung.guarded);
    EXPECT_FALSE(rung.in_default_sweep);
    const bool hopper_tf32 = rung.rung == LadderRung::kWgmmaTf32;
    const bool tf32 = rung.rung == LadderRung::kMmaTf32 || hopper_tf32;
    const bool staged = rung.rung == LadderRung::kStagedEpilogue;
    const bool bf16 = rung.rung == LadderRung::kWgmmaBf16 || rung.rung == LadderRung::kWarpSpecialized || staged;
    EXPECT_STREQ(MathName(rung), tf32   ? "TF32 tensor cores"
                                 : bf16 ? "BF16 tensor cores, FP32 accumulate"
                                        : "FP32 FFMA (CUDA cores)");
    EXPECT_EQ(rung.min_compute_capability, hopper_tf32 || bf16 ? 90 : tf32 ? 80 : 0);
    EXPECT_EQ(rung.only_that_architecture, hopper_tf32 || bf16);
    const bool producer = rung.rung == LadderRung::kWarpSpecialized || hopper_tf32 || staged;
    EXPECT_EQ(rung.producer_threads, producer ? 128 : 0);
    EXPECT_EQ(rung.tile_m % rung.thread_m, 0);
    EXPECT_EQ(rung.tile_n % rung.thread_n, 0);
    EXPECT_EQ(PhaseCount(rung, 1000), 0) << "no model phases";
  }
}

// TF32 mma.sync and cp.async need sm_80, and so does cuBLAS's BF16 GEMM: on a Turing GPU
// (7.5) the runner refuses those rows (module.cu says why). wgmma and TMA are sm_90a's: that
// code (rungs 14 to 17) runs on compute capability 9.0 alone, not on Ampere, Ada or a newer GPU. Every other
// row runs on every GPU the build targets.
TEST(Registry, TheTensorCoreRowsRunWhereTheirInstructionsExistAndTheOtherRowsEverywhere) {
  const KernelSpec& mma = *FindKernel("mma_tf32");
  const KernelSpec& cublas_bf16 = *FindKernel("cublas_bf16");
  for (const KernelSpec* sm80 : {&mma, &cublas_bf16}) {
    SCOPED_TRACE(sm80->name);
    EXPECT_FALSE(RunsOn(*sm80, 7, 5));
    EXPECT_TRUE(RunsOn(*sm80, 8, 0));
    EXPECT_TRUE(RunsOn(*sm80, 8, 6));
    EXPECT_TRUE(RunsOn(*sm80, 9, 0));
  }
  const KernelSpec& wgmma = *FindKernel("wgmma_bf16");
  const KernelSpec& specialized = *FindKernel("warp_specialized");
  const KernelSpec& wgmma_tf32 = *FindKernel("wgmma_tf32");
  const KernelSpec& staged = *FindKernel("staged_epilogue");
  for (const KernelSpec* sm90a : {&wgmma, &specialized, &wgmma_tf32, &staged}) {
    SCOPED_TRACE(sm90a->name);
    EXPECT_FALSE(RunsOn(*sm90a, 8, 0));
    EXPECT_FALSE(RunsOn(*sm90a, 8, 9));
    EXPECT_TRUE(RunsOn(*sm90a, 9, 0));
    EXPECT_FALSE(RunsOn(*sm90a, 10, 0));
  }
  for (const KernelSpec* spec : AllKernels()) {
    if (spec != &mma && spec != &cublas_bf16 && spec != &wgmma && spec != &specialized && spec != &wgmma_tf32 &&
        spec != &staged) {
      EXPECT_TRUE(RunsOn(*spec, 7, 5)) << spec->name;
    }
  }
}

// "% of cuBLAS" divides by cuBLAS of the row's own precision.
TEST(Registry, EachPrecisionHasItsCublasReference) {
  EXPECT_STREQ(ReferenceFor(Precision::kFp32).name, "cublas_fp32");
  EXPECT_STREQ(ReferenceFor(Precision::kTf32).name, "cublas_tf32");
  EXPECT_STREQ(ReferenceFor(Precision::kBf16).name, "cublas_bf16");
  for (const KernelSpec* spec : AllKernels()) {
    if (IsCublas(*spec)) {
      EXPECT_EQ(&ReferenceFor(spec->precision), spec) << spec->name;
    }
  }
  EXPECT_EQ(ReferenceLabel("cublas_bf16"), "cuBLAS BF16");
  EXPECT_EQ(ReferenceLabel("cublas_tf32"), "cuBLAS TF32");
  EXPECT_EQ(ReferenceLabel("cublas_fp32"), "cuBLAS FP32");
}

TEST(Registry, LadderParametersAreDescribed) {
  const KernelSpec& warptile = *FindKernel("warptile");
  EXPECT_EQ(ThreadsPerBlock(warptile), 256);
  EXPECT_EQ(DescribeParameters(warptile),
            "block tile 128×128×8 · 8×8 per thread · warp tile 32×64 · 256 threads · guarded");
  EXPECT_EQ(DescribeParameters(*FindKernel("blocktile_1d")),
            "block tile 64×64×8 · 8×1 per thread · 512 threads · guarded");
  EXPECT_EQ(DescribeParameters(*FindKernel("mma_tf32")),
            "block tile 256×128×32 · 8×16 per thread · warp tile 64×64 · 256 threads · guarded");
}

TEST(Registry, MathIsTf32OrBf16OnlyForTheTensorCoreRows) {
  for (const KernelSpec* spec : AllKernels()) {
    const std::string name = spec->name;
    const bool tf32 = name == "cublas_tf32" || name == "mma_tf32" || name == "wgmma_tf32";
    const bool bf16 =
        name == "cublas_bf16" || name == "wgmma_bf16" || name == "warp_specialized" || name == "staged_epilogue";
    EXPECT_STREQ(MathName(*spec), tf32   ? "TF32 tensor cores"
                                  : bf16 ? "BF16 tensor cores, FP32 accumulate"
                                         : "FP32 FFMA (CUDA cores)")
        << name;
  }
}

TEST(Registry, TeachingKernelsHaveOneThreadPerElementAndAModel) {
  for (const char* name : {"naive", "tiled16", "rect32x16x16"}) {
    const KernelSpec& spec = *FindKernel(name);
    EXPECT_EQ(ThreadsPerBlock(spec), spec.tile_m * spec.tile_n) << name;
    EXPECT_TRUE(HasModel(spec)) << name;
  }
}

TEST(Registry, TF32IsLabelledAsLowerPrecision) {
  const KernelSpec* tf32 = FindKernel("cublas_tf32");
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->precision, Precision::kTf32);
  EXPECT_NE(std::string(tf32->label).find("lower precision"), std::string::npos);
}

TEST(Registry, NotebooksRectangularTileHasItsParameters) {
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
  query.first_barrier = sim::SyncKind::kNone;
  const KernelLookup found = FindCompiledKernel(query);
  ASSERT_NE(found.kernel, nullptr) << found.reason;
  EXPECT_STREQ(found.kernel->name, "tiled16_nosync1");

  query.first_barrier = sim::SyncKind::kSyncthreads;
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

namespace kernels {
namespace {

// The occupancy view names a lesson's compiled kernel by sim::CompiledKernelName; it must be
// the table's name of the both-barriers, guarded row of that tile.
TEST(Registry, OccupancyNamesEachTeachingKernelAsTheTableDoes) {
  int named = 0;
  for (const KernelSpec* spec : AllKernels()) {
    const bool plain = spec->guarded && spec->ceil_tiles && !spec->bs_transposed &&
                       spec->first_barrier == sim::SyncKind::kSyncthreads && spec->second_barrier == sim::SyncKind::kSyncthreads;
    if (!HasModel(*spec) || !plain) continue;
    const std::optional<sim::LessonConfig> lesson = ModelLessonFor(*spec, Shape::Square(64));
    ASSERT_TRUE(lesson.has_value()) << spec->name;
    EXPECT_EQ(sim::CompiledKernelName(sim::KernelChoice::Of(*lesson)), spec->name);
    ++named;
  }
  EXPECT_GE(named, 7);  // naive, tiled 2, 4, 8, 16, 32, rect
}

// Lesson 6's transposed-Bs rows: found by the lesson's layout, replayed with it, and kept
// out of the race sets (both barriers are on: they are no race variant).
TEST(Registry, BankConflictRowsAreTheTransposedLayout) {
  KernelQuery query;
  query.tile_m = query.tile_n = query.tile_k = 16;
  query.bs_transposed = true;
  const KernelLookup found = FindCompiledKernel(query);
  ASSERT_NE(found.kernel, nullptr) << found.reason;
  EXPECT_STREQ(found.kernel->name, "tiled16_bank_conflict");
  EXPECT_NE(DescribeParameters(*found.kernel).find("Bs transposed"), std::string::npos);
  const std::optional<sim::LessonConfig> lesson = ModelLessonFor(*found.kernel, Shape::Square(32));
  ASSERT_TRUE(lesson.has_value());
  EXPECT_EQ(lesson->bs_layout, sim::SharedLayout::kTransposed);
  EXPECT_STREQ(RaceSetForTile(16).baseline->name, "tiled16");
  query.tile_m = query.tile_n = query.tile_k = 4;
  EXPECT_EQ(FindCompiledKernel(query).kernel, nullptr);
}

}  // namespace
}  // namespace kernels
