// Kernel files as a student might hand them over, read by the front end for CUDA C
// (sim::cuda::CompileKernelFile): any bytes compile or are refused with file:line:col, never a
// crash or a hang; what compiles is well formed (every register inside the thread's file,
// every jump inside the code, the code ending in exit) and runs, its memory accesses skipped,
// without touching anything outside its registers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "sim/cuda/front_end.h"
#include "sim/cuda/interpreter.h"

namespace {

constexpr std::uint64_t kBudget = 20000;

void CheckWellFormed(const sim::cuda::CompiledKernel& k) {
  using sim::cuda::Opcode;
  const auto registers = static_cast<std::int64_t>(k.initial_registers.size());
  const auto length = static_cast<std::int64_t>(k.code.size());
  FUZZ_CHECK(length > 0 && k.code.back().op == Opcode::kExit, "the code ends in exit");
  FUZZ_CHECK(k.positions.size() == k.code.size(), "a source place per instruction");
  for (const sim::cuda::Instruction& i : k.code) {
    const bool jump = i.op == Opcode::kJump || i.op == Opcode::kJumpIfZero || i.op == Opcode::kJumpIfNotZero;
    const bool local = i.op == Opcode::kLoadLocal || i.op == Opcode::kStoreLocal;
    FUZZ_CHECK(jump ? (i.dst >= 0 && i.dst < length) : (i.dst >= 0 && i.dst < registers), "dst inside");
    FUZZ_CHECK(i.a >= 0 && i.a < registers && i.b >= 0 && i.b < registers, "operands inside");
    FUZZ_CHECK(local ? (i.c > 0 && i.a + i.c <= registers) : (i.c >= 0 && i.c < registers), "c inside");
    if (i.op == Opcode::kLoadShared || i.op == Opcode::kStoreShared) FUZZ_CHECK(i.array < k.shared.size(), "a shared array");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const sim::cuda::FrontEndResult result = sim::cuda::CompileKernelFile(text, "fuzz.cu", {});
  FUZZ_CHECK(result.file.has_value() != result.problem.has_value(), "a kernel or a problem, exactly one");
  if (result.problem) {
    FUZZ_CHECK(result.problem->pos.line >= 1 && result.problem->pos.col >= 1, "a problem has its place");
    FUZZ_CHECK(!result.problem->message.empty(), "a problem says what");
    return 0;
  }
  const sim::cuda::CompiledKernel& k = result.file->kernel;
  CheckWellFormed(k);
  std::vector<std::uint32_t> registers = k.initial_registers;
  std::int32_t pc = 0;
  std::uint64_t executed = 0;
  while (executed < kBudget) {
    const sim::cuda::Stop stop = sim::cuda::RunToVisible(k.code.data(), registers.data(), pc, kBudget - executed, executed);
    if (stop == sim::cuda::Stop::kBudget) break;
    if (k.code[static_cast<std::size_t>(pc)].op == sim::cuda::Opcode::kExit) break;
    // A memory access reads 0 and a store or a barrier does nothing: only the control flow is run.
    const sim::cuda::Instruction& i = k.code[static_cast<std::size_t>(pc)];
    if (i.op == sim::cuda::Opcode::kLoadGlobal || i.op == sim::cuda::Opcode::kLoadShared) registers[static_cast<std::size_t>(i.dst)] = 0;
    ++pc;
    ++executed;
  }
  return 0;
}
