// How key chords read in menus and the F1 overlay: every key the app binds has a name, never
// a GLFW key code ("Ctrl+key 334" was keypad +).
#include "app/gui/actions.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

namespace gui {
namespace {

TEST(ChordName, EveryBoundKindOfKeyHasAName) {
  EXPECT_EQ(ChordName({GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL}), "Ctrl+Keypad +");
  EXPECT_EQ(ChordName({GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL}), "Ctrl+Keypad \u2212");
  EXPECT_EQ(ChordName({GLFW_KEY_PAGE_DOWN, 0}), "PageDown");
  EXPECT_EQ(ChordName({GLFW_KEY_RIGHT, GLFW_MOD_SHIFT}), "Shift+\u2192");
  EXPECT_EQ(ChordName({GLFW_KEY_F11, 0}), "F11");
  for (int key : {GLFW_KEY_SPACE, GLFW_KEY_ENTER, GLFW_KEY_TAB, GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE, GLFW_KEY_PAGE_UP,
                  GLFW_KEY_HOME, GLFW_KEY_END, GLFW_KEY_ESCAPE, GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_A, GLFW_KEY_9}) {
    EXPECT_EQ(ChordName({key, 0}).find("key "), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace gui
