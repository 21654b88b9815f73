// element_check.h — whether a computed C is right, element by element (`tilescope verify`).
//
// One tolerance for the whole matrix, 2·K·2^-23·max|A|·max|B|, let a single 1e30 in A hide
// an error of 1.2·10^4 elsewhere, and an inf in A or B made it inf, so anything passed.
// Here each element of C gets its own bound from its own row of A and column of B: the
// rounding of a K-term float sum of products is at most about K·2^-24·Σ_k |a_ik|·|b_kj|,
// taken twice for margin. Non-finite inputs are refused before any comparison.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"

namespace kernels {

// The first inf or NaN in A (M×K), B (K×N) or the expected C (M×N), as "A[1][3] = inf",
// or nothing when every value is finite.
std::optional<std::string> FindNonFinite(const Shape& shape, const std::vector<float>& a, const std::vector<float>& b,
                                         const std::vector<float>& c);

struct ElementCheck {
  std::int64_t beyond = 0;  // elements off by more than their own tolerance (NaN included)
  double max_error = 0;     // the largest |got - want| (NaN when one is NaN)
  std::int64_t worst = -1;  // the element furthest beyond its tolerance, row-major; -1: none
  double worst_error = 0;   // its |got - want|
  double worst_tolerance = 0;

  bool ok() const { return beyond == 0; }
};

// Compares `got` with `want` (both M×N) for C = A·B with finite A and B.
ElementCheck CheckElements(const Shape& shape, const std::vector<float>& a, const std::vector<float>& b,
                           const std::vector<float>& got, const std::vector<float>& want);

// The rule in words, for verify's header line.
constexpr const char* kElementToleranceRule = "2*K*2^-23*sum_k |A[i][k]|*|B[k][j]|";

// "C[2][5]" for element `index` of a matrix `cols` wide.
std::string ElementName(const char* matrix, std::int64_t index, std::int64_t cols);

}  // namespace kernels
