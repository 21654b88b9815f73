// cpu_time.h — the calling thread's CPU time, for figures that must hold on a shared machine:
// wall time grows with whatever else runs on the cores, a thread's CPU time much less
// (sim_bench's speed figures, the GUI's --bench-frames).
#pragma once
#include <ctime>

namespace sim {

inline double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace sim
