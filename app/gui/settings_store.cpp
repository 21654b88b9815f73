#include "app/gui/settings_store.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "app/gui/imgui_layout_check.h"
#include "app/gui/progress_merge.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/io/json_input.h"
#include "sim/lesson/lesson_file.h"

namespace gui {
namespace {

constexpr int kSettingsVersion = 1;
constexpr const char* kFileName = "settings.json";
constexpr const char* kLessonFileName = "last-lesson.json";
// settings.json's "last_lesson" when the lesson is kept in kLessonFileName: the file's name
// only, never a path read back from the file, so a hand-edited entry reaches nothing else.
constexpr const char* kKeptInKey = "kept_in";
constexpr const char* kBadSuffix = ".bad";

// Settings are read key by key: one key of the wrong type (a hand edit, an older version)
// costs that key alone, never the layout and the last lesson beside it.

void ReadIfPresent(const nlohmann::json& json, const std::string& where, const char* key, bool& value,
                   std::vector<std::string>& problems) {
  if (!json.contains(key)) return;
  if (json.at(key).is_boolean()) {
    value = json.at(key).get<bool>();
  } else {
    problems.push_back("'" + where + key + "' is " + sim::DescribeJsonValue(json.at(key)) + ", not true or false");
  }
}

void ReadIfPresent(const nlohmann::json& json, const std::string& where, const char* key, std::string& value,
                   std::vector<std::string>& problems) {
  if (!json.contains(key)) return;
  if (json.at(key).is_string()) {
    value = json.at(key).get<std::string>();
  } else {
    problems.push_back("'" + where + key + "' is " + sim::DescribeJsonValue(json.at(key)) + ", not a string");
  }
}

// A number is checked against T's range as a double before it is converted: the JSON
// library's own get<int>() casts 1e300 unchecked, which is undefined behaviour.
template <typename T>
void ReadIfPresent(const nlohmann::json& json, const std::string& where, const char* key, T& value,
                   std::vector<std::string>& problems) {
  static_assert(std::is_arithmetic_v<T>);
  if (!json.contains(key)) return;
  const nlohmann::json& given = json.at(key);
  const double number = given.is_number() ? given.get<double>() : 0.0;
  const bool integral_ok = !std::is_integral_v<T> || (given.is_number_integer() &&
                                                       number >= static_cast<double>(std::numeric_limits<T>::min()) &&
                                                       number <= static_cast<double>(std::numeric_limits<T>::max()));
  const bool float_ok = !std::is_floating_point_v<T> || std::fabs(number) <= std::numeric_limits<T>::max();
  if (given.is_number() && integral_ok && float_ok) {
    value = static_cast<T>(number);
  } else {
    problems.push_back("'" + where + key + "' is " + sim::DescribeJsonValue(given) + ", not " +
                       (std::is_integral_v<T> ? "a whole number in range" : "a number in range"));
  }
}

}  // namespace

SettingsStore::SettingsStore(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::filesystem::path SettingsStore::DefaultDirectory() {
  const auto absolute = [](const char* name) {
    const char* value = std::getenv(name);
    return value && value[0] == '/' ? std::optional<std::filesystem::path>(value) : std::nullopt;
  };
  if (auto xdg = absolute("XDG_CONFIG_HOME")) return *xdg / "tilescope";
  if (auto home = absolute("HOME")) return *home / ".config" / "tilescope";
  return {};
}

std::filesystem::path SettingsStore::File() const { return directory_ / kFileName; }

std::filesystem::path SettingsStore::LessonFile() const { return directory_ / kLessonFileName; }

std::optional<std::string> SettingsStore::KeepLesson(const nlohmann::json& lesson, nlohmann::json& entry,
                                                     std::string* note) {
  std::string text = lesson.is_null() ? std::string() : lesson.dump();
  std::error_code ec;
  if (text.size() <= kMaxInlineLessonBytes) {
    // Kept inside again: a big lesson kept beside before is this store's own file, now stale.
    if (!lesson_file_text_.empty() && std::filesystem::is_regular_file(LessonFile(), ec)) {
      std::filesystem::remove(LessonFile(), ec);
    }
    lesson_file_text_.clear();
    return std::nullopt;
  }
  if (text.size() > sim::kMaxLessonFileBytes) {
    entry = nullptr;
    if (note) {
      *note += std::string(note->empty() ? "" : "; ") + "the running lesson (" + std::to_string(text.size() >> 20) +
               " MiB as JSON) is over a lesson file's " + std::to_string(sim::kMaxLessonFileBytes >> 20) +
               " MiB and is not kept: the next start opens the default lesson";
    }
    return std::nullopt;
  }
  if (text != lesson_file_text_) {
    if (auto error = sim::WriteFileAtomically(LessonFile().string(), text + "\n")) return error;
    lesson_file_text_ = std::move(text);
  }
  entry = {{kKeptInKey, kLessonFileName}};
  return std::nullopt;
}

nlohmann::json SettingsStore::ReadKeptLesson(const nlohmann::json& entry, std::string& warning) {
  if (!entry.is_object() || entry.size() != 1 || !entry.contains(kKeptInKey)) return entry;
  if (entry[kKeptInKey] != kLessonFileName) {
    warning = "the last lesson is said to be kept in " + sim::DescribeJsonValue(entry[kKeptInKey]) + ", not " +
              kLessonFileName + "; the default lesson opens";
    return nullptr;
  }
  const sim::InputFile file = sim::ReadInputFile(LessonFile().string(), sim::kMaxLessonFileBytes);
  sim::JsonDocument document;
  if (file.ok()) document = sim::ParseJsonText(file.bytes);
  if (!file.ok() || !document.ok()) {
    warning = "the last lesson, kept in " + LessonFile().string() + ", could not be read (" +
              (file.ok() ? document.error : file.error) + "); the default lesson opens";
    return nullptr;
  }
  lesson_file_text_ = document.value.dump();  // as Save would write it: unchanged, not written again
  return document.value;
}

nlohmann::json ToJsonWithoutLesson(const Settings& s) {
  return {{"version", kSettingsVersion},
          {"window", {{"width", s.window_width}, {"height", s.window_height}}},
          {"presentation", s.presentation},
          {"font_size", s.font_size},
          {"imgui_layout", s.imgui_layout},
          {"panels", s.panels}};
}

nlohmann::json ToJson(const Settings& s) {
  nlohmann::json json = ToJsonWithoutLesson(s);
  json["last_lesson"] = s.last_lesson;
  return json;
}

Settings SettingsFromJson(const nlohmann::json& json, std::vector<std::string>& problems) {
  Settings s;
  if (!json.is_object()) {
    problems.push_back("the file holds " + sim::DescribeJsonValue(json) + ", not an object");
    return s;
  }
  if (json.contains("window")) {
    if (json.at("window").is_object()) {
      ReadIfPresent(json.at("window"), "window.", "width", s.window_width, problems);
      ReadIfPresent(json.at("window"), "window.", "height", s.window_height, problems);
    } else {
      problems.push_back("'window' is " + sim::DescribeJsonValue(json.at("window")) + ", not an object");
    }
  }
  ReadIfPresent(json, "", "presentation", s.presentation, problems);
  ReadIfPresent(json, "", "font_size", s.font_size, problems);
  ReadIfPresent(json, "", "imgui_layout", s.imgui_layout, problems);
  if (auto problem = CheckImGuiLayout(s.imgui_layout)) {
    problems.push_back(*problem + "; using the default layout");
    s.imgui_layout.clear();
  }
  if (json.contains("last_lesson")) s.last_lesson = json.at("last_lesson");
  if (json.contains("panels")) s.panels = json.at("panels");
  return s;
}

// A saved size the window cannot take (hand-edited, or from a broken display) falls back to
// the default size rather than stopping the app at start-up.
std::optional<std::string> ResetUnusableWindowSize(Settings& s) {
  const auto usable = [](int side, int least) { return side >= least && side <= cli::kMaxWindowSide; };
  if (usable(s.window_width, cli::kMinWindowWidth) && usable(s.window_height, cli::kMinWindowHeight)) return std::nullopt;
  const Settings defaults;
  std::string problem = "window size " + std::to_string(s.window_width) + "\u00D7" + std::to_string(s.window_height) +
                        " is outside " + std::to_string(cli::kMinWindowWidth) + "\u00D7" +
                        std::to_string(cli::kMinWindowHeight) + " to " + std::to_string(cli::kMaxWindowSide) + "\u00D7" +
                        std::to_string(cli::kMaxWindowSide) + " pixels; using " + std::to_string(defaults.window_width) +
                        "\u00D7" + std::to_string(defaults.window_height);
  s.window_width = defaults.window_width;
  s.window_height = defaults.window_height;
  return problem;
}

// Likewise a font size no one can read (0, 1e30) or a NaN: the default, said once.
std::optional<std::string> ResetUnusableFontSize(Settings& s) {
  if (s.font_size >= kMinFontSize && s.font_size <= kMaxFontSize) return std::nullopt;  // false for NaN
  const Settings defaults;
  char problem[160];
  std::snprintf(problem, sizeof problem, "font size %g is outside %g..%g pixels; using %g", s.font_size, kMinFontSize,
                kMaxFontSize, defaults.font_size);
  s.font_size = defaults.font_size;
  return std::string(problem);
}

std::filesystem::path SettingsStore::BadFile(int n) const {
  return directory_ / (std::string(kFileName) + kBadSuffix + (n == 0 ? "" : "." + std::to_string(n)));
}

// The bad file goes aside, not away: what it held may be worth a hand repair, and the next
// start finds no bad file, so the problem is reported once. It takes the first free name and
// never replaces what the app did not put there (a folder, a link): only when all are taken
// does it replace the last, if that is a file, so the first bad files stay.
std::string SettingsStore::MoveAside() const {
  for (int n = 0; n < kMaxBadFiles; ++n) {
    std::error_code ec;
    const std::filesystem::file_status there = std::filesystem::symlink_status(BadFile(n), ec);
    const bool last = n + 1 == kMaxBadFiles;
    if (std::filesystem::exists(there) && !(last && std::filesystem::is_regular_file(there))) continue;
    std::filesystem::rename(File(), BadFile(n), ec);
    if (ec) return "it could not be moved aside (" + ec.message() + ") and will be replaced on exit";
    return "the file was moved to " + BadFile(n).string();
  }
  return "it could not be moved aside (" + BadFile(0).string() + " to ." + std::to_string(kMaxBadFiles - 1) +
         " are taken and the last is not a file) and will be replaced on exit";
}

namespace {

// Where a settings file keeps the tour progress, per lesson.
const nlohmann::json& LessonProgress(const nlohmann::json& panels) {
  static const nlohmann::json kNone = nlohmann::json::object();
  if (!panels.is_object() || !panels.contains("guide") || !panels["guide"].is_object()) return kNone;
  const nlohmann::json& guide = panels["guide"];
  return guide.contains("lessons") && guide["lessons"].is_object() ? guide["lessons"] : kNone;
}

}  // namespace

nlohmann::json SettingsStore::LessonProgressOnDisk() const {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(File(), ec)) return nullptr;
  const sim::InputFile file = sim::ReadInputFile(File().string(), kMaxSettingsFileBytes);
  if (!file.ok()) return nullptr;
  const sim::JsonDocument document = sim::ParseJsonText(file.bytes);
  if (!document.ok() || !document.value.is_object() || !document.value.contains("panels")) return nullptr;
  return LessonProgress(document.value["panels"]);
}

LoadedSettings SettingsStore::Load() {
  LoadedSettings loaded;
  if (directory_.empty()) {
    loaded.warning = "no folder for settings: neither XDG_CONFIG_HOME nor HOME is an absolute path, so settings are "
                     "kept for this session only";
    return loaded;
  }
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(File(), ec))) return loaded;
  const sim::InputFile file = sim::ReadInputFile(File().string(), kMaxSettingsFileBytes);
  if (!file.ok()) {
    loaded.warning = "settings file " + file.error + "; using defaults, and " + MoveAside();
    return loaded;
  }
  const sim::JsonDocument document = sim::ParseJsonText(file.bytes);
  if (!document.ok()) {
    loaded.warning = "settings file " + File().string() + " is corrupt (" + document.error + "); using defaults, and " +
                     MoveAside();
    return loaded;
  }
  std::vector<std::string> problems;
  loaded.settings = SettingsFromJson(document.value, problems);
  loaded.from_file = true;
  progress_base_ = LessonProgress(loaded.settings.panels);
  if (!problems.empty()) {
    std::string list;
    for (const std::string& problem : problems) list += (list.empty() ? "" : "; ") + problem;
    loaded.warning = "settings file " + File().string() + " is corrupt: " + list + "; kept the other settings, and " +
                     MoveAside();
  }
  // Not the settings file's fault, so nothing goes aside: the lesson alone is lost, and said so.
  std::string lesson_problem;
  loaded.settings.last_lesson = ReadKeptLesson(loaded.settings.last_lesson, lesson_problem);
  if (!lesson_problem.empty()) loaded.warning += (loaded.warning.empty() ? "" : "; ") + lesson_problem;
  for (auto reset : {ResetUnusableWindowSize, ResetUnusableFontSize}) {
    if (auto problem = reset(loaded.settings)) {
      loaded.warning += (loaded.warning.empty() ? "settings file " + File().string() + ": " : "; ") + *problem;
    }
  }
  return loaded;
}

std::optional<std::string> SettingsStore::Save(const Settings& settings, std::string* note) {
  if (note) note->clear();
  if (directory_.empty()) return std::nullopt;  // kept for this session only, as Load said
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return "cannot create " + directory_.string() + ": " + ec.message();
  nlohmann::json json = ToJson(settings);
  if (auto error = KeepLesson(settings.last_lesson, json["last_lesson"], note)) return error;
  const nlohmann::json on_disk = LessonProgressOnDisk();
  const nlohmann::json& mine = LessonProgress(settings.panels);
  if (!on_disk.is_null() && on_disk != progress_base_) {
    if (!json["panels"].is_object()) json["panels"] = nlohmann::json::object();
    const MergedProgress merge = MergeLessonProgress(on_disk, progress_base_, mine);
    nlohmann::json& guide = json["panels"]["guide"];
    if (!guide.is_object()) guide = nlohmann::json::object();
    guide["lessons"] = merge.lessons;
    if (note) *note += std::string(note->empty() ? "" : "; ") + DescribeMerge(merge);
  }
  if (auto error = sim::WriteFileAtomically(File().string(), json.dump(2) + "\n")) return error;
  progress_base_ = LessonProgress(json["panels"]);
  return std::nullopt;
}

}  // namespace gui
