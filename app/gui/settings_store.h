// settings_store.h — what survives a restart: last lesson, window size, presentation mode,
// ImGui's window layout. Lives in $XDG_CONFIG_HOME/tilescope/ (else ~/.config/tilescope/)
// and is written through sim::WriteFileAtomically, so a crash mid-write never leaves a half
// file behind. A bad file never stops the app: what was valid in it is kept, and the file is
// moved aside as settings.json.bad, reported once.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gui {

// The window sizes a saved setting may ask for.
constexpr int kMinWindowSide = 320;
constexpr int kMaxWindowSide = 16384;
// The font sizes in pixels: Ctrl+- and Ctrl+= stop there, and a saved size must lie between.
constexpr float kMinFontSize = 11.0f;
constexpr float kMaxFontSize = 48.0f;
// Settings hold a lesson and ImGui's layout: a few KiB; the limit only stops a runaway file.
constexpr std::uint64_t kMaxSettingsFileBytes = 64ull << 20;

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
  std::string warning;  // Set when the file existed but was not all usable: what went aside, what was kept.
};

class SettingsStore {
 public:
  explicit SettingsStore(std::filesystem::path directory);
  // $XDG_CONFIG_HOME/tilescope, else $HOME/.config/tilescope.
  static std::filesystem::path DefaultDirectory();

  // Never fails: a file that cannot be read or parsed gives defaults, a key of the wrong
  // type its default; either way the file is moved to BadFile() and `warning` says so.
  LoadedSettings Load() const;
  // Through sim::WriteFileAtomically; returns an error text.
  std::optional<std::string> Save(const Settings& settings) const;
  std::filesystem::path File() const;
  std::filesystem::path BadFile() const;

 private:
  std::string MoveAside() const;

  std::filesystem::path directory_;
};

nlohmann::json ToJson(const Settings& settings);
// Missing keys keep their defaults; a key of the wrong type keeps its default and adds a
// line naming it to `problems`.
Settings SettingsFromJson(const nlohmann::json& json, std::vector<std::string>& problems);

}  // namespace gui
