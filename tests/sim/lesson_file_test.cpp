// Lesson files: every preset survives a write and a read; unknown keys are warned about and
// skipped; a bad value names its key; broken JSON says where; the shipped
// assets/lessons/*.json are exactly the built-in presets.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/lesson_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>

namespace {

using sim::LessonConfig;

void ExpectSameFill(const sim::MatrixFill& got, const sim::MatrixFill& want, const char* which) {
  EXPECT_EQ(got.kind, want.kind) << which;
  if (want.kind == sim::FillKind::kRandom) {
    EXPECT_EQ(got.seed, want.seed) << which;
  }
  if (want.kind == sim::FillKind::kExplicit) {
    EXPECT_EQ(got.values, want.values) << which;
  }
}

// Every field a lesson runs on. `tile` means nothing to the rect kernel, nor `rect` to the
// square ones, so each is compared where it counts (through Tiles()).
void ExpectSameLesson(const LessonConfig& got, const LessonConfig& want) {
  SCOPED_TRACE(want.name);
  EXPECT_EQ(got.name, want.name);
  EXPECT_EQ(got.description, want.description);
  EXPECT_EQ(got.m, want.m);
  EXPECT_EQ(got.n, want.n);
  EXPECT_EQ(got.k, want.k);
  EXPECT_EQ(got.kernel, want.kernel);
  EXPECT_EQ(got.Tiles().tm, want.Tiles().tm);
  EXPECT_EQ(got.Tiles().tn, want.Tiles().tn);
  EXPECT_EQ(got.Tiles().tk, want.Tiles().tk);
  EXPECT_EQ(got.barrier1, want.barrier1);
  EXPECT_EQ(got.barrier2, want.barrier2);
  EXPECT_EQ(got.guard, want.guard);
  EXPECT_EQ(got.tile_count, want.tile_count);
  EXPECT_EQ(got.scheduler, want.scheduler);
  EXPECT_EQ(got.seed, want.seed);
  ExpectSameFill(got.fill_a, want.fill_a, "fill_a");
  ExpectSameFill(got.fill_b, want.fill_b, "fill_b");
}

sim::LessonLoad Parse(const std::string& text) { return sim::ParseLesson(text); }

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tilescope_lesson_test_" + name)).string();
}

TEST(LessonFile, EveryPresetRoundTrips) {
  for (const LessonConfig& preset : sim::Presets()) {
    const sim::LessonLoad load = Parse(sim::LessonToJson(preset));
    ASSERT_TRUE(load.lesson) << preset.name << ": " << load.error;
    EXPECT_TRUE(load.warnings.empty()) << preset.name;
    ExpectSameLesson(*load.lesson, preset);
  }
}

