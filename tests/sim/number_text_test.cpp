// ReadDecimal, ReadFloat, ReadWhole: what a person types is read whole or refused, never
// read up to the first character the reader does not know (issue 32: "1,5" stored 1.0).
#include "sim/io/number_text.h"

#include <gtest/gtest.h>

#include <clocale>

namespace {

TEST(NumberText, ReadsDecimalsWhole) {
  std::string problem;
  EXPECT_EQ(sim::ReadDecimal("1.5", problem), 1.5);
  EXPECT_EQ(sim::ReadDecimal("-2", problem), -2.0);
  EXPECT_EQ(sim::ReadDecimal("+3", problem), 3.0);
  EXPECT_EQ(sim::ReadDecimal("1e3", problem), 1000.0);
  EXPECT_EQ(sim::ReadDecimal(".5", problem), 0.5);
  EXPECT_EQ(sim::ReadDecimal("0", problem), 0.0);
}

TEST(NumberText, RefusesWhatItDoesNotReadWhole) {
  for (const char* text : {"1,5", "0x10", "2 junk", " 2", "2 ", "", "nan", "inf", "-inf", "1e", "--1", "+-1", "1.5.5",
                           "four", "1e3x"}) {
    std::string problem;
    EXPECT_FALSE(sim::ReadDecimal(text, problem)) << text;
    EXPECT_NE(problem.find("is not a number"), std::string::npos) << text << ": " << problem;
  }
}

TEST(NumberText, RefusesWhatWouldRoundToZeroOrInfinity) {
  std::string problem;
  EXPECT_FALSE(sim::ReadDecimal("1e400", problem));
  EXPECT_NE(problem.find("beyond the range"), std::string::npos) << problem;
  EXPECT_FALSE(sim::ReadDecimal("1e-400", problem)) << "not 0";
  EXPECT_FALSE(sim::ReadFloat("1e-50", problem)) << "a float would hold 0";
  EXPECT_NE(problem.find("range of a float"), std::string::npos) << problem;
  EXPECT_FALSE(sim::ReadFloat("1e39", problem)) << "a float would hold inf";
  EXPECT_EQ(sim::ReadFloat("0", problem), 0.0f);
  EXPECT_EQ(sim::ReadFloat("-0.25", problem), -0.25f);
}

TEST(NumberText, ReadsTheSameUnderACommaLocale) {
  const char* before = std::setlocale(LC_NUMERIC, nullptr);
  const std::string saved = before ? before : "C";
  if (!std::setlocale(LC_NUMERIC, "de_DE.UTF-8")) GTEST_SKIP() << "no de_DE locale here";
  std::string problem;
  EXPECT_EQ(sim::ReadDecimal("1.5", problem), 1.5);
  EXPECT_FALSE(sim::ReadDecimal("1,5", problem));
  std::setlocale(LC_NUMERIC, saved.c_str());
}

TEST(NumberText, ReadsWholeNumbersInRange) {
  std::string problem;
  EXPECT_EQ(sim::ReadWhole("42", 0, 100, problem), 42);
  EXPECT_EQ(sim::ReadWhole("-1", -1, 1, problem), -1);
  for (const char* text : {"1.0", "1e3", "0x10", "2 junk", "", "-", "four"}) {
    EXPECT_FALSE(sim::ReadWhole(text, 0, 100000, problem)) << text;
    EXPECT_NE(problem.find("is not a whole number"), std::string::npos) << text << ": " << problem;
  }
  EXPECT_FALSE(sim::ReadWhole("101", 0, 100, problem));
  EXPECT_NE(problem.find("outside 0 to 100"), std::string::npos) << problem;
  EXPECT_FALSE(sim::ReadWhole("99999999999999999999", 0, 100, problem));
  EXPECT_NE(problem.find("outside"), std::string::npos) << problem;
}

}  // namespace
