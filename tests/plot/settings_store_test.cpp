// The settings file: a bad one never stops the app, keeps what was valid, goes aside as
// settings.json.bad and is reported once; saving is atomic.
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/gui/imgui_layout_check.h"
#include "app/gui/settings_store.h"
#include "tests/sim/file_test_util.h"

namespace {

using file_test::ReadText;
using file_test::ScratchFolder;
using file_test::WriteText;

TEST(SettingsStore, AWrongTypedKeyCostsThatKeyAloneAndTheFileGoesAsideOnce) {
  ScratchFolder folder("settings_wrong_key");
  gui::SettingsStore store(folder.path());
  const std::string text =
      R"({"version": 1, "window": {"width": 1280, "height": 720}, "font_size": "big", "presentation": true,)"
      R"( "imgui_layout": "[Window][Debug]\n", "last_lesson": {"m": 6}})";
  WriteText(store.File().string(), text);
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("'font_size' is \"big\""), std::string::npos) << loaded.warning;
  EXPECT_NE(loaded.warning.find(store.BadFile().string()), std::string::npos) << loaded.warning;
  EXPECT_EQ(loaded.settings.window_width, 1280);
  EXPECT_EQ(loaded.settings.window_height, 720);
  EXPECT_TRUE(loaded.settings.presentation);
  EXPECT_EQ(loaded.settings.imgui_layout, "[Window][Debug]\n");
  EXPECT_EQ(loaded.settings.last_lesson.value("m", 0), 6);
  EXPECT_EQ(loaded.settings.font_size, gui::Settings{}.font_size);
  EXPECT_EQ(ReadText(store.BadFile().string()), text);
  EXPECT_FALSE(std::filesystem::exists(store.File()));
  EXPECT_FALSE(store.Save(loaded.settings));
  EXPECT_TRUE(store.Load().warning.empty()) << "reported once: the saved file is good";
}

TEST(SettingsStore, NumbersOutOfTheirTypesRangeAreProblemsNotCasts) {
  ScratchFolder folder("settings_range");
  gui::SettingsStore store(folder.path());
  WriteText(store.File().string(), R"({"window": {"width": 1e300, "height": 18446744073709551615}, "font_size": 1e300})");
  const gui::LoadedSettings loaded = store.Load();
  for (const char* key : {"'window.width' is 1e+300", "'window.height' is 18446744073709551615", "'font_size' is 1e+300"}) {
    EXPECT_NE(loaded.warning.find(key), std::string::npos) << key << " in " << loaded.warning;
  }
  EXPECT_EQ(loaded.settings.window_width, gui::Settings{}.window_width);
  EXPECT_EQ(loaded.settings.font_size, gui::Settings{}.font_size);
}

// One rule for the command line and the saved file: --height 240 was taken at one start and
// refused from the settings at the next (issue 32).
TEST(SettingsStore, EveryWindowSizeTheCommandLineTakesIsKeptAcrossARestart) {
  ScratchFolder folder("settings_window_size");
  gui::SettingsStore store(folder.path());
  gui::Settings smallest;
  smallest.window_width = cli::kMinWindowWidth;
  smallest.window_height = cli::kMinWindowHeight;
  ASSERT_FALSE(store.Save(smallest));
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_TRUE(loaded.warning.empty()) << loaded.warning;
  EXPECT_EQ(loaded.settings.window_width, cli::kMinWindowWidth);
  EXPECT_EQ(loaded.settings.window_height, cli::kMinWindowHeight);
  gui::Settings smaller = smallest;
  smaller.window_height = cli::kMinWindowHeight - 1;
  ASSERT_FALSE(store.Save(smaller));
  EXPECT_NE(store.Load().warning.find("window size 320\u00D7239 is outside 320\u00D7240"), std::string::npos)
      << store.Load().warning;
}

