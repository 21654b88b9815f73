#include "app/pages/guide_session.h"

#include <cstdlib>
#include <utility>

namespace gui {
namespace {

GuideQuestionKind KindOf(sim::QuestionKind kind) {
  switch (kind) {
    case sim::QuestionKind::kNumber: return GuideQuestionKind::kNumber;
    case sim::QuestionKind::kChoice: return GuideQuestionKind::kChoice;
    case sim::QuestionKind::kCells: return GuideQuestionKind::kCells;
  }
  return GuideQuestionKind::kNone;
}

// "the 4×4 walkthrough exercise says 512; the model counts 128 ✗",
// "the GPU measured 0; the model counts 0 ✓".
std::string ClaimCheck(const std::string& whose, const sim::CheckedClaim& checked) {
  return whose + " " + sim::FormatNumber(checked.claim.figure) + "; the model counts " +
         sim::FormatNumber(checked.model) + (checked.agrees ? " \u2713" : " \u2717");
}

}  // namespace

GuideSession::GuideSession(const nlohmann::json& saved) : saved_(saved.is_object() ? saved : nlohmann::json::object()) {
  if (saved_.contains("lecturer") && saved_["lecturer"].is_boolean()) lecturer_ = saved_["lecturer"].get<bool>();
  if (saved_.contains("follow") && saved_["follow"].is_boolean()) follow_ = saved_["follow"].get<bool>();
}

void GuideSession::Start(std::string key, sim::Tour tour, sim::PreparedTour prepared) {
  if (Active()) saved_ = Saved();  // keep the lesson being left
  key_ = std::move(key);
  tour_ = std::move(tour);
  prepared_ = std::move(prepared);
  stop_ = 0;
  answers_.clear();
  shown_to_class_.clear();
  if (!prepared_.ok() || prepared_.stops.size() != tour_.stops.size()) {
    tour_ = {};  // the loader refuses such a lesson; a tour the model cannot run is not shown
    return;
  }
  // A hand-edited settings file may hold anything: what does not fit this tour is dropped.
  const auto lessons = saved_.find("lessons");
  if (lessons == saved_.end() || !lessons->is_object() || !lessons->contains(key_)) return;
  const nlohmann::json& mine = lessons->at(key_);
  if (!mine.is_object()) return;
  if (mine.contains("answers") && mine["answers"].is_object()) {
    for (const auto& [stop, text] : mine["answers"].items()) {
      const int index = std::atoi(stop.c_str()) - 1;
      if (index >= 0 && index < stops() && text.is_string() && tour_.stops[static_cast<std::size_t>(index)].question) {
        Check(index, text.get<std::string>());
      }
    }
  }
  if (mine.contains("stop") && mine["stop"].is_number_integer()) {
    const int saved_stop = mine["stop"].get<int>() - 1;
    if (saved_stop >= 0 && saved_stop < stops()) stop_ = saved_stop;
  }
}

void GuideSession::End() {
  if (Active()) saved_ = Saved();
  key_.clear();
  tour_ = {};
  prepared_ = {};
  answers_.clear();
  shown_to_class_.clear();
  stop_ = 0;
}

bool GuideSession::Held() const {
  return Active() && Stop().question && !lecturer_ && answers_.count(stop_) == 0;
}

bool GuideSession::AnswerHidden() const {
  if (!Active() || !Stop().question) return false;
  return lecturer_ ? shown_to_class_.count(stop_) == 0 : answers_.count(stop_) == 0;
}

std::optional<std::string> GuideSession::RevealToClass() {
  if (!Active()) return std::string("this lesson has no tour");
  if (!Stop().question) return "stop " + std::to_string(stop_ + 1) + " asks no question";
  if (!lecturer_) return std::string("the reveal is lecturer mode's (T); a student answers in the Guide panel");
  shown_to_class_.insert(stop_);
  return std::nullopt;
}

std::optional<std::string> GuideSession::GoTo(int index, bool skip_questions) {
  if (!Active()) return std::string("this lesson has no tour");
  if (index < 0 || index >= stops()) {
    return "the tour has " + std::to_string(stops()) + " stops; there is no stop " + std::to_string(index + 1);
  }
  if (index > stop_ && Held() && !skip_questions) {
    return "answer stop " + std::to_string(stop_ + 1) + "'s question first (type it in the Guide panel, then Enter)" +
           "; lecturer mode (T) turns questions off";
  }
  stop_ = index;
  return std::nullopt;
}

void GuideSession::Check(int index, const std::string& text) {
  const sim::Question& question = *tour_.stops[static_cast<std::size_t>(index)].question;
  const sim::AnswerParse parsed = sim::ParseAnswer(question, text);
  if (!parsed.answer) return;
  answers_[index] = {text, sim::CheckAnswer(question, prepared_.stops[static_cast<std::size_t>(index)], *parsed.answer)};
}

std::optional<std::string> GuideSession::Answer(const std::string& text) {
  if (!Active()) return std::string("this lesson has no tour");
  if (!Stop().question) return "stop " + std::to_string(stop_ + 1) + " asks no question";
  if (answers_.count(stop_)) {
    return "stop " + std::to_string(stop_ + 1) + " was answered already (" + answers_.at(stop_).text +
           "): a prediction counts once";
  }
  const sim::AnswerParse parsed = sim::ParseAnswer(*Stop().question, text);
  if (!parsed.answer) return "not an answer: " + parsed.error;
  Check(stop_, text);
  return std::nullopt;
}

GuideView GuideSession::View() const {
  GuideView view;
  if (!Active()) return view;
  const sim::TourStop& stop = Stop();
  const sim::PreparedStop& prepared = Prepared();
  view.lesson = key_;
  view.stop = stop_;
  view.stops = stops();
  view.title = prepared.title;
  view.text = prepared.text;
  // A quotation that states this stop's own answer waits for the reveal (sim/lesson/tour.h).
  if (prepared.quote && !(prepared.quote_after_reveal && AnswerHidden())) {
    view.quote = prepared.quote->text;
    view.quote_source = prepared.quote->seed;
    for (const sim::CheckedClaim& checked : prepared.claims) {
      view.claim_checks.push_back(ClaimCheck(prepared.quote->seed + " says", checked));
    }
  }
  if (prepared.measured && !(prepared.measured_after_reveal && AnswerHidden())) {
    view.measured_source = "Measured on " + prepared.measured->device + " (" + prepared.measured->file + ")";
    view.measured_lines = prepared.measured->lines;
    view.measured_tables = prepared.measured->tables;
    for (const sim::CheckedClaim& checked : prepared.measured_claims) {
      view.measured_checks.push_back(ClaimCheck("the GPU measured", checked));
    }
  }
  if (stop.question) {
    view.kind = KindOf(stop.question->kind);
    view.question = prepared.prompt;
    for (const sim::Choice& choice : stop.question->choices) {
      view.choices.push_back(choice.seed.empty() ? choice.text : choice.text + " [" + choice.seed + "'s claim]");
    }
    if (view.kind == GuideQuestionKind::kCells) {
      const char* space = prepared.answer.cells.empty() ? "C" : sim::Name(prepared.answer.cells.front().space);
      view.cells_hint = std::string("cells like ") + space + "[0][1] " + space + "[2][3], a space between them, then Enter";
    }
  }
  if (stop.question && lecturer_ && shown_to_class_.count(stop_)) {
    const sim::Reveal reveal = sim::CheckAnswer(*stop.question, prepared, sim::StudentAnswer{});
    view.reveal = GuideView::Reveal{false, "", reveal.right, reveal.why, /*to_class=*/true};
  } else if (auto given = answers_.find(stop_); !lecturer_ && given != answers_.end()) {
    const sim::Reveal& reveal = given->second.reveal;
    view.reveal = GuideView::Reveal{reveal.correct, reveal.student, reveal.right, reveal.why};
  }
  view.lecturer = lecturer_;
  for (const auto& [index, given] : answers_) view.right += given.reveal.correct ? 1 : 0;
  view.answered = static_cast<int>(answers_.size());
  for (const sim::TourStop& each : tour_.stops) view.questions += each.question ? 1 : 0;
  view.held = Held();
  return view;
}

nlohmann::json GuideSession::Saved() const {
  nlohmann::json saved = saved_;
  saved["lecturer"] = lecturer_;
  saved["follow"] = follow_;
  if (!Active()) {
    saved.erase("lesson");  // a restart without --lesson reopens the last lesson, which had no tour
    return saved;
  }
  saved["lesson"] = key_;
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& [index, given] : answers_) answers[std::to_string(index + 1)] = given.text;
  if (!saved.contains("lessons") || !saved["lessons"].is_object()) saved["lessons"] = nlohmann::json::object();
  int right = 0;
  for (const auto& [index, given] : answers_) right += given.reveal.correct ? 1 : 0;
  // The score and the tour's length too, for the lesson list (it prepares no tour to show them).
  saved["lessons"][key_] = {{"stop", stop_ + 1}, {"answers", answers}, {"right", right}, {"stops", stops()}};
  return saved;
}

}  // namespace gui
