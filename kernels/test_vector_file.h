// test_vector_file.h — the test-vector harness's binary files: read, write, and say where a file
// goes wrong.
//
// The format, repeated to the end of the file: int32 M, N, K; then A (M×N), B (N×K) and
// the expected C (M×K), row-major float32, all little-endian. Note that the harness names the
// inner dimension N; in TileScope's Shape (C M×N = A M×K · B K×N) that is shape.k, and
// the file's K is shape.n. The conversion happens here and nowhere else.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"

namespace kernels {

struct TestVectorCase {
  Shape shape;           // TileScope's names: C (m×n) = A (m×k) · B (k×n)
  std::vector<float> a;  // m×k
  std::vector<float> b;  // k×n
  std::vector<float> c;  // m×n, the expected product
};

struct TestVectorRead {
  std::vector<TestVectorCase> cases;  // every case before the first bad one
  std::string error;                  // empty when the whole file was read
  int error_case = -1;                // 0-based position of the bad case (messages say case error_case + 1)
  std::uint64_t error_offset = 0;     // byte offset where that case (or its bad part) starts

  bool ok() const { return error.empty(); }
};

// The largest test-vector file read: a 4096³ case takes 192 MiB.
constexpr std::uint64_t kMaxTestVectorFileBytes = 256ull << 20;

TestVectorRead DecodeTestVectors(const std::vector<unsigned char>& bytes);
// Through sim::ReadInputFile: a folder, a missing or unreadable path, or a file over the
// limit is an error naming the path; so is an empty file (it holds no case to check).
TestVectorRead ReadTestVectors(const std::string& path);

std::vector<unsigned char> EncodeTestVectors(const std::vector<TestVectorCase>& cases);
std::optional<std::string> WriteTestVectors(const std::string& path, const std::vector<TestVectorCase>& cases);

}  // namespace kernels
