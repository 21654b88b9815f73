// test_vector_generator.h — test cases for the test-vector harness's format, made here
// from small integers with C computed in double precision: exact in float, and independent of both
// the model (sim/) and the code under test. Never copied data.
#pragma once
#include <cstdint>
#include <vector>

namespace kernels_test {

struct GeneratedCase {
  int m = 0;      // the harness's M: rows of A and C
  int inner = 0;  // the harness's N: columns of A, rows of B
  int cols = 0;   // the harness's K: columns of B and C
  std::vector<float> a, b, c;
};

// A (m×inner) and B (inner×cols) hold integers in [-4, 4] from `seed`; C = A·B in double.
GeneratedCase MakeCase(int m, int inner, int cols, std::uint32_t seed);

// The file's bytes, encoded here (not by the writer under test): int32 M, N, K, then A,
// B, C as little-endian float32, per case.
std::vector<unsigned char> EncodeCases(const std::vector<GeneratedCase>& cases);

}  // namespace kernels_test
