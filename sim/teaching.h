// teaching.h — the sentences about the model that more than one view says: the GUI's panels,
// `tilescope trace` and the tests read them from here, so each is worded once.
#pragma once
#include <cstdint>
#include <string>

#include "sim/geometry.h"
#include "sim/lesson_config.h"

namespace sim {

// "1 hazard", "3 hazards": a count with its noun in the right number.
std::string CountOf(std::uint64_t count, const char* one, const char* many);

// Why a one-warp block's missing barrier leaves C right on today's GPUs.
const char* OneWarpHidesTheRace();
// "one warp of 4 live lanes (28 idle)" or "8 warps".
std::string WarpsOfBlock(const Geometry& geometry);
// One line per scheduler ("realistic: warps in lockstep, oldest ready warp first"), and the
// fuller sentence the race lab shows.
const char* SchedulerSummary(SchedulerKind scheduler);
const char* SchedulerSentence(SchedulerKind scheduler);
// Which race case a lesson is in, in one line, and the plain statement of why.
std::string RaceCaseHeadline(const Geometry& geometry);
std::string RaceCaseStatement(const LessonConfig& lesson, const Geometry& geometry);

}  // namespace sim