TEST(SettingsStore, AnUnreadableFontSizeIsNamedAndTheDefaultUsed) {
  ScratchFolder folder("settings_font_size");
  gui::SettingsStore store(folder.path());
  for (const char* size : {"0", "-3", "1000"}) {
    WriteText(store.File().string(), std::string(R"({"version": 1, "presentation": true, "font_size": )") + size + "}");
    const gui::LoadedSettings loaded = store.Load();
    EXPECT_NE(loaded.warning.find(std::string("font size ") + size + " is outside 11..48 pixels; using 17"),
              std::string::npos)
        << loaded.warning;
    EXPECT_EQ(loaded.settings.font_size, gui::Settings{}.font_size);
    EXPECT_TRUE(loaded.settings.presentation) << "a size out of range costs that key alone";
  }
  WriteText(store.File().string(), R"({"version": 1, "font_size": 23})");
  EXPECT_TRUE(store.Load().warning.empty());
  EXPECT_EQ(store.Load().settings.font_size, 23.0f);
}

TEST(SettingsStore, ATruncatedFileGivesDefaultsAndIsKeptAside) {
  ScratchFolder folder("settings_truncated");
  gui::SettingsStore store(folder.path());
  const std::string truncated = R"({"window": {"width": 900, "height")";
  WriteText(store.File().string(), truncated);
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("is corrupt (not valid JSON"), std::string::npos) << loaded.warning;
  EXPECT_FALSE(loaded.from_file);
  EXPECT_EQ(ReadText(store.BadFile().string()), truncated);
}

TEST(SettingsStore, DeepNestingInTheLastLessonIsRefusedWithoutRecursing) {
  ScratchFolder folder("settings_deep");
  gui::SettingsStore store(folder.path());
  constexpr int kLevels = 100000;
  WriteText(store.File().string(), R"({"last_lesson": )" + std::string(kLevels, '[') + std::string(kLevels, ']') + "}");
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("nest"), std::string::npos) << loaded.warning;
  EXPECT_TRUE(loaded.settings.last_lesson.is_null());
}

TEST(SettingsStore, AFolderInPlaceOfTheFileIsMovedAsideAndSavingWorksAgain) {
  ScratchFolder folder("settings_folder");
  gui::SettingsStore store(folder.path());
  std::filesystem::create_directories(store.File());
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("it is a folder"), std::string::npos) << loaded.warning;
  EXPECT_TRUE(std::filesystem::is_directory(store.BadFile()));
  EXPECT_FALSE(store.Save(loaded.settings));
  EXPECT_TRUE(store.Load().warning.empty());
}

TEST(SettingsStore, SavingIntoAReadOnlyFolderIsNamedAndKeepsTheOldFile) {
  ScratchFolder folder("settings_read_only");
  gui::SettingsStore store(folder.path());
  gui::Settings settings;
  settings.font_size = 21.0f;
  ASSERT_FALSE(store.Save(settings));
  const std::string before = ReadText(store.File().string());
  chmod(folder.path().c_str(), 0555);
  const int status = file_test::RunAsUnprivilegedChild([&] {
    gui::Settings changed;
    const auto error = store.Save(changed);
    return error && error->find(store.File().string()) != std::string::npos;
  });
  chmod(folder.path().c_str(), 0755);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's status " << status;
  EXPECT_EQ(ReadText(store.File().string()), before);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"settings.json"});
}

// Issue 32: ImGui's ini reader allocated a table's columns as the file said, and crashed on
// two billion. The layout is checked before ImGui sees it: the settings keep the rest.
TEST(SettingsStore, ALayoutWithAHugeTableIsRefusedAndTheRestKept) {
  ScratchFolder folder("settings_huge_table");
  gui::SettingsStore store(folder.path());
  WriteText(store.File().string(), R"({"version": 1, "font_size": 20, "imgui_layout": )"
                                   R"("[Window][Debug]\nPos=1,2\n[Table][0x12345678,2000000000]\nColumn 0 Width=3\n"})");
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("is not a table of 0 to 64 columns; using the default layout"), std::string::npos)
      << loaded.warning;
  EXPECT_EQ(loaded.settings.imgui_layout, "");
  EXPECT_EQ(loaded.settings.font_size, 20.0f);
  EXPECT_TRUE(std::filesystem::exists(store.BadFile()));
}

