// text_item.h — every piece of text a panel draws goes through here, so the app can say how
// much of it a reader cannot see (--dump-state's `text_items` and `clipped_text` per panel).
//
// A screenshot looked at by eye misses a word cut at a panel's edge; a count does not. Each
// helper draws exactly what the ImGui call of the same name draws, then records the text's
// rectangle against what clips it right now (the panel, a child region or a table cell):
//   - cut off sideways with no horizontal scrollbar in view to reach it: clipped (a table
//     whose scrollbar lies below the panel's fold hides its last columns without a sign);
//   - in presentation mode, any part outside what the panel shows (sideways or below): clipped,
//     since a room cannot scroll.
// Text drawn outside a recording scope (menus, the status bar, tooltips) is drawn, not counted.
//
// To route a panel's text through it: `gui::Text(...)` for `ImGui::Text(...)` and so on; an
// ImGui item with a label that has no helper here (a combo, a slider, an input) is followed by
// `gui::RecordItem(label)`; text on a draw list goes through `gui::DrawText`.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gui {

// What one panel drew in one frame.
struct TextCount {
  int items = 0;
  int clipped = 0;
  std::vector<std::string> clipped_examples;  // the first few, so a failing test names them
  // Every text drawn at least partly in view, in order, when the scope keeps them (a frame whose
  // state is dumped): what a reader of the panel can see, for tests that ask what it says.
  std::vector<std::string> shown;
  // Those of `shown` drawn dimmed (a disabled control: ImGui::BeginDisabled lowers the style's alpha).
  std::vector<std::string> dimmed;
  bool kept_shown = false;

  nlohmann::json ToJson() const;
};

// Text drawn while one is alive counts towards `count` (reset when the scope opens), and with
// `keep_shown` is kept as well. PanelTable opens one around each panel's contents; scopes do
// not nest.
class TextRecordScope {
 public:
  TextRecordScope(TextCount& count, bool presentation, bool keep_shown = false);
  ~TextRecordScope();
  TextRecordScope(const TextRecordScope&) = delete;
  TextRecordScope& operator=(const TextRecordScope&) = delete;
};

void Text(const char* format, ...) IM_FMTARGS(1);
void TextColored(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);
void TextDisabled(const char* format, ...) IM_FMTARGS(1);
void TextWrapped(const char* format, ...) IM_FMTARGS(1);
// A sentence in a colour, wrapped at the panel's edge (ImGui has no one call for it).
void TextWrappedColored(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);
void BulletText(const char* format, ...) IM_FMTARGS(1);
void TextUnformatted(const char* text, const char* text_end = nullptr);
bool Button(const char* label, const ImVec2& size = ImVec2(0.0f, 0.0f));
bool SmallButton(const char* label);
bool Checkbox(const char* label, bool* value);
bool RadioButton(const char* label, bool active);
bool Selectable(const char* label, bool selected = false, ImGuiSelectableFlags flags = 0,
                const ImVec2& size = ImVec2(0.0f, 0.0f));

// Tables and child regions that scroll sideways (ImGuiTableFlags_ScrollX, or a child with
// ImGuiWindowFlags_HorizontalScrollbar): text cut at their edge can be scrolled to when their
// scrollbar is in view, so it does not count as clipped in the normal view. Used as ImGui's;
// every Begin is paired with its End as ImGui asks (EndTable only when BeginTable returned
// true, EndChild always).
bool BeginTable(const char* id, int columns, ImGuiTableFlags flags = 0, const ImVec2& outer_size = ImVec2(0.0f, 0.0f),
                float inner_width = 0.0f);
void EndTable();
bool BeginChild(const char* id, const ImVec2& size = ImVec2(0.0f, 0.0f), bool border = false,
                ImGuiWindowFlags flags = 0);
void EndChild();

// The label is recorded where it is drawn (ImGui's item spans the width, the label may not fit).
bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags = 0);
bool TreeNode(const char* label);
// Records the label and the preview, which counts as cut when it does not fit its box.
bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags = 0);
// Each column's header, recorded as its label (a header cell cuts a label too long for it).
void TableHeadersRow();
// The overlay counts as cut when it is wider than the bar.
void ProgressBar(float fraction, const ImVec2& size = ImVec2(-FLT_MIN, 0.0f), const char* overlay = nullptr);

// Records the last ImGui item (a slider, an input field) as text named `label`.
void RecordItem(const char* label);
// The same around an ImGui call that returns a result:
//   if (gui::Recorded(ImGui::InputInt("seed", &seed), "seed")) ...
template <typename Result>
Result Recorded(Result result, const char* label) {
  RecordItem(label);
  return result;
}

// Whether `next_text` fits on the line of the last item, after it. `before_text` is what the
// next item draws ahead of its text (a checkbox's box).
inline bool FitsBeside(const char* next_text, float before_text = 0.0f) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float needed = ImGui::GetStyle().ItemSpacing.x + before_text + ImGui::CalcTextSize(next_text).x;
  return ImGui::GetItemRectMax().x + needed <= right;
}

// Puts the next item on the line of the last one when `next_text` fits beside it, else on a
// new line: a sentence built from parts wraps between them instead of being cut at the edge.
inline void SameLineIfFits(const char* next_text, float before_text = 0.0f) {
  if (FitsBeside(next_text, before_text)) ImGui::SameLine();
}

// Draws text on a draw list (matrix cells, plot labels) and records its rectangle.
void DrawText(ImDrawList* list, ImVec2 pos, ImU32 colour, const char* text, const char* text_end = nullptr);
void DrawText(ImDrawList* list, const ImFont* font, float font_size, ImVec2 pos, ImU32 colour, const char* text,
              const char* text_end = nullptr);

}  // namespace gui