TEST(LessonFile, EveryPresetRoundTripsThroughAFile) {
  for (const LessonConfig& preset : sim::Presets()) {
    const std::string path = TempPath(preset.name + ".json");
    ASSERT_EQ(sim::WriteLessonFile(path, preset), "");
    const sim::LessonLoad load = sim::ReadLessonFile(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(load.lesson) << load.error;
    ExpectSameLesson(*load.lesson, preset);
  }
}

TEST(LessonFile, EveryFieldChangedRoundTrips) {
  LessonConfig lesson = sim::DefaultLesson();
  lesson.name = "every field";
  lesson.m = 5;
  lesson.n = 3;
  lesson.k = 7;
  lesson.kernel = sim::KernelKind::kTiledRect;
  lesson.rect = {4, 2, 3};
  lesson.barrier1 = sim::SyncKind::kSyncwarp;
  lesson.barrier2 = sim::SyncKind::kNone;
  lesson.guard = false;
  lesson.tile_count = sim::TileCount::kFloor;
  lesson.scheduler = sim::SchedulerKind::kRaceExposing;
  lesson.seed = 123456789012345ull;
  lesson.fill_a = sim::MatrixFill::Explicit(
      std::vector<float>{0.5f,  -1.25f, 3.0f,  1e-7f, 2.0f,  0.0f,  -0.0f, 7.0f,  8.0f,  9.0f,  10.0f, 11.0f,
                         12.0f, 13.0f,  14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f,
                         24.0f, 25.0f,  26.0f, 27.0f, 28.0f, 29.0f, 30.0f, 31.0f, 32.0f, 33.0f, 0.1f});
  lesson.fill_b = sim::MatrixFill::Random(99);
  const sim::LessonLoad load = Parse(sim::LessonToJson(lesson));
  ASSERT_TRUE(load.lesson) << load.error;
  ExpectSameLesson(*load.lesson, lesson);
}

TEST(LessonFile, UnknownKeysAreWarnedAndSkipped) {
  const sim::LessonLoad load =
      Parse(R"({"version": 1, "m": 8, "colour": "red", "fill_a": {"kind": "sequence", "shade": 2}})");
  ASSERT_TRUE(load.lesson) << load.error;
  EXPECT_EQ(load.lesson->m, 8);
  const std::set<std::string> warnings(load.warnings.begin(), load.warnings.end());
  EXPECT_EQ(warnings, (std::set<std::string>{"unknown key 'colour' ignored", "unknown key 'fill_a.shade' ignored"}));
}

TEST(LessonFile, BadValueNamesTheKeyAndTheValue) {
  struct Case {
    const char* json;
    std::vector<const char*> named;  // what the message must contain
  };
  const std::vector<Case> cases{
      {R"({"m": "four"})", {"m", "\"four\"", "integer"}},
      {R"({"k": 2.5})", {"k", "2.5"}},
      {R"({"n": 99999999999})", {"n", "99999999999", "out of range"}},
      {R"({"scheduler": "fast"})", {"scheduler", "'fast'", "realistic, thread, random, race"}},
      {R"({"kernel": 3})", {"kernel", "3", "tiled, rect, naive"}},
      {R"({"barrier2": "sometimes"})", {"barrier2", "'sometimes'", "syncthreads, syncwarp, off"}},
      {R"({"tiles": "round"})", {"tiles", "'round'", "ceil, floor"}},
      {R"({"guard": 1})", {"guard", "1", "true or false"}},
      {R"({"seed": -4})", {"seed", "-4"}},
      {R"({"fill_b": {"kind": "values"}})", {"fill_b", "values"}},
      {R"({"fill_a": {"kind": "values", "values": [1, "x"]}})", {"fill_a", "\"x\""}},
      {R"({"version": 7})", {"version = 7", "not supported"}},
      // The naive kernel has no barrier to switch off.
      {R"({"kernel": "naive", "barrier1": "off"})", {"barrier1", "naive kernel has none"}},
      // Values that parse but cannot run: sim::Validate() names value and limit.
      {R"({"tile": 0})", {"tile = 0", "at least 1"}},
      {R"({"tile": 64})", {"4096 threads", "1024"}},
      {R"({"m": 2, "k": 2, "fill_a": {"kind": "values", "values": [1, 2, 3]}})", {"fill_a", "3 values", "needs 4"}},
  };
  for (const Case& bad : cases) {
    const sim::LessonLoad load = Parse(bad.json);
    EXPECT_FALSE(load.lesson) << bad.json;
    for (const char* text : bad.named) {
      EXPECT_NE(load.error.find(text), std::string::npos) << bad.json << " → " << load.error << " lacks " << text;
    }
  }
}

TEST(LessonFile, TruncatedJsonSaysWhere) {
  const std::string whole = sim::LessonToJson(sim::DefaultLesson());
  // Cut at a line's end near the middle, so the parser runs out of input, whatever length
  // the lesson's strings have (a cut inside a string is a missing quote instead).
  const std::string truncated = whole.substr(0, whole.rfind('\n', whole.size() / 2) + 1);
  const sim::LessonLoad load = Parse(truncated);
  EXPECT_FALSE(load.lesson);
  EXPECT_EQ(load.error.rfind("not valid JSON", 0), 0u) << load.error;
  EXPECT_NE(load.error.find("unexpected end of input"), std::string::npos) << load.error;
  EXPECT_NE(load.error.find("line"), std::string::npos) << load.error;

  const std::string path = TempPath("truncated.json");
  std::ofstream(path) << truncated;
  const sim::LessonLoad from_file = sim::ReadLessonFile(path);
  std::filesystem::remove(path);
  EXPECT_EQ(from_file.error.rfind(path + ": not valid JSON", 0), 0u) << from_file.error;
}

TEST(LessonFile, MissingFileIsNamed) {
  const std::string path = TempPath("does_not_exist.json");
  const sim::LessonLoad load = sim::ReadLessonFile(path);
  EXPECT_FALSE(load.lesson);
  EXPECT_EQ(load.error, "lesson file " + path + ": cannot open: no such file");
}

// What --lesson and `tilescope tour LESSON` name, in the CLI and the GUI alike: a preset by its
// name, else a file by its path, else one message naming both kinds and the presets.
TEST(LessonFile, LessonOrPresetTakesThePresetThenTheFile) {
  const sim::LessonLoad preset = sim::LoadLessonOrPreset("two_barriers", sim::TourCheck::kLater);
  ASSERT_TRUE(preset.lesson) << preset.error;
  EXPECT_EQ(preset.lesson->name, "two_barriers");
  EXPECT_EQ(preset.source, "the preset lesson two_barriers");
  EXPECT_FALSE(preset.tour.empty()) << "the preset comes with its tour";

  sim::LessonConfig lesson = sim::DefaultLesson();
  lesson.name = "from_a_file";
  lesson.m = 6;
  const std::string path = TempPath("lesson_or_preset.json");
  ASSERT_EQ(sim::WriteLessonFile(path, lesson), "");
  const sim::LessonLoad file = sim::LoadLessonOrPreset(path);
  ASSERT_TRUE(file.lesson) << file.error;
  EXPECT_EQ(file.lesson->m, 6);
  EXPECT_EQ(file.source, "lesson file " + path);

  // A file named like a preset, in the working folder: the name still means the preset.
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::path(path).parent_path());
  std::filesystem::copy_file(path, "default", std::filesystem::copy_options::overwrite_existing);
  const sim::LessonLoad named = sim::LoadLessonOrPreset("default");
  std::filesystem::remove("default");
  std::filesystem::current_path(before);
  std::remove(path.c_str());
  ASSERT_TRUE(named.lesson) << named.error;
  EXPECT_EQ(named.lesson->m, sim::DefaultLesson().m);
  EXPECT_EQ(named.source, "the preset lesson default");

  const sim::LessonLoad neither = sim::LoadLessonOrPreset(TempPath("no_such_lesson.json"));
  EXPECT_FALSE(neither.lesson);
  EXPECT_EQ(neither.source, "");
  EXPECT_EQ(neither.error, "'" + TempPath("no_such_lesson.json") + "' is neither a lesson file nor a preset (" +
                               sim::PresetNames() + ")");
}