TEST(SettingsStore, LayoutCheckRefusesWhatImGuiWouldMisreadAndAcceptsItsOwn) {
  for (const char* bad : {"[Table][0x1,65]", "[Table][0x1,-1]", "[Table][0x1, 5]", "[Table][0x123456789,2]",
                          "[Table][0x1,3]\nColumn 3 Width=1", "[Table][0x1,3]\nColumn 0 Order=3",
                          "[Table][0x1,3]\nColumn 0 Order=-1", "[Table][0x1,3]\nColumn 0 Sort=7v",
                          "[Table][0x1,3]\nColumn1", "[Docking][Data]", "[Table]x[0x1,2]junk]", "[Window]"}) {
    EXPECT_TRUE(gui::CheckImGuiLayout(bad)) << bad;
  }
  EXPECT_TRUE(gui::CheckImGuiLayout(std::string(gui::kMaxImGuiLayoutBytes + 1, '\n')));
  // What ImGui 1.86 saves for a window and a sortable, reorderable table of 3 columns.
  const std::string own =
      "[Window][Lesson]\nPos=0,19\nSize=1366,749\nCollapsed=0\n\n"
      "[Table][0x8D8E1F4B,3]\nRefScale=17\nColumn 0  Width=120 Visible=1 Order=2 Sort=0v\n"
      "Column 1  Weight=1.0000 Visible=1 Order=0\nColumn 2  Width=40 Visible=0 Order=1\n\n";
  EXPECT_EQ(gui::CheckImGuiLayout(own), std::nullopt);
  ImGuiContext* context = ImGui::CreateContext();
  ImGui::LoadIniSettingsFromMemory(own.c_str(), own.size());
  EXPECT_NE(std::string(ImGui::SaveIniSettingsToMemory()).find("[Table][0x8D8E1F4B,3]"), std::string::npos);
  ImGui::DestroyContext(context);
}

// A corrupt file goes aside under the first free name: an earlier one, or a folder a user
// made there, is never deleted or replaced.
TEST(SettingsStore, CorruptFilesGoAsideNumberedAndNothingIsDeleted) {
  ScratchFolder folder("settings_numbered_bad");
  gui::SettingsStore store(folder.path());
  std::filesystem::create_directories(store.BadFile());
  WriteText((store.BadFile() / "keep.txt").string(), "mine");
  WriteText(store.BadFile(1).string(), "first");
  WriteText(store.File().string(), "{corrupt");
  EXPECT_NE(store.Load().warning.find("moved to " + store.BadFile(2).string()), std::string::npos);
  EXPECT_EQ(ReadText((store.BadFile() / "keep.txt").string()), "mine");
  EXPECT_EQ(ReadText(store.BadFile(1).string()), "first");
  EXPECT_EQ(ReadText(store.BadFile(2).string()), "{corrupt");
  for (int n = 3; n < gui::kMaxBadFiles; ++n) {
    WriteText(store.File().string(), "{corrupt " + std::to_string(n));
    store.Load();
  }
  WriteText(store.File().string(), "{latest");
  EXPECT_NE(store.Load().warning.find("moved to " + store.BadFile(gui::kMaxBadFiles - 1).string()), std::string::npos)
      << "all taken: the last one is replaced, the first ones stay";
  EXPECT_EQ(ReadText(store.BadFile(gui::kMaxBadFiles - 1).string()), "{latest");
  EXPECT_EQ(ReadText(store.BadFile(3).string()), "{corrupt 3");
  EXPECT_FALSE(std::filesystem::exists(store.BadFile(gui::kMaxBadFiles)));
}

// A FIFO never delivers: reading it would block the window thread before the first frame.
TEST(SettingsStore, AFifoInPlaceOfTheFileIsRefusedWithoutWaiting) {
  ScratchFolder folder("settings_fifo");
  gui::SettingsStore store(folder.path());
  ASSERT_EQ(mkfifo(store.File().c_str(), 0600), 0);
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("it is a pipe or socket, not a file"), std::string::npos) << loaded.warning;
  EXPECT_FALSE(loaded.from_file);
}

