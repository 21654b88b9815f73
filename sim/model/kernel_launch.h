// kernel_launch.h — a student's compiled kernel, the launch the machine runs it in, and the
// kernel as the machine holds it while running (KernelProgram, the counterpart of a lesson's
// Program).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/ir.h"
#include "sim/model/geometry.h"
#include "sim/model/kernel_config.h"

namespace sim {

// A student's compiled kernel and the launch it runs in (kernel_step.h). Pointer
// parameters name the matrix they get: A (M×K) and B (K×N) are read, C (M×N) starts zeroed.
struct KernelLaunch {
  std::shared_ptr<const cuda::CompiledKernel> kernel;
  std::array<int, 3> grid{1, 1, 1};
  std::array<int, 3> block{1, 1, 1};
  int m = 0, n = 0, k = 0;
  // Per kernel parameter: an int's value, or a pointer's matrix (static_cast<int>(MatrixId)).
  std::vector<std::int32_t> arguments;
  SchedulerKind scheduler = SchedulerKind::kRealistic;
  std::uint64_t seed = 1;
  // Instructions a thread may run: past them it is stopped as not terminating.
  std::int32_t instruction_budget = 1 << 24;
};
// What is wrong with a launch the machine cannot run (sizes, threads, memory); nullopt when none.
std::optional<std::string> ValidateLaunch(const KernelLaunch& launch);
// The launch as the machine lays it out: a block's x along tn, its y and z along tm; the
// grid's x along grid_x, its y and z along grid_y; one phase.
Geometry GeometryOf(const KernelLaunch& launch);
// Blocks an SM holds at once for the realistic scheduler, by warps and by `shared_words`
// of shared memory a block (an H100's limits; registers not modelled).
int KernelBlocksPerSm(const Geometry& geometry, int shared_words);

// The student's kernel as the machine runs it: its code, its launch, and where each
// __shared__ array starts in a block's words. Never changed by a step.
struct KernelProgram {
  std::shared_ptr<const cuda::CompiledKernel> kernel;  // null: the machine runs a lesson
  KernelLaunch launch;
  std::size_t register_count = 0;  // per thread (CompiledKernel::RegisterCount)
  std::vector<int> shared_base;    // first word of each __shared__ array
  int shared_words = 0;            // all of them
  // Per register: 1 where a local is declared without a value (its elements, for an array):
  // a read before the thread writes it is a finding. Empty when the kernel has none, and then
  // its registers run without the checks (cuda::RunToVisible<false>).
  std::vector<std::uint8_t> declared_unwritten;

  static KernelProgram For(const KernelLaunch& launch);
  // A thread's registers, `thread` its global index, in `registers` (MachineState::registers).
  std::uint32_t* Registers(std::vector<std::uint32_t>& registers, int thread) const {
    return &registers[static_cast<std::size_t>(thread) * register_count];
  }
  const std::uint32_t* Registers(const std::vector<std::uint32_t>& registers, int thread) const {
    return &registers[static_cast<std::size_t>(thread) * register_count];
  }
  bool TracksUnwritten() const { return !declared_unwritten.empty(); }
};

}  // namespace sim
