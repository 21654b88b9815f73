#include "app/gui/text_item.h"

#include "app/gui/displayable_text.h"

#include <algorithm>
#include <cfloat>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace gui {
namespace {

constexpr std::size_t kExamplesKept = 5;
constexpr float kSlack = 1.0f;  // ImGui places items at whole pixels

// The scope being recorded. One UI thread draws, one panel at a time (ImGui's own context is
// global the same way).
struct Recording {
  TextCount* count = nullptr;
  bool presentation = false;
  // One entry per open table or child: whether it scrolls sideways with its scrollbar in view.
  // ImGui reports a sideways scroll range for any window whose content is wider
  // (GetScrollMaxX), with a scrollbar or not; only a scrollbar the reader can see lets them get
  // there: a table whose scrollbar lies below the panel's fold cuts its last columns with no sign
  // that more is there.
  std::vector<bool> regions;
  bool ScrollsSideways() const { return !regions.empty() && regions.back() && ImGui::GetScrollMaxX() > 0.0f; }
};
Recording& Current() {
  static Recording recording;
  return recording;
}

void Record(ImVec2 min, ImVec2 max, ImVec2 clip_min, ImVec2 clip_max, const char* text, const char* text_end) {
  Recording& recording = Current();
  if (!recording.count) return;
  ++recording.count->items;
  const bool cut_sideways = min.x < clip_min.x - kSlack || max.x > clip_max.x + kSlack;
  const bool cut_vertically = min.y < clip_min.y - kSlack || max.y > clip_max.y + kSlack;
  // In the normal view a panel scrolls down; text scrolled out of view is not judged sideways
  // (ImGui may not clip it to the columns of a table row it skips).
  const bool out_of_view = max.y <= clip_min.y || min.y >= clip_max.y;
  if (recording.count->kept_shown && !out_of_view && max.x > clip_min.x && min.x < clip_max.x) {
    recording.count->shown.emplace_back(text, text_end ? text_end : text + std::char_traits<char>::length(text));
    if (ImGui::GetStyle().Alpha < 1.0f) recording.count->dimmed.push_back(recording.count->shown.back());
  }
  const bool clipped = recording.presentation
                           ? cut_sideways || cut_vertically
                           : !out_of_view && cut_sideways && !recording.ScrollsSideways();
  if (!clipped) return;
  ++recording.count->clipped;
  if (recording.count->clipped_examples.size() < kExamplesKept) {
    recording.count->clipped_examples.emplace_back(text, text_end ? text_end : text + std::char_traits<char>::length(text));
  }
}

// The last item against the current window's clip rect (a table cell's inside a table).
void RecordLastItem(const char* text, const char* text_end = nullptr) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  Record(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), list->GetClipRectMin(), list->GetClipRectMax(), text,
         text_end);
}

std::string Format(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(length > 0 ? static_cast<std::size_t>(length) : 0, '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}

// Draws `text` as ImGui::TextUnformatted does, in what the font has, wrapped at spaces when a
// wrap position is pushed.
void DrawUnformatted(const char* text, const char* text_end, bool wrapped) {
  std::string shown = Displayable(text, text_end, ImGui::GetFont());
  if (wrapped) shown = WrapAtSpaces(shown, ImGui::GetContentRegionAvail().x);
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
}

}  // namespace

nlohmann::json TextCount::ToJson() const {
  nlohmann::json out{{"text_items", items}, {"clipped_text", clipped}, {"clipped_examples", clipped_examples}};
  if (kept_shown) {
    out["shown_text"] = shown;
    out["dimmed_text"] = dimmed;
  }
  return out;
}

TextRecordScope::TextRecordScope(TextCount& count, bool presentation, bool keep_shown) {
  count = TextCount{};
  count.kept_shown = keep_shown;
  Current() = Recording{&count, presentation, {}};
}

TextRecordScope::~TextRecordScope() { Current() = Recording{}; }

void Text(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  TextUnformatted(text.c_str());
}

void TextColored(const ImVec4& colour, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
}

void TextDisabled(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
}

void TextWrapped(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  ImGui::PushTextWrapPos(0.0f);
  DrawUnformatted(text.c_str(), nullptr, true);
  ImGui::PopTextWrapPos();
  RecordLastItem(text.c_str());
}

void TextWrappedColored(const ImVec4& colour, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::PushTextWrapPos(0.0f);
  DrawUnformatted(text.c_str(), nullptr, true);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  RecordLastItem(text.c_str());
}

void BulletText(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  ImGui::BulletText("%s", Displayable(text.c_str(), nullptr, ImGui::GetFont()).c_str());
  RecordLastItem(text.c_str());
}

void TextUnformatted(const char* text, const char* text_end) {
  DrawUnformatted(text, text_end, false);
  RecordLastItem(text, text_end);
}

bool Button(const char* label, const ImVec2& size) {
  const bool pressed = ImGui::Button(label, size);
  RecordLastItem(label);
  return pressed;
}

bool SmallButton(const char* label) {
  const bool pressed = ImGui::SmallButton(label);
  RecordLastItem(label);
  return pressed;
}

bool Checkbox(const char* label, bool* value) {
  const bool changed = ImGui::Checkbox(label, value);
  RecordLastItem(label);
  return changed;
}

bool RadioButton(const char* label, bool active) {
  const bool pressed = ImGui::RadioButton(label, active);
  RecordLastItem(label);
  return pressed;
}

bool Selectable(const char* label, bool selected, ImGuiSelectableFlags flags, const ImVec2& size) {
  const ImVec2 text_min = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::Selectable(label, selected, flags, size);
  if ((flags & ImGuiSelectableFlags_SpanAllColumns) == 0) {
    RecordLastItem(label);
    return pressed;
  }
  // A row-wide selectable's item spans every column, but its label is drawn in the first
  // column only: the label's own rectangle is what may be cut there.
  const ImVec2 text_size = ImGui::CalcTextSize(label, nullptr, true);
  ImDrawList* list = ImGui::GetWindowDrawList();
  Record(text_min, ImVec2(text_min.x + text_size.x, text_min.y + text_size.y), list->GetClipRectMin(),
         list->GetClipRectMax(), label, nullptr);
  return pressed;
}

void RecordItem(const char* label) { RecordLastItem(label); }

// Called just inside a region that may scroll sideways (its own ImGui window), with the bottom
// of what its parent shows: its horizontal scrollbar, along its bottom edge, is in view.
bool ScrollbarInView(float parent_visible_bottom) {
  return ImGui::GetWindowPos().y + ImGui::GetWindowHeight() <= parent_visible_bottom + kSlack;
}

bool BeginTable(const char* id, int columns, ImGuiTableFlags flags, const ImVec2& outer_size, float inner_width) {
  const float parent_bottom = ImGui::GetWindowDrawList()->GetClipRectMax().y;
  if (!ImGui::BeginTable(id, columns, flags, outer_size, inner_width)) return false;
  Current().regions.push_back((flags & ImGuiTableFlags_ScrollX) != 0 && ScrollbarInView(parent_bottom));
  return true;
}

void EndTable() {
  ImGui::EndTable();
  Current().regions.pop_back();
}

bool BeginChild(const char* id, const ImVec2& size, bool border, ImGuiWindowFlags flags) {
  const float parent_bottom = ImGui::GetWindowDrawList()->GetClipRectMax().y;
  const bool open = ImGui::BeginChild(id, size, border, flags);
  Current().regions.push_back((flags & ImGuiWindowFlags_HorizontalScrollbar) != 0 && ScrollbarInView(parent_bottom));
  return open;
}

void EndChild() {
  ImGui::EndChild();
  Current().regions.pop_back();
}

// Text of `label` (up to "##") whose top-left corner is `at`, against the current clip rect
// narrowed to `box_max` on the right.
void RecordLabelAt(ImVec2 at, const char* label, float box_right = FLT_MAX) {
  const char* end = label + std::char_traits<char>::length(label);
  if (const char* hidden = std::strstr(label, "##")) end = hidden;
  if (end == label) return;
  const ImVec2 size = ImGui::CalcTextSize(label, end);
  ImDrawList* list = ImGui::GetWindowDrawList();
  ImVec2 clip_max = list->GetClipRectMax();
  clip_max.x = std::min(clip_max.x, box_right);
  Record(at, ImVec2(at.x + size.x, at.y + size.y), list->GetClipRectMin(), clip_max, label, end);
}

ImVec2 LabelOfLastItem(float indent) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 min = ImGui::GetItemRectMin();
  return ImVec2(min.x + indent, min.y + style.FramePadding.y);
}

bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags) {
  const bool open = ImGui::CollapsingHeader(label, flags);
  RecordLabelAt(LabelOfLastItem(ImGui::GetTreeNodeToLabelSpacing()), label);
  return open;
}

bool TreeNode(const char* label) {
  const bool open = ImGui::TreeNode(label);
  // An open node indents what follows; its own label sat one indent to the left.
  RecordLabelAt(LabelOfLastItem(ImGui::GetTreeNodeToLabelSpacing()), label);
  return open;
}

// Measured before ImGui::BeginCombo: once open, the current window is its popup.
bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::CalcItemWidth();
  const float arrow = ImGui::GetFrameHeight();
  const ImVec2 text_at(at.x + style.FramePadding.x, at.y + style.FramePadding.y);
  RecordLabelAt(text_at, preview, at.x + width - arrow);
  RecordLabelAt(ImVec2(at.x + width + style.ItemInnerSpacing.x, text_at.y), label);
  return ImGui::BeginCombo(label, preview, flags);
}

void TableHeadersRow() {
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int column = 0; column < ImGui::TableGetColumnCount(); ++column) {
    if (!ImGui::TableSetColumnIndex(column)) continue;
    const char* name = ImGui::TableGetColumnName(column);
    const ImVec2 at = ImGui::GetCursorScreenPos();  // the header's item spans the cell's padding too
    ImGui::PushID(column);
    ImGui::TableHeader(name);
    ImGui::PopID();
    RecordLabelAt(at, name);
  }
}

void ProgressBar(float fraction, const ImVec2& size, const char* overlay) {
  ImGui::ProgressBar(fraction, size, overlay);
  if (!overlay) return;
  const ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 max = ImGui::GetItemRectMax();
  const float text_width = ImGui::CalcTextSize(overlay).x;
  const ImVec2 at(0.5f * (min.x + max.x - text_width), min.y + ImGui::GetStyle().FramePadding.y);
  RecordLabelAt(at, overlay, max.x);
}

void DrawText(ImDrawList* list, ImVec2 pos, ImU32 colour, const char* text, const char* text_end) {
  DrawText(list, ImGui::GetFont(), ImGui::GetFontSize(), pos, colour, text, text_end);
}

void DrawText(ImDrawList* list, const ImFont* font, float font_size, ImVec2 pos, ImU32 colour, const char* text,
              const char* text_end) {
  const std::string shown = Displayable(text, text_end, font);
  list->AddText(font, font_size, pos, colour, shown.c_str(), shown.c_str() + shown.size());
  const ImVec2 size = font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, shown.c_str(), shown.c_str() + shown.size());
  Record(pos, ImVec2(pos.x + size.x, pos.y + size.y), list->GetClipRectMin(), list->GetClipRectMax(), text, text_end);
}

}  // namespace gui
