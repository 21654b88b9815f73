// write_test_vectors — the files the `tilescope verify` CLI tests read, written from the
// generator (small integers, C in double: never through sim/, never copied data).
//
//   write_test_vectors DIR   creates DIR and writes the files below into it
//
// good.bin: four cases, every C exact. bad_c.bin: the same with one element of case 2's C
// off by one. truncated.bin: the same with case 4 cut in the middle of its C, so the
// reader stops at case 4, at the byte offset where it starts (after cases 1–3).
// Cases count from 1, as everywhere in TileScope.
// nonfinite.bin: good.bin with an inf in case 2's A. hidden_error.bin: one 2×2×2 case whose
// A holds 1e30 in row 0 and whose C is off by 1.2e4 in row 1 (a tolerance scaled by
// max|A| once let that pass).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "test_vector_generator.h"

namespace {

bool Write(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (out) return true;
  std::fprintf(stderr, "write_test_vectors: cannot write %s\n", path.c_str());
  return false;
}

}  // namespace

constexpr const char* kUsage = "usage: write_test_vectors DIR   (writes DIR/good.bin, bad_c.bin, truncated.bin)\n";

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("%s", kUsage);
    return 0;
  }
  // A folder name never starts with '-' here: such an argument is a flag this program lacks.
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "write_test_vectors: %s%s", argc == 2 ? "unknown option: " : "", argc == 2 ? argv[1] : "");
    std::fprintf(stderr, "%s%s", argc == 2 ? "\n" : "", kUsage);
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  // The harness's M, N (inner), K: square, the lesson's 4×4, an odd shape with N ≠ K, a 1×1.
  const std::vector<kernels_test::GeneratedCase> cases = {
      kernels_test::MakeCase(4, 4, 4, 1), kernels_test::MakeCase(3, 5, 2, 2), kernels_test::MakeCase(37, 53, 29, 3),
      kernels_test::MakeCase(1, 1, 1, 4)};

  std::vector<kernels_test::GeneratedCase> bad = cases;
  bad[1].c[2] += 1.0f;

  std::vector<unsigned char> truncated = kernels_test::EncodeCases(cases);
  // Case 3 (1×1×1) holds 12 header bytes and three floats: drop the last two bytes of C.
  truncated.resize(truncated.size() - 2);

  std::vector<kernels_test::GeneratedCase> nonfinite = cases;
  nonfinite[1].a[1] = std::numeric_limits<float>::infinity();

  kernels_test::GeneratedCase hidden = kernels_test::MakeCase(2, 2, 2, 5);
  hidden.a[0] = 1e30f;
  for (int j = 0; j < 2; ++j) {  // row 0 of C again, in double as the generator computes it
    hidden.c[j] = static_cast<float>(double(hidden.a[0]) * hidden.b[j] + double(hidden.a[1]) * hidden.b[2 + j]);
  }
  hidden.c[2] += 1.2e4f;

  const bool ok = Write(dir + "/good.bin", kernels_test::EncodeCases(cases)) &&
                  Write(dir + "/bad_c.bin", kernels_test::EncodeCases(bad)) &&
                  Write(dir + "/truncated.bin", truncated) &&
                  Write(dir + "/nonfinite.bin", kernels_test::EncodeCases(nonfinite)) &&
                  Write(dir + "/hidden_error.bin", kernels_test::EncodeCases({hidden}));
  if (ok)
    std::printf("case 3 starts at byte offset %zu\n", kernels_test::EncodeCases({cases[0], cases[1], cases[2]}).size());
  return ok ? 0 : 1;
}
