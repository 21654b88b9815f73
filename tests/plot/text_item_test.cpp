// The clipped-text count drawn into a headless ImGui context: text known to be cut is counted,
// text known to fit or to be reachable by a scrollbar in view is not.
#include <gtest/gtest.h>
#include <imgui.h>

#include <functional>

#include "app/gui/displayable_text.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

constexpr const char* kLong = "a sentence far too long for a panel two hundred pixels wide";

// Draws `contents` in a 200x150 panel for a few frames (tables size their columns from the
// frame before) and returns the last frame's count.
TextCount DrawInPanel(const std::function<void()>& contents, bool presentation = false) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(800, 600);
  io.IniFilename = nullptr;
  unsigned char* pixels = nullptr;
  int width = 0;
  int height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  TextCount count;
  for (int frame = 0; frame < 3; ++frame) {
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(200, 150));
    ImGui::Begin("panel");
    {
      const TextRecordScope recording(count, presentation);
      contents();
    }
    ImGui::End();
    ImGui::Render();
  }
  ImGui::DestroyContext();
  return count;
}

// A four-column table of figures wider than the panel, `rows` rows tall and as tall as they are
// (as the panels size their scrolling tables).
void WideTable(int rows, ImGuiTableFlags flags) {
  const float height = static_cast<float>(rows + 1) * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ScrollbarSize;
  if (!BeginTable("##wide", 4, flags | ImGuiTableFlags_SizingFixedFit, ImVec2(0.0f, height))) return;
  for (int row = 0; row < rows; ++row) {
    for (int column = 0; column < 4; ++column) {
      ImGui::TableNextColumn();
      TextUnformatted("1234567890");
    }
  }
  EndTable();
}

TEST(TextItem, TextWithinThePanelIsNotClipped) {
  const TextCount count = DrawInPanel([] { Text("short"); });
  EXPECT_EQ(count.items, 1);
  EXPECT_EQ(count.clipped, 0);
}

TEST(TextItem, TextCutAtThePanelsRightEdgeIsCountedAndNamed) {
  const TextCount count = DrawInPanel([] { TextUnformatted(kLong); });
  EXPECT_EQ(count.clipped, 1);
  ASSERT_EQ(count.clipped_examples.size(), 1u);
  EXPECT_EQ(count.clipped_examples[0], kLong);
}

TEST(TextItem, TextDrawnOnADrawListPastTheEdgeIsCounted) {
  const TextCount count = DrawInPanel([] {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    DrawText(ImGui::GetWindowDrawList(), ImVec2(at.x + 180.0f, at.y), IM_COL32_WHITE, "12345");
  });
  EXPECT_EQ(count.clipped, 1);
}

TEST(TextItem, ATableCutWithNoScrollbarIsCounted) {
  const TextCount count = DrawInPanel([] { WideTable(2, ImGuiTableFlags_None); });
  EXPECT_GT(count.clipped, 0);
}

// The panel's own height hides the table's bottom edge, and its scrollbar with it: the last
// columns are cut with nothing on screen to say more is there (the Counters and Occupancy
// tables at 1366x768 were counted 0 this way).
TEST(TextItem, ATableWhoseScrollbarIsBelowTheFoldIsCounted) {
  const TextCount count = DrawInPanel([] { WideTable(20, ImGuiTableFlags_ScrollX); });
  EXPECT_GT(count.clipped, 0);
}

TEST(TextItem, ATableWithItsScrollbarInViewIsReachable) {
  const TextCount count = DrawInPanel([] { WideTable(2, ImGuiTableFlags_ScrollX); });
  EXPECT_GT(count.items, 0);
  EXPECT_EQ(count.clipped, 0);
}

TEST(TextItem, InPresentationTextBelowThePanelIsCounted) {
  const auto lines = [] {
    for (int line = 0; line < 20; ++line) Text("line %d", line);
  };
  EXPECT_EQ(DrawInPanel(lines).clipped, 0);
  EXPECT_GT(DrawInPanel(lines, true).clipped, 0);
}

// A headless context with ImGui's own font, which has Latin-1 and nothing past it.
class TextShown : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    ImGui::GetIO().DisplaySize = ImVec2(800, 600);
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::NewFrame();
  }
  void TearDown() override {
    ImGui::Render();
    ImGui::DestroyContext();
  }
};

// The Day 2 sheet's quotation as a lesson quotes it: "2️⃣ After COMPUTE", drawn "2??" before.
TEST_F(TextShown, AKeycapEmojiTheFontLacksBecomesItsDigit) {
  const std::string quoted = "2\u20E3 and 2\uFE0F\u20E3 After COMPUTE \u00D7";
  EXPECT_EQ(Displayable(quoted.c_str(), nullptr, ImGui::GetFont()), "(2) and (2) After COMPUTE \u00D7");
}

TEST_F(TextShown, AnotherMissingGlyphBecomesASquareNotAQuestionMark) {
  const std::string text = "go \U0001F680 now";
  EXPECT_EQ(Displayable(text.c_str(), nullptr, ImGui::GetFont()), "go \u25A1 now");
}

TEST_F(TextShown, PlainTextIsLeftAsItIs) {
  EXPECT_EQ(Displayable("phase 1 of 2", nullptr, ImGui::GetFont()), "phase 1 of 2");
}

// "filled 1..16" and "so far 4.27" were wrapped after their full stops: "filled 1. / .16".
TEST_F(TextShown, NumbersAreWrappedOnlyAtSpaces) {
  const std::string text = "A and B both 4x4, filled 1..16 row by row; reads per element so far 4.27 of 14.";
  for (float width = 40.0f; width <= 400.0f; width += 7.0f) {
    const std::string wrapped = WrapAtSpaces(text, width);
    std::string joined = wrapped;
    for (char& c : joined) c = c == '\n' ? ' ' : c;
    EXPECT_EQ(joined, text) << "only spaces become line breaks at " << width;
    std::size_t start = 0;
    while (start <= wrapped.size()) {
      const std::size_t end = std::min(wrapped.find('\n', start), wrapped.size());
      const std::string line = wrapped.substr(start, end - start);
      EXPECT_TRUE(ImGui::CalcTextSize(line.c_str()).x <= width || line.find(' ') == std::string::npos)
          << "\"" << line << "\" is wider than " << width << " with a space to break at";
      start = end + 1;
    }
  }
}

}  // namespace
}  // namespace gui
