// The shell's small rules without a window: how long a message stays in the status bar, and
// where Ctrl+P saves.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "app/gui/notifications.h"
#include "app/gui/screenshot.h"

namespace gui {
namespace {

TEST(Notifications, AMessageLeavesTheStatusBarAfterItsTimeOrTheNextAction) {
  Notifications notifications;
  notifications.Add(Severity::kError, "m = 0 is too small");
  const double added = notifications.All().back().time;
  ASSERT_NE(notifications.Current(added), nullptr);
  EXPECT_NE(notifications.Current(added + Notifications::kProblemSeconds - 1.0), nullptr);
  EXPECT_EQ(notifications.Current(added + Notifications::kProblemSeconds + 1.0), nullptr);
  notifications.Add(Severity::kInfo, "saved /tmp/a.png");
  EXPECT_EQ(notifications.Current(added + Notifications::kInfoSeconds + 1.0), nullptr) << "info leaves sooner";
  notifications.Add(Severity::kError, "unknown action");
  notifications.Dismiss();
  EXPECT_EQ(notifications.Current(notifications.All().back().time), nullptr);
  EXPECT_EQ(notifications.All().size(), 3u) << "the log keeps every message";
}

class ScreenshotFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::filesystem::path(::testing::TempDir()) / "screenshot_home";
    std::filesystem::remove_all(home_);
    std::filesystem::create_directories(home_ / ".config");
    setenv("HOME", home_.c_str(), 1);
    setenv("XDG_CONFIG_HOME", (home_ / ".config").c_str(), 1);
    unsetenv("XDG_PICTURES_DIR");
  }
  std::filesystem::path home_;
};

TEST_F(ScreenshotFolderTest, PicturesFolderFromUserDirsElsePicturesElseHome) {
  EXPECT_EQ(ScreenshotFolder(), home_.string()) << "no pictures folder: home";
  std::filesystem::create_directories(home_ / "Pictures");
  EXPECT_EQ(ScreenshotFolder(), (home_ / "Pictures").string());
  std::filesystem::create_directories(home_ / "Bilder");
  std::ofstream(home_ / ".config" / "user-dirs.dirs") << "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n";
  EXPECT_EQ(ScreenshotFolder(), (home_ / "Bilder").string());
  std::ofstream(home_ / ".config" / "user-dirs.dirs") << "XDG_PICTURES_DIR=\"$HOME/Gone\"\n";
  EXPECT_EQ(ScreenshotFolder(), (home_ / "Pictures").string()) << "a folder that does not exist is skipped";
}

}  // namespace
}  // namespace gui
