// checked_math.h — size arithmetic on values that come from outside (a file's header, a
// results row, a command line), where a product can exceed 64 bits.
//
// A wrapped size is how a 12-byte header once passed a bounds check and asked for 2^62
// bytes: sizes from outside are multiplied here, and an overflow is reported, not wrapped.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace sim {

// a·b, or nothing when it does not fit T.
template <typename T>
std::optional<T> CheckedMul(T a, T b) {
  static_assert(std::is_integral_v<T>, "sizes are integers");
  T product;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// a + b, or nothing when it does not fit T.
template <typename T>
std::optional<T> CheckedAdd(T a, T b) {
  static_assert(std::is_integral_v<T>, "sizes are integers");
  T sum;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// For counts that are shown, not used to allocate: beyond 2^64 - 1 they stay there.
inline std::uint64_t SaturatingMul(std::uint64_t a, std::uint64_t b) {
  return CheckedMul(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}
inline std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return CheckedAdd(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}

// ceil(a / b) for a ≥ 0, b ≥ 1, without the a + b − 1 that overflows near the top of T.
template <typename T>
T CeilDiv(T a, T b) {
  return a / b + (a % b != 0);
}

}  // namespace sim
