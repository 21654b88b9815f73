// lesson_file.h — lessons as JSON files (assets/lessons/*.json), versioned.
//
// Unknown keys are reported as warnings and skipped, so a newer file still opens; a bad
// value stops the load with a message naming the key, the value and what is allowed.
// Reading goes through sim::ReadInputFile (size limit, folders refused) and
// sim::ParseJsonText (depth limit, no exception escapes); writing through sim::AtomicFile,
// so a crash never leaves half a file.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson_config.h"

namespace sim {

constexpr int kLessonFileVersion = 1;
// The largest lesson file read: the presets take about 600 bytes; a lesson with explicit
// 1024×1024 A and B values takes about 20 MiB.
constexpr std::uint64_t kMaxLessonFileBytes = 64ull << 20;

struct LessonLoad {
  std::optional<LessonConfig> lesson;  // set when it loaded
  std::vector<std::string> warnings;   // e.g. "unknown key 'colour' ignored"
  std::string error;                   // why it did not load
};

LessonLoad ParseLesson(const std::string& json_text);
LessonLoad ReadLessonFile(const std::string& path);
std::string LessonToJson(const LessonConfig& lesson);
// Returns an empty string on success, otherwise what went wrong. A lesson Validate()
// refuses is not written (it could not be opened again).
std::string WriteLessonFile(const std::string& path, const LessonConfig& lesson);

// The built-in lessons, also shipped as assets/lessons/<name>.json: the default lesson,
// 8×8×8 with TILE 4, the padded M=6, N=5, K=7 with TILE 4, a rectangular-tile case, the
// naive kernel for contrast, and a race-lab lesson with eight warps per block.
std::vector<LessonConfig> Presets();
LessonConfig DefaultLesson();
// The preset of that name, or nothing.
std::optional<LessonConfig> FindPreset(const std::string& name);
// "default, tile4_8x8x8, ...": for help and messages.
std::string PresetNames();

}  // namespace sim
