#include "sim/model/mma_fragment.h"

namespace sim {

int FragmentRows(MmaOperand operand) { return operand == MmaOperand::kB ? kMmaK : kMmaM; }

int FragmentColumns(MmaOperand operand) { return operand == MmaOperand::kA ? kMmaK : kMmaN; }

int FragmentRegisters(MmaOperand operand) { return FragmentRows(operand) * FragmentColumns(operand) / kWarpLanes; }

const char* OperandName(MmaOperand operand) {
  switch (operand) {
    case MmaOperand::kA: return "A";
    case MmaOperand::kB: return "B";
    case MmaOperand::kC: return "C";
  }
  return "";
}

const char* RegisterName(MmaOperand operand, int reg) {
  static constexpr const char* kNames[3][4] = {{"a0", "a1", "a2", "a3"}, {"b0", "b1", "", ""}, {"c0", "c1", "c2", "c3"}};
  if (reg < 0 || reg >= FragmentRegisters(operand)) return "";
  return kNames[static_cast<int>(operand)][reg];
}

MatrixCell FragmentCell(MmaOperand operand, int lane, int reg) {
  const int group = lane / 4, thread = lane % 4;
  switch (operand) {
    case MmaOperand::kA: return {group + reg % 2 * 8, thread + reg / 2 * 4};
    case MmaOperand::kB: return {thread + reg * 4, group};
    case MmaOperand::kC: return {group + reg / 2 * 8, 2 * thread + reg % 2};
  }
  return {};
}

FragmentMap MapFragment(MmaOperand operand) {
  FragmentMap map{operand, FragmentRows(operand), FragmentColumns(operand), {}};
  map.owners.assign(static_cast<std::size_t>(map.rows * map.columns), FragmentOwner{});
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < FragmentRegisters(operand); ++reg) {
      const MatrixCell cell = FragmentCell(operand, lane, reg);
      map.owners[static_cast<std::size_t>(cell.row * map.columns + cell.column)] = {lane, reg};
    }
  }
  return map;
}

}  // namespace sim
