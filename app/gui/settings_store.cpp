#include "app/gui/settings_store.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/io/json_input.h"

namespace gui {
namespace {

constexpr int kSettingsVersion = 1;
constexpr const char* kFileName = "settings.json";
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
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "tilescope";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home ? home : ".") / ".config" / "tilescope";
}

std::filesystem::path SettingsStore::File() const { return directory_ / kFileName; }

nlohmann::json ToJson(const Settings& s) {
  return {{"version", kSettingsVersion},
          {"window", {{"width", s.window_width}, {"height", s.window_height}}},
          {"presentation", s.presentation},
          {"font_size", s.font_size},
          {"imgui_layout", s.imgui_layout},
          {"last_lesson", s.last_lesson},
          {"panels", s.panels}};
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
  if (json.contains("last_lesson")) s.last_lesson = json.at("last_lesson");
  if (json.contains("panels")) s.panels = json.at("panels");
  return s;
}

// A saved size the window cannot take (hand-edited, or from a broken display) falls back to
// the default size rather than stopping the app at start-up.
std::optional<std::string> ResetUnusableWindowSize(Settings& s) {
  const auto usable = [](int side) { return side >= kMinWindowSide && side <= kMaxWindowSide; };
  if (usable(s.window_width) && usable(s.window_height)) return std::nullopt;
  const Settings defaults;
  std::string problem = "window size " + std::to_string(s.window_width) + "\u00D7" + std::to_string(s.window_height) +
                        " is outside " + std::to_string(kMinWindowSide) + ".." + std::to_string(kMaxWindowSide) +
                        " pixels a side; using " + std::to_string(defaults.window_width) + "\u00D7" +
                        std::to_string(defaults.window_height);
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

std::filesystem::path SettingsStore::BadFile() const { return directory_ / (std::string(kFileName) + kBadSuffix); }

// The bad file goes aside, not away: what it held may be worth a hand repair, and the next
// start finds no bad file, so the problem is reported once.
std::string SettingsStore::MoveAside() const {
  std::error_code ec;
  std::filesystem::remove_all(BadFile(), ec);
  std::filesystem::rename(File(), BadFile(), ec);
  if (ec) return "it could not be moved aside (" + ec.message() + ") and will be replaced on exit";
  return "the file was moved to " + BadFile().string();
}

LoadedSettings SettingsStore::Load() const {
  LoadedSettings loaded;
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
  if (!problems.empty()) {
    std::string list;
    for (const std::string& problem : problems) list += (list.empty() ? "" : "; ") + problem;
    loaded.warning = "settings file " + File().string() + " is corrupt: " + list + "; kept the other settings, and " +
                     MoveAside();
  }
  for (auto reset : {ResetUnusableWindowSize, ResetUnusableFontSize}) {
    if (auto problem = reset(loaded.settings)) {
      loaded.warning += (loaded.warning.empty() ? "settings file " + File().string() + ": " : "; ") + *problem;
    }
  }
  return loaded;
}

std::optional<std::string> SettingsStore::Save(const Settings& settings) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return "cannot create " + directory_.string() + ": " + ec.message();
  return sim::WriteFileAtomically(File().string(), ToJson(settings).dump(2) + "\n");
}

}  // namespace gui