TEST(LessonFile, FolderAndEndlessDeviceAreRefusedByName) {
  const std::string folder = std::filesystem::temp_directory_path().string();
  const sim::LessonLoad from_folder = sim::ReadLessonFile(folder);
  EXPECT_FALSE(from_folder.lesson);
  EXPECT_NE(from_folder.error.find(folder + ": cannot read: it is a folder"), std::string::npos) << from_folder.error;
  const sim::LessonLoad from_zero = sim::ReadLessonFile("/dev/zero");
  EXPECT_FALSE(from_zero.lesson);
  EXPECT_NE(from_zero.error.find("/dev/zero: cannot read: larger than the limit of 64 MiB"), std::string::npos)
      << from_zero.error;
}

// The lesson fuzzer's 59 crashes: a number beyond double escaped ParseLesson as an exception.
TEST(LessonFile, NumberBeyondDoubleIsAMessageNamingThePlace) {
  const sim::LessonLoad huge = Parse("{\"version\": 1,\n \"m\": 1e400}");
  EXPECT_FALSE(huge.lesson);
  EXPECT_EQ(huge.error.rfind("not valid JSON: ", 0), 0u) << huge.error;
  EXPECT_NE(huge.error.find("1e400"), std::string::npos) << huge.error;
  EXPECT_NE(huge.error.find("at line 2"), std::string::npos) << huge.error;
  const sim::LessonLoad fuzzed = Parse("1e711e71");
  EXPECT_FALSE(fuzzed.lesson);
  EXPECT_NE(fuzzed.error.find("1e711"), std::string::npos) << fuzzed.error;
}

