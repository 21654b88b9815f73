#include "test_vector_generator.h"

#include <cstring>

namespace kernels_test {
namespace {

// A small linear congruential generator: enough to vary the integers, fully reproducible.
int NextSmallInt(std::uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return static_cast<int>((state >> 16) % 9) - 4;
}

void PutInt32(std::vector<unsigned char>& out, std::int32_t value) {
  // Little-endian byte by byte, so the generator does not rely on the host's order.
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>((static_cast<std::uint32_t>(value) >> (8 * i)) & 0xFF));
}

void PutFloat(std::vector<unsigned char>& out, float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  PutInt32(out, static_cast<std::int32_t>(bits));
}

}  // namespace

GeneratedCase MakeCase(int m, int inner, int cols, std::uint32_t seed) {
  GeneratedCase c{m, inner, cols, {}, {}, {}};
  std::uint32_t state = seed;
  for (int i = 0; i < m * inner; ++i) c.a.push_back(static_cast<float>(NextSmallInt(state)));
  for (int i = 0; i < inner * cols; ++i) c.b.push_back(static_cast<float>(NextSmallInt(state)));
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < cols; ++col) {
      double sum = 0;
      for (int i = 0; i < inner; ++i) sum += static_cast<double>(c.a[row * inner + i]) * c.b[i * cols + col];
      c.c.push_back(static_cast<float>(sum));
    }
  }
  return c;
}

std::vector<unsigned char> EncodeCases(const std::vector<GeneratedCase>& cases) {
  std::vector<unsigned char> out;
  for (const GeneratedCase& c : cases) {
    PutInt32(out, c.m);
    PutInt32(out, c.inner);
    PutInt32(out, c.cols);
    for (float v : c.a) PutFloat(out, v);
    for (float v : c.b) PutFloat(out, v);
    for (float v : c.c) PutFloat(out, v);
  }
  return out;
}

}  // namespace kernels_test
