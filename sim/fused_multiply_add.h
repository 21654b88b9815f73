// fused_multiply_add.h — the inner product's fmaf, fast where the CPU has the instruction.
//
// The model computes sum = fmaf(a, b, sum), rounded once as the GPU rounds it: std::fma gives
// that result to the bit on any CPU. Built for every x86-64 (a classroom PC may lack FMA, so
// the build takes no -mfma), each std::fma is a call into libm. A loop of many hands its body
// to WithFusedMultiplyAdd, which runs a copy of it compiled for the FMA instruction on a CPU
// that has it (IEEE 754's fusedMultiplyAdd: the same correctly rounded result) and the body as
// built everywhere else.
#pragma once

namespace sim {

#if defined(__x86_64__) || defined(__i386__)
// `flatten`: the body and what it calls are compiled here, where std::fma is one instruction.
template <typename Body>
__attribute__((target("fma"), flatten)) void RunCompiledForFma(Body& body) {
  body();
}

inline bool CpuHasFma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}

template <typename Body>
void WithFusedMultiplyAdd(Body&& body) {
  if (CpuHasFma()) {
    RunCompiledForFma(body);
  } else {
    body();
  }
}
#else
// Elsewhere (ARM64: FMA is in the base instruction set) std::fma is one instruction already.
template <typename Body>
void WithFusedMultiplyAdd(Body&& body) {
  body();
}
#endif

}  // namespace sim