// 100,000 levels overflowed the stack when the message quoted the value with dump().
TEST(LessonFile, DeepNestingIsRefusedWithoutRecursing) {
  constexpr int kLevels = 100000;
  const sim::LessonLoad deep = Parse("{\"m\": " + std::string(kLevels, '[') + std::string(kLevels, ']') + "}");
  EXPECT_FALSE(deep.lesson);
  EXPECT_NE(deep.error.find("nested deeper than 64 levels"), std::string::npos) << deep.error;
  // Within the limit, the message names the value by its size instead of printing it.
  const sim::LessonLoad nested = Parse("{\"m\": [[[[[[[[1, 2]]]]]]]]}");
  EXPECT_EQ(nested.error, "m = an array of 1 value is not an integer");
  const sim::LessonLoad long_name = Parse("{\"kernel\": \"" + std::string(100000, 'x') + "\"}");
  EXPECT_LT(long_name.error.size(), 200u) << "the whole 100,000-character value was quoted";
  EXPECT_NE(long_name.error.find("kernel 'xxxx"), std::string::npos) << long_name.error;
}

TEST(LessonFile, UnsignedSizeIsQuotedAsGiven) {
  const sim::LessonLoad load = Parse(R"({"m": 18446744073709551615})");
  EXPECT_FALSE(load.lesson);
  EXPECT_EQ(load.error, "m '18446744073709551615' is out of range: the limit is 65536");
  EXPECT_EQ(Parse(R"({"k": 2147483648})").error, "k '2147483648' is out of range: the limit is 65536");
  EXPECT_EQ(Parse(R"({"n": -2147483649})").error, "n '-2147483649' is out of range: the limit is 65536");
}

TEST(LessonFile, ValueBeyondFloatIsRefusedByKey) {
  const sim::LessonLoad load = Parse(R"({"m": 1, "k": 2, "fill_a": {"kind": "values", "values": [1, -1e39]}})");
  EXPECT_FALSE(load.lesson);
  EXPECT_EQ(load.error, "fill_a.values[1] = -1e+39 is beyond the float range (largest 3.40282e+38)");
}

// An inf value once saved as null, reported done, and the file could not be opened again.
TEST(LessonFile, NonFiniteValueIsRefusedAndNotSaved) {
  LessonConfig lesson = sim::DefaultLesson();
  lesson.m = 1;
  lesson.k = 2;
  lesson.fill_a = sim::MatrixFill::Explicit({1.0f, std::numeric_limits<float>::infinity()});
  const auto invalid = sim::Validate(lesson);
  ASSERT_TRUE(invalid);
  EXPECT_EQ(invalid->field, "fill_a");
  EXPECT_EQ(invalid->message, "fill_a.values[1] = inf is not a finite number");
  const std::string path = TempPath("infinite.json");
  std::filesystem::remove(path);
  const std::string error = sim::WriteLessonFile(path, lesson);
  EXPECT_EQ(error, "not saved to " + path + ": fill_a.values[1] = inf is not a finite number");
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(LessonFile, ShippedLessonsAreThePresets) {
  const std::filesystem::path folder = std::filesystem::path(TILESCOPE_SOURCE_DIR) / "assets" / "lessons";
  std::set<std::string> shipped;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    const sim::LessonLoad load = sim::ReadLessonFile(entry.path().string());
    ASSERT_TRUE(load.lesson) << load.error;
    EXPECT_TRUE(load.warnings.empty()) << entry.path();
    EXPECT_EQ(load.lesson->name + ".json", entry.path().filename().string());
    shipped.insert(load.lesson->name);
    bool matched = false;
    for (const LessonConfig& preset : sim::Presets()) {
      if (preset.name != load.lesson->name) continue;
      ExpectSameLesson(*load.lesson, preset);
      matched = true;
    }
    EXPECT_TRUE(matched) << entry.path() << " is not a preset";
  }
  for (const LessonConfig& preset : sim::Presets())
    EXPECT_EQ(shipped.count(preset.name), 1u) << preset.name << " not shipped";
}

