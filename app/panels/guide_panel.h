// guide_panel.h — the guided tour of a lesson: "stop 3 of 12", the stop's text (its figures
// filled from the model by sim/lesson/tour.h), a source document's own words shown as its claim, a
// measurement quoted from its results file, and
// the stop's question with its answer field; once answered, the reveal (the right answer, why,
// and the student's own). The panel draws a view the lesson page fills and queues actions
// (guide-answer, guide-next…); it never decides what is right.
//
// Keyboard alone suffices: at a question stop the answer field takes the keys, so a number is
// typed and Enter sends it; a choice is its digit, or ↑/↓ then Enter (nothing is chosen
// beforehand, and Enter on an empty field sends nothing); cells are typed as
// "As[1][0] As[1][1]". Esc leaves the field, so the lesson's keys work again; Enter returns.
// T (lecturer mode) works in the field too: no answer holds the letter.
//
// Lecturer mode asks the class: the question and its choices in large type, no field; V
// reveals the model's answer and why to everyone.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "sim/lesson/tour.h"

namespace gui {

enum class GuideQuestionKind { kNone, kNumber, kChoice, kCells };

// What the panel shows, filled by the lesson page from the tour and the model.
struct GuideView {
  struct Reveal {
    bool correct = false;
    std::string yours;  // the student's answer as they gave it
    std::string right;  // the model's answer
    std::string why;
    bool to_class = false;  // lecturer mode: the model's answer shown to everyone, nobody's answer checked
  };
  std::string lesson;   // the lesson's name
  int stop = 0;         // 0-based
  int stops = 0;
  std::string title;
  std::string text;     // placeholders already filled from the model
  std::string quote;    // a source document's words, verbatim; "" when the stop quotes none
  std::string quote_source;  // the document it comes from: "the 4×4 walkthrough exercise"
  std::vector<std::string> claim_checks;  // each figure the quote states beside the model's count
  // A measurement the stop quotes from a results file: where it was measured, the file's lines
  // (as tables, their columns in words), and each measured figure beside the model's count.
  // Empty when the stop quotes none.
  std::string measured_source;  // "Measured on NVIDIA H100 80GB HBM3 (docs/results/…)"
  std::vector<std::string> measured_lines;
  std::vector<sim::MeasuredTable> measured_tables;
  std::vector<std::string> measured_checks;
  GuideQuestionKind kind = GuideQuestionKind::kNone;
  std::string question;
  std::vector<std::string> choices;
  std::string cells_hint;  // kCells: how to write the cells ("As[row][col]")
  std::optional<Reveal> reveal;  // once answered
  bool lecturer = false;  // the class is asked: no answer field, the lecturer reveals
  int right = 0;          // the lesson's score: right answers of those given
  int answered = 0;
  int questions = 0;      // in the whole tour
  bool held = false;      // the next stop waits for this stop's answer
  std::string edited;     // why the lesson on screen is not the tour's (an edit); "" when it is
};

// A lesson's tour being prepared on a worker (the model runs each stop's queries).
struct GuidePreparationView {
  std::string lesson;
  int stops = 0;
  int done = 0;  // stops prepared so far
  bool cancelling = false;
};

struct GuidePanel {
  void Draw(const FrameContext& frame, const GuideView& view);
  // A small window over the page while a tour is prepared: the lesson, the stops done, and a
  // Cancel (the guide-cancel action, also Esc). Drawn whatever panels the layout shows.
  static void DrawPreparation(const FrameContext& frame, const GuidePreparationView& view);
  // The keys go to the answer field from the next frame (the guide-answer-field action).
  void FocusAnswer() { focus_field_ = true; }
  // A cell clicked in Matrices or Shared tiles: into the answer being typed, or out if there.
  void ToggleCell(const std::string& cell);
  // --dump-state: what the panel shows, and the answer field's state.
  nlohmann::json Describe(const GuideView& view) const;

 private:
  void DrawHeader(const GuideView& view);
  void DrawQuestion(const FrameContext& frame, const GuideView& view);
  void DrawClassQuestion(const FrameContext& frame, const GuideView& view);
  void DrawAnswerField(const FrameContext& frame, const GuideView& view);
  void DrawReveal(const GuideView::Reveal& reveal);
  void DrawMeasured(const GuideView& view, bool presentation);
  static void DrawMeasuredTable(const sim::MeasuredTable& table);
  void DrawKeys(const GuideView& view);

  std::array<char, 128> draft_{};  // the answer being typed
  int highlighted_ = -1;           // the choice ↑/↓ moved to (0-based; -1: none yet)
  int shown_stop_ = -1;            // a new stop clears the draft and focuses the field
  std::string shown_lesson_;
  bool focus_field_ = false;
  bool field_active_ = false;
  float text_px_ = 0.0f;      // the panel's type size as last drawn (--dump-state) ...
  float question_px_ = 0.0f;  // ... and the question's: larger for a class
};

}  // namespace gui
