// mma_fragment.h — which lane of a warp holds which element of the three matrices of one
// tensor-core instruction, mma.sync.aligned.m16n8k8 with TF32 inputs (rung 13's instruction):
// D(16×8) = A(16×8) · B(8×8) + C(16×8). The warp holds every operand spread over its 32 lanes,
// a few registers each (a "fragment"); the instruction reads and writes them all at once.
//
// The layout is the PTX ISA's ("Matrix Fragments for mma.m16n8k8", .tf32): with
// group = lane / 4 and thread = lane % 4,
//   A: a0 (group, thread), a1 (group + 8, thread), a2 (group, thread + 4), a3 (group + 8, thread + 4)
//   B: b0 (thread, group), b1 (thread + 4, group)
//   C and D: c0 (group, 2·thread), c1 (group, 2·thread + 1), c2 (group + 8, 2·thread), c3 (group + 8, 2·thread + 1)
// The device test (tests/kernels/gpu_test.cpp) has each lane put its lane id into its
// fragment elements and lets the tensor cores place them, and compares with this layout.
#pragma once
#include <vector>

namespace sim {

enum class MmaOperand { kA, kB, kC };

constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 8;
constexpr int kWarpLanes = 32;

// Rows and columns of an operand (A 16×8, B 8×8, C 16×8) and its registers per lane.
int FragmentRows(MmaOperand operand);
int FragmentColumns(MmaOperand operand);
int FragmentRegisters(MmaOperand operand);
// "A", "B" or "C"; a register's name as the PTX ISA writes it ("a0" … "c3").
const char* OperandName(MmaOperand operand);
const char* RegisterName(MmaOperand operand, int reg);

struct MatrixCell {
  int row = 0;
  int column = 0;
};

// Where register `reg` of lane `lane` lies in the operand's matrix: the layout function.
MatrixCell FragmentCell(MmaOperand operand, int lane, int reg);

// Who holds one element: the lane and which of its registers.
struct FragmentOwner {
  int lane = -1;
  int reg = -1;
};

// The whole operand, element by element (row-major, rows × columns): its owner, from
// FragmentCell. Every element has exactly one owner (the tests count it).
struct FragmentMap {
  MmaOperand operand = MmaOperand::kA;
  int rows = 0;
  int columns = 0;
  std::vector<FragmentOwner> owners;
  const FragmentOwner& At(int row, int column) const { return owners[row * columns + column]; }
};
FragmentMap MapFragment(MmaOperand operand);

}  // namespace sim
