#include "kernels/test_vector_file.h"

#include <cstring>
#include <limits>

#include "sim/io/atomic_file.h"
#include "sim/model/checked_math.h"
#include "sim/io/input_file.h"

// The format is little-endian; on such hosts the bytes are the values. TileScope targets
// x86-64 and little-endian Arm only.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "test_vector_file.cpp assumes a little-endian host"
#endif

namespace kernels {
namespace {

constexpr std::uint64_t kHeaderBytes = 3 * sizeof(std::int32_t);

// Cases count from 1 in every message and view; `index` is the 0-based position.
std::string Where(int index, std::uint64_t offset) {
  return "case " + std::to_string(index + 1) + " at byte offset " + std::to_string(offset);
}

void Fail(TestVectorRead& read, int index, std::uint64_t offset, const std::string& what) {
  read.error = Where(index, offset) + ": " + what;
  read.error_case = index;
  read.error_offset = offset;
}

std::vector<float> Floats(const unsigned char* data, std::uint64_t count) {
  std::vector<float> values(static_cast<std::size_t>(count));
  std::memcpy(values.data(), data, static_cast<std::size_t>(count) * sizeof(float));
  return values;
}

template <typename T>
void Append(std::vector<unsigned char>& bytes, const T* values, std::size_t count) {
  const auto* raw = reinterpret_cast<const unsigned char*>(values);
  bytes.insert(bytes.end(), raw, raw + count * sizeof(T));
}

// Bytes of matrices a case of these sizes holds, or nothing when that exceeds 64 bits
// (M = N = 2^30, K = 3·2^29 once wrapped to 0 and passed the check below).
std::optional<std::uint64_t> MatrixBytes(std::uint64_t a_count, std::uint64_t b_count, std::uint64_t c_count) {
  const auto sum = sim::CheckedAdd(a_count, b_count);
  const auto all = sum ? sim::CheckedAdd(*sum, c_count) : std::nullopt;
  return all ? sim::CheckedMul<std::uint64_t>(*all, sizeof(float)) : std::nullopt;
}

TestVectorRead Decode(const unsigned char* bytes, std::uint64_t size) {
  TestVectorRead read;
  std::uint64_t offset = 0;
  for (int index = 0; offset < size; ++index) {
    if (size - offset < kHeaderBytes) {
      Fail(read, index, offset,
           "truncated header: " + std::to_string(size - offset) + " of " + std::to_string(kHeaderBytes) + " bytes");
      return read;
    }
    std::int32_t dims[3];
    std::memcpy(dims, bytes + offset, sizeof dims);
    const std::int32_t m = dims[0], inner = dims[1], cols = dims[2];  // the harness's M, N, K
    if (m <= 0 || inner <= 0 || cols <= 0) {
      Fail(read, index, offset,
           "inconsistent sizes M = " + std::to_string(m) + ", N = " + std::to_string(inner) +
               ", K = " + std::to_string(cols) + " (each must be at least 1)");
      return read;
    }
    const std::uint64_t a_count = std::uint64_t(m) * std::uint64_t(inner);
    const std::uint64_t b_count = std::uint64_t(inner) * std::uint64_t(cols);
    const std::uint64_t c_count = std::uint64_t(m) * std::uint64_t(cols);
    const std::optional<std::uint64_t> needed = MatrixBytes(a_count, b_count, c_count);
    const std::uint64_t left = size - offset - kHeaderBytes;
    const std::string sizes =
        "M = " + std::to_string(m) + ", N = " + std::to_string(inner) + ", K = " + std::to_string(cols);
    if (!needed) {
      Fail(read, index, offset, "truncated: " + sizes + " needs more than 2^64 bytes of matrices");
      return read;
    }
    if (*needed > left) {
      Fail(read, index, offset,
           "truncated: " + sizes + " needs " + std::to_string(*needed) + " bytes of matrices, " + std::to_string(left) +
               " remain");
      return read;
    }
    const unsigned char* data = bytes + offset + kHeaderBytes;
    TestVectorCase entry;
    entry.shape = {m, cols, inner};
    entry.a = Floats(data, a_count);
    entry.b = Floats(data + a_count * sizeof(float), b_count);
    entry.c = Floats(data + (a_count + b_count) * sizeof(float), c_count);
    read.cases.push_back(std::move(entry));
    offset += kHeaderBytes + *needed;
  }
  return read;
}

}  // namespace

TestVectorRead DecodeTestVectors(const std::vector<unsigned char>& bytes) { return Decode(bytes.data(), bytes.size()); }

TestVectorRead ReadTestVectors(const std::string& path) {
  const sim::InputFile file = sim::ReadInputFile(path, kMaxTestVectorFileBytes);
  TestVectorRead read;
  if (!file.ok()) {
    read.error = file.error;
  } else if (file.bytes.empty()) {
    // Zero cases is a valid encoding, but a file that holds none is never what was meant:
    // verify once reported "0 passed" on /dev/null and exited 0.
    read.error = path + ": no test case in it (the file is empty)";
  } else {
    read = Decode(reinterpret_cast<const unsigned char*>(file.bytes.data()), file.bytes.size());
    if (!read.ok()) read.error = path + ": " + read.error;
  }
  return read;
}

std::vector<unsigned char> EncodeTestVectors(const std::vector<TestVectorCase>& cases) {
  std::vector<unsigned char> bytes;
  for (const TestVectorCase& entry : cases) {
    // The harness's order: M, then the inner dimension, then C's columns.
    const std::int32_t dims[3] = {static_cast<std::int32_t>(entry.shape.m), static_cast<std::int32_t>(entry.shape.k),
                                  static_cast<std::int32_t>(entry.shape.n)};
    Append(bytes, dims, 3);
    Append(bytes, entry.a.data(), entry.a.size());
    Append(bytes, entry.b.data(), entry.b.size());
    Append(bytes, entry.c.data(), entry.c.size());
  }
  return bytes;
}

std::optional<std::string> WriteTestVectors(const std::string& path, const std::vector<TestVectorCase>& cases) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Shape& s = cases[i].shape;
    const bool fits = s.m >= 1 && s.n >= 1 && s.k >= 1 && s.m <= std::numeric_limits<std::int32_t>::max() &&
                      s.n <= std::numeric_limits<std::int32_t>::max() &&
                      s.k <= std::numeric_limits<std::int32_t>::max();
    if (!fits || cases[i].a.size() != std::size_t(s.m * s.k) || cases[i].b.size() != std::size_t(s.k * s.n) ||
        cases[i].c.size() != std::size_t(s.m * s.n)) {
      return "case " + std::to_string(i + 1) + ": matrices do not match the shape " + ToString(s);
    }
  }
  const std::vector<unsigned char> bytes = EncodeTestVectors(cases);
  return sim::WriteFileAtomically(path, std::string(bytes.begin(), bytes.end()));
}

}  // namespace kernels
