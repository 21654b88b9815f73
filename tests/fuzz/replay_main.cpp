// replay_main.cpp — runs a fuzz target on files, without libFuzzer: the regression inputs
// under tests/fuzz/regressions and the seed files run in every build (g++ included) as
// CTest tests, and a property that fails aborts as it does under the fuzzer.
//   fuzz_NAME_replay FILE_OR_FOLDER...
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool Replay(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("%s (%zu bytes)\n", path.c_str(), bytes.size());
  std::fflush(stdout);  // the name is out before an abort
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("usage: %s FILE_OR_FOLDER...   (runs the fuzz target on each file, without libFuzzer)\n", argv[0]);
    return 0;
  }
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    // The inputs are files under tests/ and build/, never named with a leading '-'.
    if (argv[i][0] == '-') {
      std::fprintf(stderr, "%s: unknown option %s (usage: FILE_OR_FOLDER...)\n", argv[0], argv[i]);
      return 2;
    }
    const std::filesystem::path path = argv[i];
    if (!std::filesystem::is_directory(path)) {
      if (!Replay(path)) return 2;
      ++replayed;
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      if (!entry.is_regular_file()) continue;
      if (!Replay(entry.path())) return 2;
      ++replayed;
    }
  }
  std::printf("replayed %d inputs\n", replayed);
  // No input at all is a mistake in the test's arguments, not a pass.
  return replayed > 0 ? 0 : 2;
}
