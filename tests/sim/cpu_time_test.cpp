#include "sim/io/cpu_time.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace sim {
namespace {

// The clock the speed figures stand on counts this thread's work and not time spent waiting.
TEST(ThreadCpuSeconds, CountsWorkNotSleep) {
  const double before_sleep = ThreadCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double slept = ThreadCpuSeconds() - before_sleep;
  EXPECT_GE(slept, 0.0);
  EXPECT_LT(slept, 0.1);

  // Busy for 50 ms of wall time: on a loaded machine the thread gets part of it, never none.
  const double before_work = ThreadCpuSeconds();
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  volatile std::uint64_t spins = 0;
  while (std::chrono::steady_clock::now() < until) spins = spins + 1;
  EXPECT_GT(ThreadCpuSeconds() - before_work, 0.0);
}

}  // namespace
}  // namespace sim
