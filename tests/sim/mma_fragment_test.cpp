#include "sim/model/mma_fragment.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace sim {
namespace {

constexpr MmaOperand kOperands[] = {MmaOperand::kA, MmaOperand::kB, MmaOperand::kC};

// 32 lanes × registers cover the matrix once: no element held twice, none left out.
TEST(MmaFragment, EveryElementHasExactlyOneOwner) {
  for (MmaOperand operand : kOperands) {
    SCOPED_TRACE(OperandName(operand));
    EXPECT_EQ(kWarpLanes * FragmentRegisters(operand), FragmentRows(operand) * FragmentColumns(operand));
    std::set<std::pair<int, int>> cells;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      for (int reg = 0; reg < FragmentRegisters(operand); ++reg) {
        const MatrixCell cell = FragmentCell(operand, lane, reg);
        EXPECT_GE(cell.row, 0);
        EXPECT_LT(cell.row, FragmentRows(operand));
        EXPECT_GE(cell.column, 0);
        EXPECT_LT(cell.column, FragmentColumns(operand));
        EXPECT_TRUE(cells.insert({cell.row, cell.column}).second) << "lane " << lane << " reg " << reg;
      }
    }
    const FragmentMap map = MapFragment(operand);
    for (int row = 0; row < map.rows; ++row) {
      for (int column = 0; column < map.columns; ++column) {
        const FragmentOwner& owner = map.At(row, column);
        ASSERT_GE(owner.lane, 0);
        const MatrixCell back = FragmentCell(operand, owner.lane, owner.reg);
        EXPECT_EQ(back.row, row);
        EXPECT_EQ(back.column, column);
      }
    }
  }
}

// Lane 5 is group 1, thread 1: the PTX ISA's rows and columns for it, register by register.
TEST(MmaFragment, LaneFiveHoldsWhatThePtxTableSays) {
  const auto at = [](MmaOperand operand, int reg) {
    const MatrixCell cell = FragmentCell(operand, 5, reg);
    return std::make_pair(cell.row, cell.column);
  };
  EXPECT_EQ(at(MmaOperand::kA, 0), std::make_pair(1, 1));
  EXPECT_EQ(at(MmaOperand::kA, 1), std::make_pair(9, 1));
  EXPECT_EQ(at(MmaOperand::kA, 2), std::make_pair(1, 5));
  EXPECT_EQ(at(MmaOperand::kA, 3), std::make_pair(9, 5));
  EXPECT_EQ(at(MmaOperand::kB, 0), std::make_pair(1, 1));
  EXPECT_EQ(at(MmaOperand::kB, 1), std::make_pair(5, 1));
  EXPECT_EQ(at(MmaOperand::kC, 0), std::make_pair(1, 2));
  EXPECT_EQ(at(MmaOperand::kC, 1), std::make_pair(1, 3));
  EXPECT_EQ(at(MmaOperand::kC, 2), std::make_pair(9, 2));
  EXPECT_EQ(at(MmaOperand::kC, 3), std::make_pair(9, 3));
}

// The shapes the layout makes: the four lanes of a quad (lane / 4) share rows of A and C and
// a column of B; within a quad, A's columns and B's rows run with the lane, C's in pairs.
TEST(MmaFragment, AQuadOfLanesSharesRowsOfAAndCAndAColumnOfB) {
  const FragmentMap a = MapFragment(MmaOperand::kA), b = MapFragment(MmaOperand::kB), c = MapFragment(MmaOperand::kC);
  for (int row = 0; row < kMmaM; ++row) {
    for (int column = 0; column < kMmaK; ++column) EXPECT_EQ(a.At(row, column).lane / 4, row % 8);
    for (int column = 0; column < kMmaN; ++column) {
      EXPECT_EQ(c.At(row, column).lane, row % 8 * 4 + column / 2);
      EXPECT_EQ(c.At(row, column).reg, row / 8 * 2 + column % 2);
    }
  }
  for (int row = 0; row < kMmaK; ++row) {
    for (int column = 0; column < kMmaN; ++column) EXPECT_EQ(b.At(row, column).lane, column * 4 + row % 4);
  }
  EXPECT_STREQ(RegisterName(MmaOperand::kB, 1), "b1");
  EXPECT_STREQ(RegisterName(MmaOperand::kB, 2), "");
}

}  // namespace
}  // namespace sim
