// Test-vector files (the test-vector harness's format): any bytes decode or stop at a named
// case, never a crash or a huge allocation; the cases read re-encode to exactly the bytes
// they came from.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_check.h"
#include "kernels/test_vector_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  const kernels::TestVectorRead read = kernels::DecodeTestVectors(bytes);
  const std::vector<unsigned char> again = kernels::EncodeTestVectors(read.cases);
  // A whole read re-encodes to the file; a read that stopped, to the bytes before the bad case.
  const std::size_t good = read.ok() ? size : static_cast<std::size_t>(read.error_offset);
  FUZZ_CHECK(good <= size, "the bad case starts inside the file");
  FUZZ_CHECK(again.size() == good && std::equal(again.begin(), again.end(), bytes.begin()),
             "the cases read re-encode to the bytes they came from");
  return 0;
}
