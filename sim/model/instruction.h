// instruction.h — the model's instructions: what one step of one thread does.
//
// Index arithmetic and loop control are not steps; a global load (or its "select 0" when
// the guard fails), a shared store, a barrier, one inner-product step (As load, Bs load,
// fmaf) and the store of C are. Each instruction has a `// model: NAME` marker on its line
// in the kernel source, so the model's lines are the CUDA file's lines.
#pragma once
#include <array>
#include <cstdint>

namespace sim {

enum class Op : std::uint8_t { kLoadA, kStoreAs, kLoadB, kStoreBs, kBarrier1, kFma, kBarrier2, kStoreC, kDone };
constexpr int kOpCount = 8;  // kDone has no line

// The marker text naming each instruction in kernels/*.cu.
constexpr std::array<const char*, kOpCount> kMarkerNames{"load_a", "store_as", "load_b", "store_bs",
                                                         "barrier1", "fma",     "barrier2", "store_c"};

inline const char* MarkerName(Op op) { return op == Op::kDone ? "done" : kMarkerNames[static_cast<int>(op)]; }
inline bool IsBarrier(Op op) { return op == Op::kBarrier1 || op == Op::kBarrier2; }

// Where a thread is in its program: the instruction, the tile phase t and the loop index j
// (the strided load iteration or the inner-product k). The naive kernel has no phases: its
// loop index k is kept in t, so keys order its load_a, load_b, fma per k like the tiled
// kernel's sections per phase.
struct ProgramCounter {
  Op op = Op::kDone;
  std::int32_t t = 0;
  std::int32_t j = 0;

  // A number that grows along every thread's program: lanes of a warp at equal keys run
  // the same warp-instruction, and the smallest key runs first when lanes diverge.
  std::int64_t Key() const {
    return (static_cast<std::int64_t>(t) << 40) | (static_cast<std::int64_t>(Section()) << 32) |
           (static_cast<std::int64_t>(j) << 2) | SubStep();
  }
  // Program order at the granularity of "which part of which phase" (hazard kinds use it).
  std::int32_t Stage() const { return t * 8 + Section(); }
  bool operator==(const ProgramCounter& o) const { return op == o.op && t == o.t && j == o.j; }
  bool operator!=(const ProgramCounter& o) const { return !(*this == o); }

 private:
  // The A loop (load, store per j), the B loop, barrier 1, the k loop, barrier 2, store C.
  int Section() const {
    constexpr std::array<int, kOpCount + 1> kSection{0, 0, 1, 1, 2, 3, 4, 5, 6};
    return kSection[static_cast<int>(op)];
  }
  int SubStep() const {
    constexpr std::array<int, kOpCount + 1> kSub{0, 1, 0, 1, 0, 0, 0, 0, 0};
    return kSub[static_cast<int>(op)];
  }
};

}  // namespace sim
