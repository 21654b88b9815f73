// The settings file: a bad one never stops the app, keeps what was valid, goes aside as
// settings.json.bad and is reported once; saving is atomic.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

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

}  // namespace
