// trace_summary.h — a finished run's figures as one JSON object, what `tilescope trace --json`
// prints and the GUI's trace export writes: every count as the model counted it (the tests
// compare them with the closed forms).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/lesson/lesson_config.h"
#include "sim/model/reference.h"
#include "sim/model/simulation.h"

namespace sim {

// `simulation` has run to the end; `naive_global_reads` was counted on the naive kernel
// (this run, or one on the same sizes and inputs).
nlohmann::json TraceSummaryJson(const sim::LessonConfig& config, const sim::Simulation& simulation,
                                const sim::RunOutcome& outcome,
                                std::uint64_t naive_global_reads);

}  // namespace sim
