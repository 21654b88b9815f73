// Per-element tolerance of C and the refusal of non-finite inputs: the checks behind
// `tilescope verify`, which once passed an inf in A and an error hidden by one 1e30.
#include "kernels/element_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kernels {
namespace {

// C (2×2) = A (2×2) · B (2×2), exact in float.
struct Product {
  Shape shape{2, 2, 2};
  std::vector<float> a{1, 2, 3, 4};
  std::vector<float> b{5, 6, 7, 8};
  std::vector<float> c{19, 22, 43, 50};
};

TEST(ElementCheck, ExactProductPasses) {
  const Product p;
  const ElementCheck check = CheckElements(p.shape, p.a, p.b, p.c, p.c);
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.max_error, 0);
  EXPECT_EQ(check.worst, -1);
}

TEST(ElementCheck, EachElementHasItsOwnTolerance) {
  Product p;
  // Row 0 of A becomes 1e30: C's row 0 is huge and its tolerance with it, row 1 is not.
  p.a[0] = 1e30f;
  p.c[0] = 1e30f * 5 + 2 * 7;
  p.c[1] = 1e30f * 6 + 2 * 8;
  std::vector<float> got = p.c;
  got[2] += 1.2e4f;  // C[1][0]: an error a tolerance scaled by max|A| would hide
  const ElementCheck check = CheckElements(p.shape, p.a, p.b, got, p.c);
  EXPECT_EQ(check.beyond, 1);
  EXPECT_EQ(check.worst, 2);
  EXPECT_FLOAT_EQ(check.worst_error, 1.2e4);
  // 2·K·2^-23·(|3|·|5| + |4|·|7|) for C[1][0].
  EXPECT_DOUBLE_EQ(check.worst_tolerance, 2.0 * 2 * std::ldexp(1.0, -23) * 43);
  EXPECT_EQ(ElementName("C", check.worst, p.shape.n), "C[1][0]");
}

TEST(ElementCheck, ErrorWithinItsToleranceIsRounding) {
  const Product p;
  std::vector<float> got = p.c;
  got[3] = std::nextafter(got[3], 100.0f);  // one ulp of 50: 3.8e-6, below 2·2·2^-23·50
  EXPECT_TRUE(CheckElements(p.shape, p.a, p.b, got, p.c).ok());
}

TEST(ElementCheck, NanInTheResultIsBeyondAnyTolerance) {
  const Product p;
  std::vector<float> got = p.c;
  got[1] = std::numeric_limits<float>::quiet_NaN();
  const ElementCheck check = CheckElements(p.shape, p.a, p.b, got, p.c);
  EXPECT_EQ(check.beyond, 1);
  EXPECT_EQ(check.worst, 1);
  EXPECT_TRUE(std::isnan(check.max_error));
}

TEST(ElementCheck, ZeroRowMustBeExact) {
  Product p;
  p.a[0] = p.a[1] = 0;
  p.c[0] = p.c[1] = 0;
  std::vector<float> got = p.c;
  got[0] = 1e-30f;
  const ElementCheck check = CheckElements(p.shape, p.a, p.b, got, p.c);
  EXPECT_EQ(check.beyond, 1);
  EXPECT_EQ(check.worst_tolerance, 0);
}

TEST(ElementCheck, NonFiniteInputsAreNamedByMatrixAndElement) {
  Product p;
  EXPECT_FALSE(FindNonFinite(p.shape, p.a, p.b, p.c));
  p.c[3] = -std::numeric_limits<float>::infinity();
  EXPECT_EQ(FindNonFinite(p.shape, p.a, p.b, p.c), "C[1][1] = -inf");
  p.b[2] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(FindNonFinite(p.shape, p.a, p.b, p.c), "B[1][0] = nan");
  p.a[1] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FindNonFinite(p.shape, p.a, p.b, p.c), "A[0][1] = inf");
}

}  // namespace
}  // namespace kernels
