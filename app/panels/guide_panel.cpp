#include "app/panels/guide_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

// The width of the widest space-separated word of `texts`, in pixels at the current font.
float WidestWord(const std::vector<std::string>& texts) {
  float widest = 0.0f;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find(' ', start), text.size());
      widest = std::max(widest, ImGui::CalcTextSize(text.data() + start, text.data() + end).x);
      start = end + 1;
    }
  }
  return std::max(widest, 1.0f);
}

nlohmann::json MeasuredTablesJson(const std::vector<sim::MeasuredTable>& tables) {
  nlohmann::json out = nlohmann::json::array();
  for (const sim::MeasuredTable& table : tables) out.push_back({{"columns", table.columns}, {"rows", table.rows}});
  return out;
}

using palette::Colour;

const char* KindName(GuideQuestionKind kind) {
  switch (kind) {
    case GuideQuestionKind::kNone: return "none";
    case GuideQuestionKind::kNumber: return "number";
    case GuideQuestionKind::kChoice: return "choice";
    case GuideQuestionKind::kCells: return "cells";
  }
  return "none";
}

bool Asking(const GuideView& view) {
  return view.kind != GuideQuestionKind::kNone && !view.lecturer && !view.reveal;
}

// No answer holds a T (numbers, choices by digit, cells As Bs C), so the lecturer's switch
// works while the field has the keys: the letter is taken out of the text and flagged.
int TakeLecturerKey(ImGuiInputTextCallbackData* data) {
  if (data->EventChar != 't' && data->EventChar != 'T') return 0;
  *static_cast<bool*>(data->UserData) = true;
  return 1;
}

}  // namespace

void GuidePanel::DrawPreparation(const FrameContext& frame, const GuidePreparationView& view) {
  const ImVec2 top((frame.area_min.x + frame.area_max.x) * 0.5f, frame.area_min.y + ImGui::GetFontSize());
  ImGui::SetNextWindowPos(top, ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowFocus();  // over the panels, which go on drawing under it
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  if (!ImGui::Begin("##preparing-tour", nullptr, flags)) {
    ImGui::End();
    return;
  }
  gui::Text("Preparing the tour of %s\u2026", view.lesson.c_str());
  gui::Text("the model has prepared %d of %d stops; the lesson on show stays until it is ready", view.done, view.stops);
  const float fraction = view.stops > 0 ? static_cast<float>(view.done) / static_cast<float>(view.stops) : 0.0f;
  ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 24.0f, 0.0f));
  ImGui::SameLine();
  ImGui::BeginDisabled(view.cancelling);
  if (ImGui::Button(view.cancelling ? "Cancelling\u2026" : "Cancel (Esc)")) frame.actions.Push("guide-cancel");
  ImGui::EndDisabled();
  ImGui::End();
}

void GuidePanel::Draw(const FrameContext& frame, const GuideView& view) {
  if (view.stops == 0) {
    gui::TextWrapped("This lesson has no tour. Open one that has (File \u2192 lessons, or --lesson default) to be "
                     "guided stop by stop.");
    return;
  }
  if (view.stop != shown_stop_ || view.lesson != shown_lesson_) {
    shown_stop_ = view.stop;
    shown_lesson_ = view.lesson;
    draft_.fill('\0');
    highlighted_ = -1;  // nothing chosen until the student chooses
    focus_field_ = Asking(view);  // the keys go to the answer as soon as the question is on screen
  }
  text_px_ = ImGui::GetFontSize();
  DrawHeader(view);
  if (!view.edited.empty()) gui::TextWrappedColored(Colour(palette::kOrange), "%s", view.edited.c_str());
  ImGui::Separator();
  gui::TextWrapped("%s", view.text.c_str());
  if (!view.quote.empty()) {
    ImGui::Spacing();
    gui::TextWrappedColored(Colour(palette::kOrange), "Claimed by %s: \u201C%s\u201D", view.quote_source.c_str(),
                            view.quote.c_str());
    for (const std::string& check : view.claim_checks) gui::TextWrapped("\u2022 %s", check.c_str());
  }
  if (!view.measured_source.empty()) DrawMeasured(view, frame.presentation);
  if (view.kind != GuideQuestionKind::kNone) {
    ImGui::Spacing();
    ImGui::Separator();
    DrawQuestion(frame, view);
  }
  ImGui::Spacing();
  DrawKeys(view);
}

