// settings_store.h — what survives a restart: last lesson, window size, presentation mode,
// ImGui's window layout. Lives in $XDG_CONFIG_HOME/tilescope/ (else ~/.config/tilescope/)
// as settings.json, with a big last lesson beside it in last-lesson.json,
// and is written through sim::WriteFileAtomically, so a crash mid-write never leaves a half
// file behind. A bad file never stops the app: what was valid in it is kept, and the file is
// moved aside as settings.json.bad (.bad.1 ... when that is taken), reported once.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/gui_options.h"

namespace gui {

// The font sizes in pixels: Ctrl+- and Ctrl+= stop there, and a saved size must lie between.
constexpr float kMinFontSize = 11.0f;
constexpr float kMaxFontSize = 48.0f;
// Settings hold a lesson and ImGui's layout: a few KiB; the limit only stops a runaway file.
constexpr std::uint64_t kMaxSettingsFileBytes = 64ull << 20;
// A last lesson up to this size (as JSON) stays inside settings.json; a bigger one (explicit
// values of a big matrix: a 2.6 MB lesson once made a 6.8 MB settings file, read again at every
// save) goes beside it, written only when it changed. Either way one edited in the app and
// never saved to a file comes back at the next start.
constexpr std::size_t kMaxInlineLessonBytes = 64u << 10;
// How many corrupt files are kept aside: settings.json.bad, then .bad.1 to .bad.9.
constexpr int kMaxBadFiles = 10;

struct Settings {
  int window_width = 1600;
  int window_height = 900;
  bool presentation = false;
  float font_size = 17.0f;
  std::string imgui_layout;    // ImGui's own ini text, stored inside our file.
  nlohmann::json last_lesson;  // The lesson as its JSON file form; null when none yet.
  nlohmann::json panels;       // Per-panel preferences, keyed by panel name.
  // Not saved: how often last_lesson changed this session. Autosave compares this number, not
  // the lesson's text, which for a lesson of megabytes of values costs frames to dump.
  std::uint64_t last_lesson_changes = 0;
};

struct LoadedSettings {
  Settings settings;
  bool from_file = false;
  std::string warning;  // Set when the file existed but was not all usable: what went aside, what was kept.
};

class SettingsStore {
 public:
  // An empty `directory` keeps the settings for this session only: Load gives the defaults
  // with a warning saying so, and Save writes nothing.
  explicit SettingsStore(std::filesystem::path directory);
  // $XDG_CONFIG_HOME/tilescope, else $HOME/.config/tilescope, each only when absolute (the
  // XDG rule: a relative value is ignored); empty when neither is, so that settings never land
  // in whatever folder the app was started from.
  static std::filesystem::path DefaultDirectory();

  // Never fails: a file that cannot be read or parsed gives defaults, a key of the wrong
  // type its default; either way the file is moved to BadFile() and `warning` says so.
  LoadedSettings Load();
  // Through sim::WriteFileAtomically; returns an error text. The tour progress another window
  // saved since this one last read or wrote the file is merged in, per lesson (see
  // progress_merge.h), and `note`, when given, says so ("" when there was none), or that the
  // last lesson is too big to keep (over a lesson file's limit: it would not load again).
  std::optional<std::string> Save(const Settings& settings, std::string* note = nullptr);
  std::filesystem::path File() const;
  // Where a last lesson over kMaxInlineLessonBytes is kept.
  std::filesystem::path LessonFile() const;
  // Where the n-th corrupt file goes (0: settings.json.bad, n: settings.json.bad.n).
  std::filesystem::path BadFile(int n = 0) const;

 private:
  std::string MoveAside() const;
  // settings.json's "last_lesson" entry for `lesson`: the lesson itself when small, else a
  // reference to LessonFile(), written when it changed (an error text if it cannot be).
  std::optional<std::string> KeepLesson(const nlohmann::json& lesson, nlohmann::json& entry, std::string* note);
  // The lesson a "last_lesson" entry names: itself, or what LessonFile() holds (a problem, if
  // that cannot be read, in `warning`, and null).
  nlohmann::json ReadKeptLesson(const nlohmann::json& entry, std::string& warning);
  // The tour progress the file holds now: none when there is no file or it cannot be read.
  nlohmann::json LessonProgressOnDisk() const;

  std::filesystem::path directory_;
  nlohmann::json progress_base_;  // the tour progress as this store last read or wrote it
  std::string lesson_file_text_;  // what this store last wrote to or read from LessonFile()
};

nlohmann::json ToJson(const Settings& settings);
// The same without the last lesson: what autosave compares, with last_lesson_changes beside it.
nlohmann::json ToJsonWithoutLesson(const Settings& settings);
// Missing keys keep their defaults; a key of the wrong type keeps its default and adds a
// line naming it to `problems`.
Settings SettingsFromJson(const nlohmann::json& json, std::vector<std::string>& problems);

}  // namespace gui
