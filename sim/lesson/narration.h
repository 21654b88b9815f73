// narration.h — one plain sentence for what a step did, generated from its trace events
// and the snapshot after it (never written by hand per lesson), e.g.
//   "Thread (0,0) of block (0,1) stores A[2][0] = 9 into As[0][0]; 1 of 4 threads of this block have stored".
// Coordinates are CUDA's (x, y): threadIdx.x runs along N, threadIdx.y along M.
#pragma once
#include <string>
#include <vector>

#include "sim/model/snapshot.h"
#include "sim/model/trace.h"

namespace sim {

std::string Narrate(const TraceEvent& event, const Snapshot& snapshot);
// The whole step: one event's sentence, or a warp-instruction summarised in one sentence.
std::string NarrateStep(const std::vector<TraceEvent>& events, const Snapshot& snapshot);
// The step just run, a lesson's or a student's kernel's (NarrateKernelStep): what every view tells.
std::string NarrateLastStep(const Snapshot& snapshot);
// What the narration says before anything has run: how to run the first instruction, or, for
// a lesson shown without step back, `stepping_off` (SteppingOffReason) and where its whole run
// is shown instead.
std::string NarrateBeforeFirstStep(const std::string& stepping_off);
// "A[2][1]", "As[1][0]", "C[0][3]".
std::string PlaceName(const Place& place);
// A value as the lesson shows it: "10", "0.25", "?" for never-written shared memory, "NaN".
std::string FormatValue(float value);
// For a cell too narrow for FormatValue's six digits: three significant digits ("-0.793"),
// or FormatValue's text where that is no longer ("1060", not "1.06e+03").
std::string FormatValueShort(float value);

}  // namespace sim