void GuidePanel::DrawHeader(const GuideView& view) {
  gui::Text("Stop %d of %d", view.stop + 1, view.stops);
  if (!view.title.empty()) {
    const std::string title = "\u00B7 " + view.title;
    SameLineIfFits(title.c_str());
    gui::TextWrapped("%s", title.c_str());
  }
  if (view.lecturer) {
    gui::TextWrappedColored(Colour(palette::kSkyBlue), "lecturer mode: ask the class, V reveals (T: back to students)");
    return;  // a class keeps no score
  }
  char score[96];
  std::snprintf(score, sizeof score, "score %d of %d (%d question%s in this lesson)", view.right, view.answered,
                view.questions, view.questions == 1 ? "" : "s");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("%s", score);
  ImGui::PopStyleColor();
}

// Lecturer mode: the question and its choices in large type for a show of hands, no field;
// V (guide-reveal) shows the model's answer and why to everyone.
void GuidePanel::DrawClassQuestion(const FrameContext& frame, const GuideView& view) {
  field_active_ = false;  // no field: the keys are the lesson's
  ImGui::PushFont(frame.fonts.large);
  question_px_ = ImGui::GetFontSize();
  gui::TextWrapped("%s", view.question.c_str());
  for (std::size_t i = 0; i < view.choices.size(); ++i) gui::TextWrapped("%zu.  %s", i + 1, view.choices[i].c_str());
  if (view.reveal) {
    ImGui::Spacing();
    gui::TextWrappedColored(Colour(palette::kBluishGreen), "%s %s", palette::kGlyphCheck, view.reveal->right.c_str());
  }
  ImGui::PopFont();
  if (view.reveal && !view.reveal->why.empty()) gui::TextWrapped("Why: %s", view.reveal->why.c_str());
  if (!view.reveal) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("V: reveal the model's answer and why");
    ImGui::PopStyleColor();
  }
}

void GuidePanel::DrawQuestion(const FrameContext& frame, const GuideView& view) {
  if (view.lecturer) {
    DrawClassQuestion(frame, view);
    return;
  }
  question_px_ = ImGui::GetFontSize();
  gui::TextWrapped("Predict: %s", view.question.c_str());
  if (view.kind == GuideQuestionKind::kChoice) {
    for (int i = 0; i < static_cast<int>(view.choices.size()); ++i) {
      const bool marked = Asking(view) && i == highlighted_;
      char line[16];
      std::snprintf(line, sizeof line, "%s%d.", marked ? "\u25B6 " : "   ", i + 1);
      gui::Text("%s", line);
      ImGui::SameLine();
      if (marked) {
        gui::TextWrappedColored(Colour(palette::kSkyBlue), "%s", view.choices[static_cast<std::size_t>(i)].c_str());
      } else {
        gui::TextWrapped("%s", view.choices[static_cast<std::size_t>(i)].c_str());
      }
    }
  } else if (view.kind == GuideQuestionKind::kCells && !view.cells_hint.empty() && !view.reveal) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("Type %s", view.cells_hint.c_str());
    ImGui::PopStyleColor();
  }
  if (view.reveal) {
    DrawReveal(*view.reveal);
  } else {
    DrawAnswerField(frame, view);
  }
}

