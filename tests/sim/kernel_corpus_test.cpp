// The corpus of student kernels (tests/corpus, its README says the format): each file checked
// on the model as `tilescope check` checks it, its findings against the ones it expects.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/lesson/kernel_check.h"

namespace sim {
namespace {

std::string CorpusDir() { return std::string(TILESCOPE_SOURCE_DIR) + "/tests/corpus"; }

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(CorpusDir())) {
    if (entry.path().extension() == ".cu") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// A finding as the expectations write it: "race shared RAW 17 12", "out_of_bounds global - 9 0".
std::string Key(const std::string& kind, const std::string& memory, const std::string& hazard, int line, int other) {
  return kind + " " + (memory.empty() ? "-" : memory) + " " + (hazard.empty() ? "-" : hazard) + " " + std::to_string(line) + " " +
         std::to_string(other);
}

struct Expected {
  std::optional<bool> c_right;
  std::set<std::string> errors;
  std::set<std::string> warnings;
  KernelCheckOptions options;
};

Expected ReadExpectations(const std::string& text) {
  std::map<std::string, int> markers;
  std::istringstream lines(text);
  int number = 0;
  std::vector<std::string> expect_lines;
  Expected e;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::size_t at = line.find("// @");
    if (at != std::string::npos) markers[Words(line.substr(at + 4))[0]] = number;
    if (line.rfind("// expect", 0) == 0) expect_lines.push_back(line);
    if (line.rfind("// check:", 0) == 0) {
      for (const std::string& w : Words(line.substr(9))) {
        const std::string value = w.substr(w.find('=') + 1);
        if (w.rfind("sizes=", 0) == 0) e.options.sizes.push_back({std::stoi(value), std::stoi(value), std::stoi(value)});
        // As `check --block` reads it: a 1-D block (block=128) is 128x1x1.
        if (w.rfind("block=", 0) == 0) e.options.block = ParseExtents(value, 'x');
        if (w.rfind("grid=", 0) == 0) {
          std::istringstream axes(value);
          std::string axis;
          for (std::size_t d = 0; d < 3 && std::getline(axes, axis, ','); ++d) e.options.grid[d] = axis;
        }
      }
    }
  }
  const auto line_of = [&](const std::string& w) { return w == "-" ? 0 : markers.at(w.substr(1)); };
  for (const std::string& line : expect_lines) {
    const bool warning = line.rfind("// expect warning:", 0) == 0;
    std::vector<std::string> w = Words(line.substr(line.find(':') + 1));
    if (w.size() == 2 && w[0] == "C") {
      e.c_right = w[1] == "right";
      continue;
    }
    const std::string key = Key(w[0], w[1] == "-" ? "" : w[1], w[2] == "-" ? "" : w[2], line_of(w[3]), w.size() > 4 ? line_of(w[4]) : 0);
    (warning ? e.warnings : e.errors).insert(key);
  }
  return e;
}

TEST(CorpusFlags, AOneDimensionalBlockIsOneRowOfThreads) {
  const Expected e = ReadExpectations("// check: block=128 grid=8,1,1\n// expect: C right\n");
  ASSERT_TRUE(e.options.block.has_value());
  EXPECT_EQ(*e.options.block, (std::array<int, 3>{128, 1, 1}));
  EXPECT_EQ(e.options.grid[0], "8");
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, FindsWhatTheFileExpects) {
  std::ifstream in(CorpusDir() + "/" + GetParam());
  std::stringstream text;
  text << in.rdbuf();
  const Expected expected = ReadExpectations(text.str());
  ASSERT_TRUE(expected.c_right.has_value()) << "each corpus file says whether C is right";
  const cuda::FrontEndResult compiled = cuda::CompileKernelFile(text.str(), GetParam(), {});
  ASSERT_FALSE(compiled.problem) << compiled.problem->Text();
  const KernelCheckResult result = CheckKernel(*compiled.file, expected.options);
  ASSERT_TRUE(result.report) << result.error;
  bool c_right = true;
  for (const CheckRun& run : result.report->runs) c_right = c_right && run.wrong_elements == 0;
  EXPECT_EQ(c_right, *expected.c_right);
  std::set<std::string> errors, warnings;
  for (const CheckFinding& f : result.report->findings) {
    (f.error ? errors : warnings).insert(Key(Name(f.kind), f.memory, f.hazard, f.line, f.other_line));
    EXPECT_GT(f.count, 0u);
    EXPECT_FALSE(f.sentence.empty());
  }
  EXPECT_EQ(errors, expected.errors);
  EXPECT_EQ(warnings, expected.warnings);
  EXPECT_EQ(result.report->Passed(), *expected.c_right && expected.errors.empty());
}

INSTANTIATE_TEST_SUITE_P(StudentKernels, Corpus, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 3);
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace sim
