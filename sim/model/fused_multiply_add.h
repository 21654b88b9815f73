// fused_multiply_add.h — the inner product's fmaf, fast where the CPU has the instruction.
//
// The model computes sum = fmaf(a, b, sum), rounded once as the GPU rounds it: std::fma gives
// that result to the bit on any CPU. Built for every x86-64 (a classroom PC may lack FMA, so
// the build takes no -mfma), each std::fma is a call into libm. A loop of many hands its body
// to WithFusedMultiplyAdd, which runs a copy of it compiled for the FMA instruction on a CPU
// that has it (IEEE 754's fusedMultiplyAdd: the same correctly rounded result) and the body as
// built everywhere else; the body computes each fmaf with the callable it is given. With the
// lane mask of the same commit, an inner-product lane went from 56 + 24 + 13 instructions to
// 30 (callgrind, 128³ TILE 16 run 439.2 → 377.5 M; 73cd558).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace sim {

// fmaf through libm, as the model has always computed it.
struct LibmFma {
  float operator()(float a, float b, float c) const { return std::fma(a, b, c); }
};

#if defined(__x86_64__) || defined(__i386__)
// fmaf as the instruction, with libm's NaN: where a CPU has FMA, libm's fmaf is one
// vfmadd213ss computing b·a + c, which returns the first NaN of b, a, c (quieted: measured);
// the compiler may encode the instruction with its operands in another order, whose first NaN
// is another (the shared tiles' poison and an out-of-bounds read's differ in their payloads).
struct FmaInstruction {
  float operator()(float a, float b, float c) const {
    const float result = std::fma(a, b, c);
    if (result == result) return result;
    for (const float operand : {b, a, c}) {
      if (operand != operand) return Quieted(operand);
    }
    return result;  // a NaN of the operation itself (∞·0, ∞ − ∞): the same default NaN
  }
  static float Quieted(float nan) {
    std::uint32_t bits;
    std::memcpy(&bits, &nan, sizeof bits);
    bits |= 0x00400000u;
    std::memcpy(&nan, &bits, sizeof nan);
    return nan;
  }
};

// `flatten`: the body and what it calls are compiled here, where std::fma is one instruction.
template <typename Body>
__attribute__((target("fma"), flatten)) void RunCompiledForFma(Body& body) {
  body(FmaInstruction{});
}

inline bool CpuHasFma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}

// Runs body(fmaf), fmaf a callable float(float, float, float) as libm's fmaf.
template <typename Body>
void WithFusedMultiplyAdd(Body&& body) {
  if (CpuHasFma()) {
    RunCompiledForFma(body);
  } else {
    body(LibmFma{});
  }
}
#else
// Elsewhere (ARM64: FMA is in the base instruction set) std::fma is one instruction already.
template <typename Body>
void WithFusedMultiplyAdd(Body&& body) {
  body(LibmFma{});
}
#endif

}  // namespace sim
