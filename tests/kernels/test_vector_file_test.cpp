#include "kernels/test_vector_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "test_vector_generator.h"

namespace kernels {
namespace {

using kernels_test::EncodeCases;
using kernels_test::GeneratedCase;
using kernels_test::MakeCase;

std::vector<GeneratedCase> ThreeCases() { return {MakeCase(4, 4, 4, 1), MakeCase(3, 5, 2, 2), MakeCase(1, 1, 1, 3)}; }

std::string WriteBytes(const std::string& name, const std::vector<unsigned char>& bytes) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(TestVectorFile, ReadsGeneratedCasesWithTheHarnessDimensionNames) {
  const std::vector<GeneratedCase> cases = ThreeCases();
  const TestVectorRead read = ReadTestVectors(WriteBytes("vectors_good.bin", EncodeCases(cases)));
  ASSERT_TRUE(read.ok()) << read.error;
  ASSERT_EQ(read.cases.size(), cases.size());
  // Case 1 is the harness's M = 3, N = 5 (inner), K = 2: A 3×5, B 5×2, C 3×2.
  const TestVectorCase& second = read.cases[1];
  EXPECT_EQ(second.shape, (Shape{3, 2, 5}));
  EXPECT_EQ(second.a, cases[1].a);
  EXPECT_EQ(second.b, cases[1].b);
  EXPECT_EQ(second.c, cases[1].c);
}

TEST(TestVectorFile, EmptyFileHasNoCases) {
  const TestVectorRead read = DecodeTestVectors({});
  EXPECT_TRUE(read.ok());
  EXPECT_TRUE(read.cases.empty());
}

TEST(TestVectorFile, TruncatedMatricesKeepEarlierCasesAndNameOffset) {
  std::vector<unsigned char> bytes = EncodeCases(ThreeCases());
  const std::size_t first_two = EncodeCases({ThreeCases()[0], ThreeCases()[1]}).size();
  bytes.resize(bytes.size() - 2);  // the last case loses half of its C
  const TestVectorRead read = DecodeTestVectors(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.cases.size(), 2u);
  EXPECT_EQ(read.error_case, 2);
  EXPECT_EQ(read.error_offset, first_two);
  EXPECT_NE(read.error.find("case 3 at byte offset " + std::to_string(first_two)), std::string::npos) << read.error;
  EXPECT_NE(read.error.find("truncated"), std::string::npos) << read.error;
}

TEST(TestVectorFile, TruncatedHeader) {
  std::vector<unsigned char> bytes = EncodeCases({MakeCase(2, 2, 2, 5)});
  const std::size_t one = bytes.size();
  bytes.insert(bytes.end(), {2, 0, 0, 0, 2, 0});
  const TestVectorRead read = DecodeTestVectors(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.cases.size(), 1u);
  EXPECT_EQ(read.error_case, 1);
  EXPECT_EQ(read.error_offset, one);
  EXPECT_NE(read.error.find("header"), std::string::npos) << read.error;
}

TEST(TestVectorFile, InconsistentSizesAreNamed) {
  std::vector<unsigned char> bytes = EncodeCases({MakeCase(2, 3, 4, 7)});
  const std::size_t one = bytes.size();
  GeneratedCase bad = MakeCase(1, 1, 1, 8);
  bad.m = -3;
  const std::vector<unsigned char> bad_bytes = EncodeCases({bad});
  bytes.insert(bytes.end(), bad_bytes.begin(), bad_bytes.end());
  const TestVectorRead read = DecodeTestVectors(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.cases.size(), 1u);
  EXPECT_EQ(read.error_offset, one);
  EXPECT_NE(read.error.find("M = -3"), std::string::npos) << read.error;

  // Sizes that promise far more data than the file holds: truncated, not a huge allocation.
  GeneratedCase huge = MakeCase(1, 1, 1, 9);
  huge.m = huge.inner = huge.cols = 2000000000;
  const TestVectorRead big = DecodeTestVectors(EncodeCases({huge}));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error.find("truncated"), std::string::npos) << big.error;
}

TEST(TestVectorFile, WriterRoundTripsAndMatchesTheGenerator) {
  std::vector<TestVectorCase> cases;
  for (const GeneratedCase& g : ThreeCases()) cases.push_back({Shape{g.m, g.cols, g.inner}, g.a, g.b, g.c});
  EXPECT_EQ(EncodeTestVectors(cases), EncodeCases(ThreeCases()));
  const std::string path = ::testing::TempDir() + "vectors_written.bin";
  ASSERT_FALSE(WriteTestVectors(path, cases));
  const TestVectorRead read = ReadTestVectors(path);
  ASSERT_TRUE(read.ok()) << read.error;
  ASSERT_EQ(read.cases.size(), 3u);
  EXPECT_EQ(read.cases[2].c, cases[2].c);
  std::remove(path.c_str());

  cases[0].c.pop_back();
  const auto error = WriteTestVectors(path, cases);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("case 1"), std::string::npos);
}

TEST(TestVectorFile, MissingFile) {
  const std::string path = ::testing::TempDir() + "no_such_vectors.bin";
  const TestVectorRead read = ReadTestVectors(path);
  EXPECT_FALSE(read.ok());
  EXPECT_EQ(read.error, path + ": cannot open: no such file");
}

// M = N = 2^30, K = 3·2^29: (M·N + N·K + M·K)·4 is 2^64, which wrapped to 0 and passed
// the size check; the reader then asked for 2^62 bytes and aborted verify.
TEST(TestVectorFile, HeaderWhoseSizesWrapIsRefused) {
  const std::int32_t header[3] = {1 << 30, 1 << 30, 3 << 29};
  std::vector<unsigned char> bytes(sizeof header);
  std::memcpy(bytes.data(), header, sizeof header);
  const TestVectorRead read = DecodeTestVectors(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(read.cases.empty());
  EXPECT_EQ(read.error,
            "case 1 at byte offset 0: truncated: M = 1073741824, N = 1073741824, K = 1610612736 needs more than 2^64 "
            "bytes of matrices");
}

TEST(TestVectorFile, EmptyFileFolderAndEndlessDeviceAreErrorsNamingThePath) {
  const std::string empty = WriteBytes("vectors_empty.bin", {});
  EXPECT_EQ(ReadTestVectors(empty).error, empty + ": no test case in it (the file is empty)");
  EXPECT_EQ(ReadTestVectors("/dev/null").error, "/dev/null: no test case in it (the file is empty)");
  const std::string folder = ::testing::TempDir();
  EXPECT_NE(ReadTestVectors(folder).error.find("it is a folder"), std::string::npos) << ReadTestVectors(folder).error;
  EXPECT_EQ(ReadTestVectors("/dev/zero").error,
            "/dev/zero: cannot read: larger than the limit of 256 MiB for this kind of file");
}

}  // namespace
}  // namespace kernels
