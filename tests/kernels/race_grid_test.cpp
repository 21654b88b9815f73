// The race grid as `bench --race` prints it, read back for the calibration check: rows,
// trials and the fill seed; a bad file names the line and the problem.
#include "kernels/race_grid.h"

#include <gtest/gtest.h>

#include <sstream>

#include "kernels/registry.h"

namespace {

constexpr const char* kHeader =
    "# H100 race grid\n"
    "device: NVIDIA H100\n"
    "race run: elements of C not bit-identical to the both-barriers kernel, 2 trials, seed 7\n"
    "kernel             label                      size       differing per trial                mean % of C\n";

TEST(RaceGrid, ReadsRowsTrialsAndSeed) {
  std::istringstream in(std::string(kHeader) +
                        "tiled16_nosync1    tiled 16, no 1st barrier   32x32x64   576 768                            65.62%\n"
                        "tiled8_nosync2     tiled 8, no 2nd barrier    64         0 0                                0.00%\n");
  kernels::RaceGrid grid;
  ASSERT_EQ(kernels::ParseRaceGrid(in, grid), std::nullopt);
  EXPECT_EQ(grid.fill_seed, 7u);
  ASSERT_EQ(grid.cells.size(), 2u);
  EXPECT_STREQ(grid.cells[0].kernel->name, "tiled16_nosync1");
  EXPECT_EQ(grid.cells[0].shape, (kernels::Shape{32, 32, 64}));
  EXPECT_EQ(grid.cells[0].differing_per_trial, (std::vector<std::int64_t>{576, 768}));
  EXPECT_EQ(grid.cells[1].shape, kernels::Shape::Square(64));
  // The band: the trials' range as a share of C, widened by the slack, within 0..100.
  const kernels::PercentRange band = kernels::CalibrationBand(grid.cells[0]);
  EXPECT_DOUBLE_EQ(band.low, 100.0 * 576 / 1024 - kernels::kCalibrationSlackPercent);
  EXPECT_DOUBLE_EQ(band.high, 100.0 * 768 / 1024 + kernels::kCalibrationSlackPercent);
  EXPECT_DOUBLE_EQ(kernels::CalibrationBand(grid.cells[1]).low, 0.0);
}

TEST(RaceGrid, BadLinesAreNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"tiled99_nosync1    tiled 99, no 1st barrier   64   1 2   1.00%\n", "line 5: no kernel named 'tiled99_nosync1'"},
      {"tiled8_nosync1     tiled 8, no 1st barrier    64   1 x   1.00%\n", "line 5: 'x' is not a count"},
      {"tiled8_nosync1     tiled 8, no 1st barrier    32   2000  1.00%\n", "line 5: 2000 differing elements: more than C"},
      {"tiled8_nosync1     tiled 8, no 1st barrier    64   1.00%\n", "line 5: no trials"},
  };
  for (const auto& [row, message] : cases) {
    std::istringstream in(std::string(kHeader) + row);
    kernels::RaceGrid grid;
    const auto error = kernels::ParseRaceGrid(in, grid);
    ASSERT_TRUE(error.has_value()) << row;
    EXPECT_NE(error->find(message), std::string::npos) << *error;
  }
  std::istringstream no_header("tiled8_nosync1     tiled 8, no 1st barrier    64   1 2   1.00%\n");
  kernels::RaceGrid grid;
  EXPECT_NE(kernels::ParseRaceGrid(no_header, grid).value_or("").find("no 'race run:' header"), std::string::npos);
}

// race_calibration --cells: the cells to run by name, each KERNEL@SIZE as the grid's rows
// name them; a malformed entry is refused naming it.
TEST(RaceGrid, CellsAreNamedByKernelAndSize) {
  std::vector<kernels::RaceCellName> names;
  ASSERT_EQ(kernels::ParseRaceCellNames("tiled8_nosync12@256,tiled16_syncwarp@32x32x64", names), std::nullopt);
  ASSERT_EQ(names.size(), 2u);
  kernels::RaceGridCell cell;
  cell.kernel = kernels::FindKernel("tiled16_syncwarp");
  cell.shape = {32, 32, 64};
  EXPECT_TRUE(kernels::Names(names[1], cell));
  EXPECT_FALSE(kernels::Names(names[0], cell));
  cell.shape = kernels::Shape::Square(64);
  EXPECT_FALSE(kernels::Names(names[1], cell));
  const std::pair<const char*, const char*> bad[] = {
      {"tiled8_nosync12", "'tiled8_nosync12' is not KERNEL@SIZE"},
      {"tiled99@64", "no kernel named 'tiled99'"},
      {"tiled8_nosync1@64x3", "cell 'tiled8_nosync1@64x3': size"},
      {"tiled8_nosync1@64:256", "cell 'tiled8_nosync1@64:256': '64:256' is 3 sizes, not one"},
      {"", "no cells named"},
  };
  for (const auto& [text, message] : bad) {
    const auto error = kernels::ParseRaceCellNames(text, names);
    ASSERT_TRUE(error.has_value()) << text;
    EXPECT_NE(error->find(message), std::string::npos) << *error;
  }
}

// A committed model grid read back: each row's model counts per seed, for fit and held-out
// cells alike; a row that recorded an error has no figures and is left out.
TEST(RaceGrid, ModelGridRowsAreReadBack) {
  std::istringstream in(
      "# Model race grid beside the H100's\n"
      "model: realistic scheduler, seeds 1-6, A and B from the runner's fill seed 1; GPU: grid.txt\n"
      "band: the GPU's min..max over its trials, widened by 10 percentage points; fit cells: 32x32x64 and 64\n"
      "kernel             size       cells    GPU differing per trial   GPU % min-max   model differing per seed  "
      "model %  band %        verdict\n"
      "tiled8_nosync1     32x32x64   fit      544 448                   43.8-53.1       576 416                   "
      "48.4     33.8-63.1     within\n"
      "tiled8_nosync1     256        held out 60192 60032               91.6-91.8       65536 65535               "
      "100.0    81.6-100.0    within\n"
      "tiled8_nosync12    256        error: no model figures\n"
      "3 cells: 2 within the band, 0 known gaps (the race lab says why), 0 outside unflagged, 0 flagged yet within, "
      "1 could not run\n");
  std::vector<kernels::RecordedModelCell> cells;
  ASSERT_EQ(kernels::ParseModelGrid(in, cells), std::nullopt);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_STREQ(cells[0].kernel->name, "tiled8_nosync1");
  EXPECT_EQ(cells[0].shape, (kernels::Shape{32, 32, 64}));
  EXPECT_EQ(cells[0].differing_per_seed, (std::vector<std::int64_t>{576, 416}));
  EXPECT_EQ(cells[1].shape, kernels::Shape::Square(256));
  EXPECT_EQ(cells[1].differing_per_seed, (std::vector<std::int64_t>{65536, 65535}));

  std::istringstream bad("tiled8_nosync1     64         fit      1 2       1.6-3.2    7 x     5.0    0.0-13.2  within\n");
  const auto error = kernels::ParseModelGrid(bad, cells);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("line 1: 'x' is not a count"), std::string::npos) << *error;
}

}  // namespace