// The XDG rule: a relative XDG_CONFIG_HOME is ignored, and with no absolute home at all the
// settings are kept for the session, said once, never written into the working folder.
TEST(SettingsStore, TheFolderFollowsTheXdgRuleAndNoHomeKeepsSettingsInMemory) {
  const auto set = [](const char* name, const char* value) {
    value ? setenv(name, value, 1) : unsetenv(name);
  };
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  set("XDG_CONFIG_HOME", "/x");
  set("HOME", "/h");
  EXPECT_EQ(gui::SettingsStore::DefaultDirectory(), std::filesystem::path("/x/tilescope"));
  set("XDG_CONFIG_HOME", "relative");
  EXPECT_EQ(gui::SettingsStore::DefaultDirectory(), std::filesystem::path("/h/.config/tilescope"));
  set("HOME", nullptr);
  EXPECT_EQ(gui::SettingsStore::DefaultDirectory(), std::filesystem::path());
  set("HOME", "");
  EXPECT_EQ(gui::SettingsStore::DefaultDirectory(), std::filesystem::path());
  set("XDG_CONFIG_HOME", xdg ? saved_xdg.c_str() : nullptr);
  set("HOME", home ? saved_home.c_str() : nullptr);

  ScratchFolder folder("settings_no_home");
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(folder.path());
  gui::SettingsStore in_memory{std::filesystem::path()};
  const gui::LoadedSettings loaded = in_memory.Load();
  EXPECT_NE(loaded.warning.find("kept for this session only"), std::string::npos) << loaded.warning;
  EXPECT_FALSE(in_memory.Save(loaded.settings));
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{}) << "nothing written into the working folder";
  std::filesystem::current_path(was);
}

// Two windows on one settings folder (issue 32): the second to save once put its own progress
// over the first's. Each keeps its answers; the one that saves second is told.
TEST(SettingsStore, TwoWindowsOnOneFolderKeepEachOthersAnswers) {
  ScratchFolder folder("settings_two_windows");
  const auto progress = [](nlohmann::json lessons) {
    gui::Settings settings;
    settings.panels = {{"guide", {{"lessons", std::move(lessons)}}}};
    return settings;
  };
  {
    gui::SettingsStore start(folder.path());
    ASSERT_FALSE(start.Save(progress({{"default", {{"stop", 2}, {"answers", {{"1", "64"}}}}}})));
  }
  gui::SettingsStore first(folder.path());
  gui::SettingsStore second(folder.path());
  first.Load();
  second.Load();
  std::string merged;
  // The first window answers stop 3 of default and opens rect; the second answers stop 5.
  ASSERT_FALSE(first.Save(progress({{"default", {{"stop", 3}, {"answers", {{"1", "64"}, {"3", "128"}}}}},
                                    {"rect", {{"stop", 1}, {"answers", nlohmann::json::object()}}}}),
                          &merged));
  EXPECT_EQ(merged, "") << "nothing from elsewhere yet";
  ASSERT_FALSE(second.Save(progress({{"default", {{"stop", 5}, {"answers", {{"1", "64"}, {"5", "7"}}}}}}), &merged));
  EXPECT_NE(merged.find("another TileScope window saved tour progress in this settings folder (default; rect)"),
            std::string::npos)
      << merged;
  const nlohmann::json lessons = gui::SettingsStore(folder.path()).Load().settings.panels["guide"]["lessons"];
  EXPECT_EQ(lessons["default"]["answers"], (nlohmann::json{{"1", "64"}, {"3", "128"}, {"5", "7"}})) << lessons.dump();
  EXPECT_EQ(lessons["default"]["stop"], 5) << "the stop the second window moved to";
  EXPECT_TRUE(lessons.contains("rect")) << "the lesson only the first window opened stays";
  // Both answer stop 7 differently: the later save keeps its own and says which.
  ASSERT_FALSE(first.Save(progress({{"default", {{"stop", 3}, {"answers", {{"1", "64"}, {"3", "128"}, {"7", "1"}}}}}}),
                          &merged));
  ASSERT_FALSE(second.Save(progress({{"default", {{"stop", 5}, {"answers", {{"1", "64"}, {"5", "7"}, {"7", "2"}}}}}}),
                           &merged));
  EXPECT_NE(merged.find("keeps this window's (default, stop 7)"), std::string::npos) << merged;
  const nlohmann::json last = gui::SettingsStore(folder.path()).Load().settings.panels["guide"]["lessons"];
  EXPECT_EQ(last["default"]["answers"]["7"], "2");
  EXPECT_EQ(last["default"]["answers"]["3"], "128") << "the first window's other answers stay";
}

