// ir.h — a kernel compiled for the model: flat instructions over numbered 32-bit registers.
//
// Every value a thread holds (special registers, variables, constants, temporaries, small
// local arrays) is a register slot, so running it needs no names, maps or strings. Most
// instructions only compute on registers; those that touch global or shared memory or
// synchronise are the ones the machine performs itself (IsVisible), one per step.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cuda/ast.h"

namespace sim::cuda {

enum class Opcode : std::uint8_t {
  kMove,  // dst = a
  // 32-bit integers (two's complement wraps, as on the GPU); comparisons give 0 or 1
  kAddI, kSubI, kMulI, kDivI, kRemI, kDivU, kRemU, kShl, kShrI, kShrU, kAnd, kOr, kXor, kNot, kNegI,
  kEqI, kNeI, kLtI, kLeI, kLtU, kLeU, kLogicalNot, kMinI, kMaxI, kMinU, kMaxU,
  // float, each rounded once; kFma: dst = a·b + c rounded once
  kAddF, kSubF, kMulF, kDivF, kNegF, kFma, kMinF, kMaxF, kSqrtF, kAbsF, kEqF, kNeF, kLtF, kLeF, kNotF,
  kIntToFloat, kUnsignedToFloat, kFloatToInt, kFloatToUnsigned,
  // control: dst is the target instruction
  kJump, kJumpIfZero, kJumpIfNotZero,
  // a local array's element: registers a + index(b), of c; out of range stops the thread
  // (`array` 1: its indices were checked one by one first, kCheckLocalIndex)
  kLoadLocal, kStoreLocal,
  // index(b) along one dimension (`array`) of the local array at register a must be below
  // its extent c: a flat index can stay inside the array where one index is outside its extent
  kCheckLocalIndex,
  // performed by the machine (IsVisible):
  kLoadGlobal,    // dst = parameter `array`[offset register a + index b]
  kStoreGlobal,   // parameter `array`[a + b] = register dst
  kLoadShared,    // dst = shared array `array`[a][b][c] (indices in registers, unused ones 0)
  kStoreShared,   // shared array `array`[a][b][c] = register dst
  kSyncthreads,
  kSyncwarp,
  kExit,
};

constexpr bool IsVisible(Opcode op) { return op >= Opcode::kLoadGlobal; }
const char* OpcodeName(Opcode op);

struct Instruction {
  Opcode op = Opcode::kExit;
  std::uint8_t array = 0;   // which parameter or shared array
  std::int32_t dst = 0;
  std::int32_t a = 0;
  std::int32_t b = 0;
  std::int32_t c = 0;
};

// Special registers first, in Builtin's order: the machine writes them for each thread.
constexpr int kThreadIdxSlot = 0;
constexpr int kBlockIdxSlot = 3;
constexpr int kBlockDimSlot = 6;
constexpr int kGridDimSlot = 9;
// Backward jumps the thread has taken (loop iterations, all loops together): with the program
// counter, where it stands in program order, the same for threads that took different sides
// of a branch (the hazard detector names a race RAW or WAR by it).
constexpr int kBackEdgeSlot = 12;
constexpr int kFirstVariableSlot = 13;

struct SharedArray {
  std::string name;
  SourcePos pos;
  Type type = Type::kFloat;  // kFloat or kInt
  int rank = 1;
  std::array<int, 3> dims{1, 1, 1};  // extents, outermost first; unused ones 1
  int Words() const { return dims[0] * dims[1] * dims[2]; }
};

struct KernelParameterSlot {
  std::string name;
  SourcePos pos;
  bool pointer = false;     // float*: the register holds the element offset it was advanced by
  bool const_data = false;
  int slot = 0;
};

// A variable of the kernel's source, for findings that name it.
struct Variable {
  std::string name;
  SourcePos pos;
  Type type = Type::kInt;
  int slot = 0;
  int length = 1;          // a local array's elements
  bool initialized = false;  // declared with a value
};

struct CompiledKernel {
  std::string name;
  std::vector<Instruction> code;
  std::vector<SourcePos> positions;  // of each instruction: the source it came from
  std::vector<std::uint32_t> initial_registers;  // constants in place, the rest zero
  std::vector<KernelParameterSlot> parameters;
  std::vector<SharedArray> shared;
  std::vector<Variable> variables;
  std::vector<std::pair<std::string, long long>> template_values;
  int RegisterCount() const { return static_cast<int>(initial_registers.size()); }
  int SharedWords() const;
};

}  // namespace sim::cuda
