// interpreter.h — runs a thread's register instructions up to the next one the machine
// performs itself (a memory access or a barrier: IsVisible).
//
// This is the seam between the front end and the model: the machine keeps each thread's
// registers and program counter, calls RunToVisible, performs the instruction it stops at,
// and moves the thread past it. Inline, switch-dispatched over flat registers: the hot path.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sim/cuda/ir.h"

namespace sim::cuda {

inline float AsFloat(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline std::uint32_t FloatBits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// Float to integer as the GPU's cvt.rzi: truncated, saturating, NaN to 0.
inline std::uint32_t FloatToInt(float f) {
  if (f != f) return 0;
  if (f <= -2147483648.0f) return 0x80000000u;
  if (f >= 2147483648.0f) return 0x7fffffffu;
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(f));
}
inline std::uint32_t FloatToUnsigned(float f) {
  if (f != f || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return static_cast<std::uint32_t>(f);
}
// fminf/fmaxf: a NaN operand gives the other (C's and PTX's min.f32).
inline float MinF(float a, float b) { return a != a ? b : (b != b ? a : (b < a ? b : a)); }
inline float MaxF(float a, float b) { return a != a ? b : (b != b ? a : (b > a ? b : a)); }

// Why RunToVisible stopped, besides at a visible instruction.
enum class Stop : std::uint8_t {
  kVisible,       // at code[pc], which the machine performs
  kLocalOutside,  // at a local array access, or an index check, whose index is outside the array
  kUnwritten,     // at an instruction that reads a local never written (UnwrittenRead names it)
  kBudget,        // `budget` instructions ran without reaching either
};

// The registers an instruction reads (bit 0: a, 1: b, 2: c, 3: dst), besides a local load's element.
constexpr std::uint8_t ReadOperands(Opcode op) {
  switch (op) {
    case Opcode::kJump:
    case Opcode::kSyncthreads:
    case Opcode::kSyncwarp:
    case Opcode::kExit:
      return 0;
    case Opcode::kMove: case Opcode::kNot: case Opcode::kNegI: case Opcode::kLogicalNot: case Opcode::kNegF:
    case Opcode::kSqrtF: case Opcode::kAbsF: case Opcode::kNotF: case Opcode::kIntToFloat:
    case Opcode::kUnsignedToFloat: case Opcode::kFloatToInt: case Opcode::kFloatToUnsigned:
    case Opcode::kJumpIfZero: case Opcode::kJumpIfNotZero:
      return 0b0001;
    case Opcode::kLoadLocal:
    case Opcode::kCheckLocalIndex:
      return 0b0010;
    case Opcode::kStoreLocal:
      return 0b1010;
    case Opcode::kFma:
    case Opcode::kLoadShared:
      return 0b0111;
    case Opcode::kStoreGlobal:
      return 0b1011;
    case Opcode::kStoreShared:
      return 0b1111;
    default:  // the other arithmetic and comparisons, and a global load: a and b
      return 0b0011;
  }
}

// The first register `i` reads that is a local not yet written (`unwritten`: a flag per
// register of the thread), or -1. A local load reads its element as well (when inside).
inline std::int32_t UnwrittenRead(const Instruction& i, const std::uint32_t* r, const std::uint8_t* unwritten) {
  const std::uint8_t reads = ReadOperands(i.op);
  if ((reads & 1) != 0 && unwritten[i.a] != 0) return i.a;
  if ((reads & 2) != 0 && unwritten[i.b] != 0) return i.b;
  if ((reads & 4) != 0 && unwritten[i.c] != 0) return i.c;
  if ((reads & 8) != 0 && unwritten[i.dst] != 0) return i.dst;
  if (i.op == Opcode::kLoadLocal && r[i.b] < static_cast<std::uint32_t>(i.c)) {
    const auto element = static_cast<std::int32_t>(static_cast<std::uint32_t>(i.a) + r[i.b]);
    if (unwritten[element] != 0) return element;
  }
  return -1;
}

// The register `i` writes (a local store: its element; 0, a special register never unwritten,
// for instructions that write none). A visible load's register counts as written before the
// machine performs it: nothing reads it in between.
inline std::int32_t WrittenRegister(const Instruction& i, const std::uint32_t* r) {
  if (i.op == Opcode::kStoreLocal) {
    // Outside the array the store is dropped (Stop::kLocalOutside): it writes nothing.
    return r[i.b] < static_cast<std::uint32_t>(i.c) ? static_cast<std::int32_t>(static_cast<std::uint32_t>(i.a) + r[i.b]) : 0;
  }
  if (i.op == Opcode::kJump || i.op == Opcode::kJumpIfZero || i.op == Opcode::kJumpIfNotZero ||
      i.op == Opcode::kCheckLocalIndex || i.op == Opcode::kStoreGlobal ||
      i.op == Opcode::kStoreShared || i.op >= Opcode::kSyncthreads) {
    return 0;
  }
  return i.dst;
}

// Runs from `pc` until a visible instruction, a local access out of range or the budget;
// `pc` ends at the instruction it stopped at, `executed` counts the instructions run.
// kTracksUnwritten: also stops before an instruction that reads a local never written, and
// keeps `unwritten` (a flag per register) as registers are written. A kernel that declares
// every local with a value runs the loop without it: the checks cost every instruction.
template <bool kTracksUnwritten>
inline Stop RunToVisible(const Instruction* code, std::uint32_t* r, std::int32_t& pc, std::uint64_t budget,
                         std::uint64_t& executed, std::uint8_t* unwritten) {
  std::uint64_t ran = 0;
  Stop stop = Stop::kBudget;
  for (; ran < budget; ++ran) {
    const Instruction& i = code[pc];
    if constexpr (kTracksUnwritten) {
      if (UnwrittenRead(i, r, unwritten) >= 0) {
        stop = Stop::kUnwritten;
        goto stopped;
      }
      unwritten[WrittenRegister(i, r)] = 0;
    }
    const std::uint32_t a = r[i.a];
    const std::uint32_t b = r[i.b];
    const auto sa = static_cast<std::int32_t>(a);
    const auto sb = static_cast<std::int32_t>(b);
    switch (i.op) {
      case Opcode::kMove: r[i.dst] = a; break;
      case Opcode::kAddI: r[i.dst] = a + b; break;
      case Opcode::kSubI: r[i.dst] = a - b; break;
      case Opcode::kMulI: r[i.dst] = a * b; break;
      // Division by zero gives all ones, as the GPU's div does; INT_MIN / -1 wraps.
      case Opcode::kDivI:
        r[i.dst] = b == 0 ? 0xffffffffu : static_cast<std::uint32_t>(static_cast<std::int64_t>(sa) / sb);
        break;
      case Opcode::kRemI:
        r[i.dst] = b == 0 ? a : static_cast<std::uint32_t>(static_cast<std::int64_t>(sa) % sb);
        break;
      case Opcode::kDivU: r[i.dst] = b == 0 ? 0xffffffffu : a / b; break;
      case Opcode::kRemU: r[i.dst] = b == 0 ? a : a % b; break;
      // Shifts by 32 or more: shl and shr.u give 0, shr.s the sign (PTX clamps the count).
      case Opcode::kShl: r[i.dst] = b >= 32 ? 0 : a << b; break;
      case Opcode::kShrI: r[i.dst] = static_cast<std::uint32_t>(sa >> (b >= 32 ? 31 : b)); break;
      case Opcode::kShrU: r[i.dst] = b >= 32 ? 0 : a >> b; break;
      case Opcode::kAnd: r[i.dst] = a & b; break;
      case Opcode::kOr: r[i.dst] = a | b; break;
      case Opcode::kXor: r[i.dst] = a ^ b; break;
      case Opcode::kNot: r[i.dst] = ~a; break;
      case Opcode::kNegI: r[i.dst] = 0u - a; break;
      case Opcode::kEqI: r[i.dst] = a == b; break;
      case Opcode::kNeI: r[i.dst] = a != b; break;
      case Opcode::kLtI: r[i.dst] = sa < sb; break;
      case Opcode::kLeI: r[i.dst] = sa <= sb; break;
      case Opcode::kLtU: r[i.dst] = a < b; break;
      case Opcode::kLeU: r[i.dst] = a <= b; break;
      case Opcode::kLogicalNot: r[i.dst] = a == 0; break;
      case Opcode::kMinI: r[i.dst] = static_cast<std::uint32_t>(sa < sb ? sa : sb); break;
      case Opcode::kMaxI: r[i.dst] = static_cast<std::uint32_t>(sa > sb ? sa : sb); break;
      case Opcode::kMinU: r[i.dst] = a < b ? a : b; break;
      case Opcode::kMaxU: r[i.dst] = a > b ? a : b; break;
      case Opcode::kAddF: r[i.dst] = FloatBits(AsFloat(a) + AsFloat(b)); break;
      case Opcode::kSubF: r[i.dst] = FloatBits(AsFloat(a) - AsFloat(b)); break;
      case Opcode::kMulF: r[i.dst] = FloatBits(AsFloat(a) * AsFloat(b)); break;
      case Opcode::kDivF: r[i.dst] = FloatBits(AsFloat(a) / AsFloat(b)); break;
      case Opcode::kNegF: r[i.dst] = a ^ 0x80000000u; break;
      case Opcode::kFma: r[i.dst] = FloatBits(std::fma(AsFloat(a), AsFloat(b), AsFloat(r[i.c]))); break;
      case Opcode::kMinF: r[i.dst] = FloatBits(MinF(AsFloat(a), AsFloat(b))); break;
      case Opcode::kMaxF: r[i.dst] = FloatBits(MaxF(AsFloat(a), AsFloat(b))); break;
      case Opcode::kSqrtF: r[i.dst] = FloatBits(std::sqrt(AsFloat(a))); break;
      case Opcode::kAbsF: r[i.dst] = a & 0x7fffffffu; break;
      case Opcode::kEqF: r[i.dst] = AsFloat(a) == AsFloat(b); break;
      case Opcode::kNeF: r[i.dst] = AsFloat(a) != AsFloat(b); break;
      case Opcode::kLtF: r[i.dst] = AsFloat(a) < AsFloat(b); break;
      case Opcode::kLeF: r[i.dst] = AsFloat(a) <= AsFloat(b); break;
      case Opcode::kNotF: r[i.dst] = AsFloat(a) == 0.0f; break;
      case Opcode::kIntToFloat: r[i.dst] = FloatBits(static_cast<float>(sa)); break;
      case Opcode::kUnsignedToFloat: r[i.dst] = FloatBits(static_cast<float>(a)); break;
      case Opcode::kFloatToInt: r[i.dst] = FloatToInt(AsFloat(a)); break;
      case Opcode::kFloatToUnsigned: r[i.dst] = FloatToUnsigned(AsFloat(a)); break;
      case Opcode::kJump:
        r[kBackEdgeSlot] += i.dst <= pc;
        pc = i.dst;
        continue;
      case Opcode::kJumpIfZero:
        if (a == 0) {
          pc = i.dst;
          continue;
        }
        break;
      case Opcode::kJumpIfNotZero:
        if (a != 0) {
          r[kBackEdgeSlot] += i.dst <= pc;
          pc = i.dst;
          continue;
        }
        break;
      case Opcode::kLoadLocal:
        if (b >= static_cast<std::uint32_t>(i.c)) {
          stop = Stop::kLocalOutside;
          goto stopped;
        }
        r[i.dst] = r[static_cast<std::uint32_t>(i.a) + b];
        break;
      case Opcode::kStoreLocal:
        if (b >= static_cast<std::uint32_t>(i.c)) {
          stop = Stop::kLocalOutside;
          goto stopped;
        }
        r[static_cast<std::uint32_t>(i.a) + b] = r[i.dst];
        break;
      case Opcode::kCheckLocalIndex:
        if (b >= static_cast<std::uint32_t>(i.c)) {
          stop = Stop::kLocalOutside;
          goto stopped;
        }
        break;
      default:  // visible: the machine's
        stop = Stop::kVisible;
        goto stopped;
    }
    ++pc;
  }
stopped:
  executed += ran;
  return stop;
}

inline Stop RunToVisible(const Instruction* code, std::uint32_t* r, std::int32_t& pc, std::uint64_t budget,
                         std::uint64_t& executed) {
  return RunToVisible<false>(code, r, pc, budget, executed, nullptr);
}

}  // namespace sim::cuda