// A lesson with explicit values of a big matrix (issue 32): a 2.6 MB lesson once made a 6.8 MB
// settings file, read again at every save, and a 64 MiB one a file the next start refused. A
// big lesson is kept beside the settings, written when it changed; it comes back whole.
TEST(SettingsStore, ABigLastLessonIsKeptBesideTheSettingsAndComesBack) {
  ScratchFolder folder("settings_big_lesson");
  gui::Settings settings;
  settings.last_lesson = {{"version", 2}, {"name", "edited"}, {"m", 512}, {"n", 512}, {"k", 512}};
  std::vector<double> values(512 * 512);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.001 * static_cast<double>(i % 9973);
  settings.last_lesson["fill_a"] = {{"kind", "explicit"}, {"values", values}};
  ASSERT_GT(settings.last_lesson.dump().size(), 20 * gui::kMaxInlineLessonBytes) << "the lesson is big";
  gui::SettingsStore store(folder.path());
  ASSERT_FALSE(store.Save(settings));
  EXPECT_LE(std::filesystem::file_size(store.File()), 2 * gui::kMaxInlineLessonBytes)
      << "the settings file holds no copy of the big lesson";
  ASSERT_TRUE(std::filesystem::is_regular_file(store.LessonFile()));
  const auto written = std::filesystem::last_write_time(store.LessonFile());
  gui::SettingsStore next(folder.path());
  const gui::LoadedSettings loaded = next.Load();
  EXPECT_EQ(loaded.warning, "");
  EXPECT_EQ(loaded.settings.last_lesson, settings.last_lesson) << "the lesson comes back whole";
  // A save with the same lesson (the next autosave) leaves the lesson's file as it was.
  std::filesystem::last_write_time(store.LessonFile(), written - std::chrono::hours(1));
  ASSERT_FALSE(next.Save(loaded.settings));
  EXPECT_EQ(std::filesystem::last_write_time(store.LessonFile()), written - std::chrono::hours(1))
      << "an unchanged lesson is not written again";
  // Small again: kept inside, and the stale file beside it goes.
  settings.last_lesson = {{"version", 2}, {"name", "default"}, {"m", 4}};
  ASSERT_FALSE(next.Save(settings));
  EXPECT_FALSE(std::filesystem::exists(store.LessonFile()));
  EXPECT_EQ(gui::SettingsStore(folder.path()).Load().settings.last_lesson, settings.last_lesson);
}

TEST(SettingsStore, AMissingKeptLessonIsNamedAndTheRestKept) {
  ScratchFolder folder("settings_lost_lesson");
  gui::SettingsStore store(folder.path());
  WriteText(store.File().string(),
            R"({"presentation": true, "last_lesson": {"kept_in": "last-lesson.json"}})");
  const gui::LoadedSettings loaded = store.Load();
  EXPECT_NE(loaded.warning.find("the last lesson, kept in " + store.LessonFile().string() + ", could not be read"),
            std::string::npos)
      << loaded.warning;
  EXPECT_TRUE(loaded.settings.last_lesson.is_null());
  EXPECT_TRUE(loaded.settings.presentation) << "the other settings are kept";
  EXPECT_TRUE(std::filesystem::exists(store.File())) << "the settings file is not corrupt: it stays";
  // Only the store's own file name is followed, never a path from the file.
  WriteText(store.File().string(), R"({"last_lesson": {"kept_in": "/etc/passwd"}})");
  const gui::LoadedSettings elsewhere = gui::SettingsStore(folder.path()).Load();
  EXPECT_NE(elsewhere.warning.find("not last-lesson.json"), std::string::npos) << elsewhere.warning;
  EXPECT_TRUE(elsewhere.settings.last_lesson.is_null());
}

}  // namespace