TEST(LessonFile, DefaultLessonIsTheWalkthroughExercisesProduct) {
  const LessonConfig lesson = sim::DefaultLesson();
  EXPECT_EQ(lesson.m, 4);
  EXPECT_EQ(lesson.n, 4);
  EXPECT_EQ(lesson.k, 4);
  EXPECT_EQ(lesson.tile, 2);
  EXPECT_EQ(lesson.kernel, sim::KernelKind::kTiled);
  EXPECT_EQ(lesson.fill_a.kind, sim::FillKind::kSequence);
  EXPECT_EQ(lesson.fill_b.kind, sim::FillKind::kSequence);
  EXPECT_FALSE(sim::Validate(lesson));
  for (const LessonConfig& preset : sim::Presets()) EXPECT_FALSE(sim::Validate(preset)) << preset.name;
}

// Issue 32: a fill whose kind is not a name was read as a sequence; -0 (zero) was refused
// as "0 is not a non-negative integer".
TEST(LessonFile, AFillKindThatIsNotANameIsRefusedAndMinusZeroIsZero) {
  const sim::LessonLoad kind = Parse(R"({"fill_a": {"kind": 5}})");
  EXPECT_FALSE(kind.lesson);
  EXPECT_NE(kind.error.find("fill_a.kind = 5 is not a name"), std::string::npos) << kind.error;
  const sim::LessonLoad seed = Parse(R"({"seed": -0, "fill_b": {"kind": "random", "seed": -0}})");
  ASSERT_TRUE(seed.lesson) << seed.error;
  EXPECT_EQ(seed.lesson->seed, 0u);
  EXPECT_EQ(seed.lesson->fill_b.seed, 0u);
  EXPECT_FALSE(Parse(R"({"seed": -1})").lesson);
}

}  // namespace

namespace {

// A 60 MB name once took 16 s to start and 0.56 s a frame (issue 32): the texts a lesson shows
// are bounded by themselves, and the limit is named.
TEST(LessonFile, LongNamesAndTextsAreRefusedNamingTheLimit) {
  const std::string long_name(sim::kMaxLessonNameBytes + 1, 'x');
  const sim::LessonLoad name = sim::ParseLesson(R"({"version": 2, "name": ")" + long_name + "\"}");
  EXPECT_FALSE(name.lesson);
  EXPECT_NE(name.error.find("name is 201 bytes long; a lesson's name is at most 200"), std::string::npos) << name.error;
  const std::string fits(sim::kMaxLessonNameBytes, 'x');
  EXPECT_TRUE(sim::ParseLesson(R"({"version": 2, "name": ")" + fits + "\"}").lesson);
  const std::string long_text(sim::kMaxLessonTextBytes + 1, 'y');
  const sim::LessonLoad description = sim::ParseLesson(R"({"version": 2, "description": ")" + long_text + "\"}");
  EXPECT_FALSE(description.lesson);
  EXPECT_NE(description.error.find("at most 16384"), std::string::npos) << description.error;
}

}  // namespace

// The lesson list names the curriculum by its teaching order and each file's title, which a
// file keeps through a save.
TEST(LessonFile, CurriculumLessonsHaveHeadingsFromTheirTitles) {
  const std::vector<std::string> curriculum = sim::CurriculumNames();
  std::set<std::string> titles;
  for (std::size_t i = 0; i < curriculum.size(); ++i) {
    const std::optional<sim::LessonConfig> lesson = sim::FindPreset(curriculum[i]);
    ASSERT_TRUE(lesson) << curriculum[i];
    EXPECT_FALSE(lesson->title.empty()) << curriculum[i] << " has no title";
    EXPECT_TRUE(titles.insert(lesson->title).second) << "two lessons called " << lesson->title;
    EXPECT_EQ(sim::LessonHeading(*lesson), std::to_string(i + 1) + " \u00B7 " + lesson->title);
    EXPECT_EQ(lesson->description.rfind("Lesson ", 0), std::string::npos)
        << "the number is the list's, not typed again in the description: " << lesson->description;
  }
  const std::optional<sim::LessonConfig> other = sim::FindPreset("naive");
  ASSERT_TRUE(other);
  EXPECT_EQ(sim::LessonHeading(*other), "naive");
  sim::LessonConfig titled = sim::DefaultLesson();
  const sim::LessonLoad again = sim::ParseLesson(sim::LessonToJson(titled));
  ASSERT_TRUE(again.lesson) << again.error;
  EXPECT_EQ(again.lesson->title, titled.title);
  EXPECT_EQ(sim::LessonHeading(sim::DefaultLesson()).rfind("1 \u00B7 ", 0), 0u);
}
