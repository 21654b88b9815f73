// kernel_narration.h — one plain sentence for a step of a student's kernel, made from what the
// model keeps of it (sim::KernelStepRecord: the lanes, the line, the first lane's access, the
// threads a barrier let go on) and the hazards it logged, e.g.
//   "Warp 1 of block (0,0), 32 lanes at line 17: thread (0,2) stores 5 into Bs[2][0], and the
//    other lanes likewise".
// A lesson's steps are told by NarrateStep from their trace events; a kernel's have none.
#pragma once
#include <string>

#include "sim/model/snapshot.h"

namespace sim {

// The sentence for the step just run, or "" when the snapshot is not a student's kernel.
std::string NarrateKernelStep(const Snapshot& snapshot);

}  // namespace sim
