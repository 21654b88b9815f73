// teaching.h — the sentences about the model that more than one view says: the GUI's panels,
// `tilescope trace` and the tests read them from here, so each is worded once.
#pragma once
#include <cstdint>
#include <string>

#include "sim/model/geometry.h"
#include "sim/model/kernel_config.h"

namespace sim {

// "1 hazard", "3 hazards": a count with its noun in the right number.
std::string CountOf(std::uint64_t count, const char* one, const char* many);

// What a one-warp block's missing barrier does under `scheduler`: the realistic one, like
// today's GPUs, runs a warp's lanes in lockstep, which hides the race; the others run the
// lanes apart, as nothing in CUDA forbids, so there the race can bite.
const char* OneWarpRaceNote(SchedulerKind scheduler);

// The steps a lesson can be opened or jumped at, in words: the run's length is known only once
// it has run, and a later step stops at its end (--step, jump-to).
inline constexpr const char* kStepRangeWords = "0 (the start) to the run's last step";
// "one warp of 4 live lanes (28 idle)" or "8 warps".
std::string WarpsOfBlock(const Geometry& geometry);
// One line per scheduler ("realistic: warps in lockstep, oldest ready warp first"), and the
// fuller sentence the race lab shows.
const char* SchedulerSummary(SchedulerKind scheduler);
const char* SchedulerSentence(SchedulerKind scheduler);
// Which race case a lesson is in, in one line (true of the lesson's scheduler), and the
// plain statement of why.
std::string RaceCaseHeadline(const KernelConfig& lesson, const Geometry& geometry);
std::string RaceCaseStatement(const KernelConfig& lesson, const Geometry& geometry);

// The largest C (M·N, and K) the realistic scheduler's calibration covers: the race grid's
// lesson sizes, 32×32×64 to 256³. Larger grids (1024²) were measured as context only.
constexpr std::int64_t kCalibratedMaxElements = std::int64_t{256} * 256;
constexpr int kCalibratedMaxK = 256;

// Beside the realistic scheduler's race count for `lesson` (its kernel, tile, size and
// barriers): why that count may not be the H100's, in one sentence, or "" where the
// scheduler's calibration against the H100 race grid covers it (sim/model/scheduler.h). The
// calibration check (kernels.race_calibration) holds the grid's cells to this both ways.
std::string RealisticCalibrationCaveat(const KernelConfig& lesson);

}  // namespace sim