// One field for every kind of answer, so a script's `guide-answer TEXT` and a student's typing
// go the same way. Enter with the field empty sends the choice ↑/↓ moved to, and nothing when
// none was: a stray Enter must not answer for the student.
void GuidePanel::DrawAnswerField(const FrameContext& frame, const GuideView& view) {
  const int choices = static_cast<int>(view.choices.size());
  if (field_active_ && view.kind == GuideQuestionKind::kChoice && choices > 0) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) {
      highlighted_ = highlighted_ < 0 ? choices - 1 : (highlighted_ + choices - 1) % choices;
    }
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) highlighted_ = (highlighted_ + 1) % choices;
  }
  const char* hint = view.kind == GuideQuestionKind::kNumber   ? "type the number, then Enter"
                     : view.kind == GuideQuestionKind::kChoice ? "a digit, or \u2191/\u2193, then Enter"
                                                               : "cells, then Enter";
  if (focus_field_) {
    ImGui::SetKeyboardFocusHere();
    focus_field_ = false;
  }
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 14.0f));
  bool lecturer_key = false;
  const bool sent = ImGui::InputTextWithHint("##answer", hint, draft_.data(), draft_.size(),
                                             ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackCharFilter,
                                             TakeLecturerKey, &lecturer_key);
  RecordItem(hint);
  field_active_ = ImGui::IsItemActive();
  if (lecturer_key) frame.actions.Push("guide-lecturer");
  if (!sent) return;
  std::string answer(draft_.data());
  if (answer.find_first_not_of(' ') == std::string::npos) {
    if (view.kind != GuideQuestionKind::kChoice || highlighted_ < 0) {
      focus_field_ = true;  // Enter left the field: the keys stay with the question
      return;
    }
    answer = std::to_string(highlighted_ + 1);
  }
  frame.actions.Push("guide-answer", answer);
  draft_.fill('\0');
}

void GuidePanel::DrawReveal(const GuideView::Reveal& reveal) {
  ImGui::Spacing();
  if (reveal.correct) {
    gui::TextWrappedColored(Colour(palette::kBluishGreen), "%s Right: %s", palette::kGlyphCheck, reveal.right.c_str());
  } else {
    gui::TextWrappedColored(Colour(palette::kVermillion), "%s Your answer: %s", palette::kGlyphCross,
                            reveal.yours.c_str());
    gui::TextWrappedColored(Colour(palette::kBluishGreen), "%s The model's answer: %s", palette::kGlyphCheck,
                            reveal.right.c_str());
  }
  if (!reveal.why.empty()) gui::TextWrapped("Why: %s", reveal.why.c_str());
}

void GuidePanel::DrawKeys(const GuideView& view) {
  if (view.held) {
    gui::TextWrappedColored(Colour(palette::kOrange), "Answer to go on (the next stop waits for your prediction).");
    return;
  }
  if (view.lecturer && view.kind != GuideQuestionKind::kNone && !view.reveal) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("V: reveal \u00B7 N / PageDown: next stop \u00B7 P / PageUp: back");
    ImGui::PopStyleColor();
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (view.stop + 1 < view.stops) {
    gui::TextWrapped("N / PageDown: next stop \u00B7 P / PageUp: back");
  } else {
    gui::TextWrapped("The last stop. P / PageUp: back");
  }
  ImGui::PopStyleColor();
}

void GuidePanel::ToggleCell(const std::string& cell) {
  std::istringstream words(draft_.data());
  std::string kept;
  bool removed = false;
  for (std::string word; words >> word;) {
    if (word == cell) {
      removed = true;
    } else {
      kept += (kept.empty() ? "" : " ") + word;
    }
  }
  if (!removed) kept += (kept.empty() ? "" : " ") + cell;
  if (kept.size() >= draft_.size()) return;  // the field is full: the click is ignored
  draft_.fill('\0');
  std::copy(kept.begin(), kept.end(), draft_.begin());
  focus_field_ = true;  // Enter sends it
}

