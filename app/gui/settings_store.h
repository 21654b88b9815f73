// settings_store.h — what survives a restart: last lesson, window size, presentation mode,
// ImGui's window layout. Lives in $XDG_CONFIG_HOME/tilescope/ (else ~/.config/tilescope/)
// and is written atomically, so a crash mid-write never leaves a half file behind.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace gui {

// The window sizes a saved setting may ask for.
constexpr int kMinWindowSide = 320;
constexpr int kMaxWindowSide = 16384;

struct Settings {
  int window_width = 1600;
  int window_height = 900;
  bool presentation = false;
  float font_size = 17.0f;
  std::string imgui_layout;    // ImGui's own ini text, stored inside our file.
  nlohmann::json last_lesson;  // The lesson as its JSON file form; null when none yet.
  nlohmann::json panels;       // Per-panel preferences, keyed by panel name.
};

struct LoadedSettings {
  Settings settings;
  bool from_file = false;
  std::string warning;  // Set when the file existed but was unreadable: defaults are used.
};

class SettingsStore {
 public:
  explicit SettingsStore(std::filesystem::path directory);
  // $XDG_CONFIG_HOME/tilescope, else $HOME/.config/tilescope.
  static std::filesystem::path DefaultDirectory();

  LoadedSettings Load() const;
  // Writes a temporary file beside the target and renames it over; returns an error text.
  std::optional<std::string> Save(const Settings& settings) const;
  std::filesystem::path File() const;

 private:
  std::filesystem::path directory_;
};

nlohmann::json ToJson(const Settings& settings);
// Throws nlohmann::json::exception on a wrong type; missing keys keep their defaults.
Settings SettingsFromJson(const nlohmann::json& json);

}  // namespace gui
