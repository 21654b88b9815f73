#include "kernels/element_check.h"

#include <cmath>

namespace kernels {
namespace {

std::optional<std::string> FirstNonFinite(const char* matrix, const std::vector<float>& values, std::int64_t cols) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return ElementName(matrix, static_cast<std::int64_t>(i), cols) + " = " + std::to_string(values[i]);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string ElementName(const char* matrix, std::int64_t index, std::int64_t cols) {
  return std::string(matrix) + "[" + std::to_string(index / cols) + "][" + std::to_string(index % cols) + "]";
}

std::optional<std::string> FindNonFinite(const Shape& shape, const std::vector<float>& a, const std::vector<float>& b,
                                         const std::vector<float>& c) {
  if (auto found = FirstNonFinite("A", a, shape.k)) return found;
  if (auto found = FirstNonFinite("B", b, shape.n)) return found;
  return FirstNonFinite("C", c, shape.n);
}

ElementCheck CheckElements(const Shape& shape, const std::vector<float>& a, const std::vector<float>& b,
                           const std::vector<float>& got, const std::vector<float>& want) {
  const std::int64_t m = shape.m, n = shape.n, k = shape.k;
  const double unit = 2.0 * static_cast<double>(k) * std::ldexp(1.0, -23);
  ElementCheck check;
  double worst_ratio = -1;
  for (std::int64_t i = 0; i < m; ++i) {
    // Σ_k |a_ik|·|b_kj| for the whole row i of C at once: B is walked row by row.
    std::vector<double> scale(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t p = 0; p < k; ++p) {
      const double a_ip = std::fabs(a[static_cast<std::size_t>(i * k + p)]);
      const float* b_row = b.data() + p * n;
      for (std::int64_t j = 0; j < n; ++j) scale[static_cast<std::size_t>(j)] += a_ip * std::fabs(b_row[j]);
    }
    for (std::int64_t j = 0; j < n; ++j) {
      const std::size_t index = static_cast<std::size_t>(i * n + j);
      const double error = std::fabs(static_cast<double>(got[index]) - static_cast<double>(want[index]));
      const double tolerance = unit * scale[static_cast<std::size_t>(j)];
      if (std::isnan(error) || std::isnan(check.max_error)) {
        check.max_error = std::nan("");
      } else if (error > check.max_error) {
        check.max_error = error;
      }
      if (error <= tolerance) continue;  // false for NaN: a NaN element is beyond
      ++check.beyond;
      // A zero tolerance (a zero row or column) makes any error infinitely far beyond it.
      const double ratio = std::isnan(error) || tolerance == 0 ? INFINITY : error / tolerance;
      if (ratio > worst_ratio) {
        worst_ratio = ratio;
        check.worst = static_cast<std::int64_t>(index);
        check.worst_error = error;
        check.worst_tolerance = tolerance;
      }
    }
  }
  return check;
}

}  // namespace kernels
