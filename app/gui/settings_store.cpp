#include "app/gui/settings_store.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gui {
namespace {

constexpr int kSettingsVersion = 1;
constexpr const char* kFileName = "settings.json";

template <typename T>
void ReadIfPresent(const nlohmann::json& json, const char* key, T& value) {
  if (json.contains(key)) value = json.at(key).get<T>();
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

Settings SettingsFromJson(const nlohmann::json& json) {
  Settings s;
  if (!json.is_object()) throw nlohmann::json::type_error::create(302, "settings are not an object", &json);
  if (json.contains("window")) {
    ReadIfPresent(json.at("window"), "width", s.window_width);
    ReadIfPresent(json.at("window"), "height", s.window_height);
  }
  ReadIfPresent(json, "presentation", s.presentation);
  ReadIfPresent(json, "font_size", s.font_size);
  ReadIfPresent(json, "imgui_layout", s.imgui_layout);
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

LoadedSettings SettingsStore::Load() const {
  LoadedSettings loaded;
  std::ifstream in(File());
  if (!in) return loaded;
  try {
    loaded.settings = SettingsFromJson(nlohmann::json::parse(in));
    loaded.from_file = true;
    if (auto problem = ResetUnusableWindowSize(loaded.settings)) {
      loaded.warning = "settings file " + File().string() + ": " + *problem;
    }
  } catch (const nlohmann::json::exception& e) {
    loaded.settings = Settings{};
    loaded.warning = "settings file " + File().string() + " is corrupt (" + e.what() +
                     "); using defaults, and it will be replaced on exit";
  }
  return loaded;
}

std::optional<std::string> SettingsStore::Save(const Settings& settings) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return "cannot create " + directory_.string() + ": " + ec.message();
  const std::filesystem::path temp =
      directory_ / (std::string(kFileName) + ".tmp-" + std::to_string(getpid()));
  {
    std::ofstream out(temp, std::ios::trunc);
    out << ToJson(settings).dump(2) << '\n';
    out.flush();
    if (!out) return "cannot write " + temp.string();
  }
  std::filesystem::rename(temp, File(), ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return "cannot replace " + File().string() + ": " + ec.message();
  }
  return std::nullopt;
}

}  // namespace gui
