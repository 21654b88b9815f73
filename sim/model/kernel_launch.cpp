#include "sim/model/kernel_launch.h"

#include <algorithm>

#include "sim/model/warp.h"

namespace sim {
namespace {

constexpr std::int64_t kMaxKernelThreads = std::int64_t{1} << 22;
constexpr std::int64_t kMaxRegisterBytes = std::int64_t{1} << 30;
// The SM's limits for the realistic scheduler's blocks per SM (an H100's; registers not modelled).
constexpr int kWarpsPerSm = 64;
constexpr int kBlocksPerSm = 32;
constexpr int kSharedBytesPerSm = 228 * 1024;
constexpr int kSharedBytesReservedPerBlock = 1024;

}  // namespace

std::optional<std::string> ValidateLaunch(const KernelLaunch& launch) {
  if (launch.kernel == nullptr) return "no kernel";
  long long threads_per_block = 1;
  long long blocks = 1;
  for (int d = 0; d < 3; ++d) {
    if (launch.block[static_cast<std::size_t>(d)] < 1 || launch.grid[static_cast<std::size_t>(d)] < 1) {
      return "the block and the grid need at least 1 along each axis";
    }
    threads_per_block *= launch.block[static_cast<std::size_t>(d)];
    blocks *= launch.grid[static_cast<std::size_t>(d)];
  }
  if (threads_per_block > kMaxThreadsPerBlock) return "a block of " + std::to_string(threads_per_block) + " threads is more than 1024";
  if (launch.block[2] > 64) return "a block is at most 64 threads along z";
  if (blocks > kMaxKernelThreads || threads_per_block * blocks > kMaxKernelThreads) {
    return "the launch has " + std::to_string(threads_per_block * blocks) + " threads, more than the model runs (" +
           std::to_string(kMaxKernelThreads) + ")";
  }
  if (threads_per_block * blocks * launch.kernel->RegisterCount() * 4 > kMaxRegisterBytes) return "the threads' registers would take more than 1 GiB";
  if (launch.m < 1 || launch.n < 1 || launch.k < 1 || launch.m > kMaxDimension || launch.n > kMaxDimension || launch.k > kMaxDimension) {
    return "the sizes must be 1 to " + std::to_string(kMaxDimension);
  }
  if (launch.arguments.size() != launch.kernel->parameters.size()) return "an argument for each parameter";
  if (launch.instruction_budget < 1) return "the instruction budget must be at least 1";
  return std::nullopt;
}

Geometry GeometryOf(const KernelLaunch& launch) {
  Geometry g;
  g.m = launch.m;
  g.n = launch.n;
  g.k = launch.k;
  g.tn = launch.block[0];
  g.tm = launch.block[1] * launch.block[2];
  g.grid_x = launch.grid[0];
  g.grid_y = launch.grid[1] * launch.grid[2];
  g.blocks = g.grid_x * g.grid_y;
  g.block_threads = g.tn * g.tm;
  g.warps_per_block = (g.block_threads + kWarpSize - 1) / kWarpSize;
  g.phases = 1;
  return g;
}

int KernelBlocksPerSm(const Geometry& g, int shared_words) {
  const int shared_bytes = shared_words * 4;
  const int by_shared = shared_bytes == 0 ? kBlocksPerSm : kSharedBytesPerSm / (shared_bytes + kSharedBytesReservedPerBlock);
  return std::max(1, std::min({kBlocksPerSm, kWarpsPerSm / g.warps_per_block, by_shared}));
}

KernelProgram KernelProgram::For(const KernelLaunch& launch) {
  KernelProgram program;
  program.kernel = launch.kernel;
  program.launch = launch;
  program.register_count = static_cast<std::size_t>(launch.kernel->RegisterCount());
  for (const cuda::SharedArray& array : launch.kernel->shared) {
    program.shared_base.push_back(program.shared_words);
    program.shared_words += array.Words();
  }
  for (const cuda::Variable& variable : launch.kernel->variables) {
    if (variable.initialized) continue;
    program.declared_unwritten.resize(program.register_count, 0);
    for (int e = 0; e < variable.length; ++e) program.declared_unwritten[static_cast<std::size_t>(variable.slot + e)] = 1;
  }
  return program;
}

}  // namespace sim