// A measurement's quoted lines in words. Each line reads as one wrapped sentence of its fields
// ("tiled2_nosync2 · size 4 · mean % of C 0.00%"), the least height, where it is one
// line or in presentation (a room cannot scroll); else as the table turned on its side: a
// row per column of the file and a column per line, so eleven figures still fit a narrow
// Guide and each cell wraps at spaces, never inside a number.
void GuidePanel::DrawMeasured(const GuideView& view, bool presentation) {
  ImGui::Spacing();
  gui::TextWrappedColored(Colour(palette::kSkyBlue), "%s:", view.measured_source.c_str());
  for (const std::string& line : view.measured_lines) {
    gui::TextWrappedColored(Colour(palette::kSkyBlue), "\u201C%s\u201D", line.c_str());
  }
  int index = 0;
  for (const sim::MeasuredTable& table : view.measured_tables) {
    ImGui::PushID(index++);
    if (table.rows.size() == 1 || presentation) {
      for (const std::vector<std::string>& row : table.rows) {
        // The first cell names the row (the kernel), so it goes without its column's name, as
        // does a cell whose column has none (a label that says itself); "-" (not run) is left out.
        std::string sentence = row.front();
        for (std::size_t field = 1; field < table.columns.size(); ++field) {
          if (row[field] == "-") continue;
          const std::string& name = table.columns[field];
          sentence += " \u00b7 " + (name.empty() ? row[field] : name + " " + row[field]);
        }
        gui::TextWrapped("%s", sentence.c_str());
      }
    } else {
      DrawMeasuredTable(table);
    }
    ImGui::PopID();
  }
  for (const std::string& check : view.measured_checks) gui::TextWrapped("\u2022 %s", check.c_str());
}

void GuidePanel::DrawMeasuredTable(const sim::MeasuredTable& table) {
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!gui::BeginTable("##measured", static_cast<int>(table.rows.size()) + 1, kFlags)) return;
  // Wrapped cells have no width of their own: the panel's width is shared out in proportion to
  // each column's longest word, so where the words fit at all none is broken ("tiled16_nosy|nc2").
  ImGui::TableSetupColumn("##field", ImGuiTableColumnFlags_WidthStretch, WidestWord(table.columns));
  for (const std::vector<std::string>& row : table.rows) {
    ImGui::TableSetupColumn("##row", ImGuiTableColumnFlags_WidthStretch, WidestWord(row));
  }
  for (std::size_t field = 0; field < table.columns.size(); ++field) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::TextWrappedColored(Colour(palette::kSkyBlue), "%s", table.columns[field].c_str());
    for (const std::vector<std::string>& row : table.rows) {
      ImGui::TableNextColumn();
      gui::TextWrapped("%s", row[field].c_str());
    }
  }
  gui::EndTable();
}

nlohmann::json GuidePanel::Describe(const GuideView& view) const {
  nlohmann::json out = {{"lesson", view.lesson},
                        {"stop", view.stop + 1},
                        {"stops", view.stops},
                        {"title", view.title},
                        {"text", view.text},
                        {"quote", view.quote},
                        {"quote_source", view.quote_source},
                        {"claim_checks", view.claim_checks},
                        {"measured", {{"source", view.measured_source},
                                      {"lines", view.measured_lines},
                                      {"tables", MeasuredTablesJson(view.measured_tables)},
                                      {"claim_checks", view.measured_checks}}},
                        {"edited", view.edited},
                        {"question", view.kind == GuideQuestionKind::kNone ? nlohmann::json(nullptr)
                                                                           : nlohmann::json(view.question)},
                        {"question_kind", KindName(view.kind)},
                        {"choices", view.choices},
                        {"lecturer", view.lecturer},
                        {"text_px", text_px_},
                        {"question_px", question_px_},
                        {"held", view.held},
                        {"score", {{"right", view.right}, {"answered", view.answered}, {"questions", view.questions}}},
                        {"answer_field", {{"draft", std::string(draft_.data())},
                                          {"active", field_active_},
                                          {"highlighted_choice", highlighted_ < 0 ? nlohmann::json(nullptr)
                                                                                  : nlohmann::json(highlighted_ + 1)}}}};
  if (view.reveal) {
    out["answer"] = {{"state", view.reveal->to_class ? "revealed" : view.reveal->correct ? "right" : "wrong"},
                     {"yours", view.reveal->yours},
                     {"right", view.reveal->right},
                     {"why", view.reveal->why}};
  } else {
    out["answer"] = {{"state", Asking(view)                                                   ? "waiting"
                               : view.lecturer && view.kind != GuideQuestionKind::kNone ? "asked of the class"
                                                                                       : "none"}};
  }
  return out;
}

}  // namespace gui
