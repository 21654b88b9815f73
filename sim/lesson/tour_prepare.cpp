// tour_prepare.cpp — preparing a whole tour against the model: each stop's position resolved,
// its figures filled and its claims checked by the queries (tour_model.cpp answers them), its
// question's answer worked out, one model per distinct edited lesson under one budget.
#include "sim/lesson/tour.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/io/number_text.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/lesson/validation.h"
#include "sim/model/geometry.h"
#include "sim/model/snapshot.h"

namespace sim {

const char* const kTourCancelled = "cancelled";

namespace {

bool SameValue(const QueryValue& right, const std::string& value, double tolerance) {
  if (right.kind != QueryKind::kNumber) return value == right.text;
  std::string problem;
  const std::optional<double> number = ReadDecimal(value, problem);
  if (!number) return false;
  return std::fabs(*number - right.number) <= tolerance + 1e-9 * std::max(1.0, std::fabs(right.number));
}

// A cell a stop or an answer names must lie inside its matrix or the focused block's tile.
std::string CellProblem(const CellRef& cell, const Geometry& g) {
  int rows = 0;
  int cols = 0;
  switch (cell.space) {
    case CellSpace::kA:
      rows = g.m, cols = g.k;
      break;
    case CellSpace::kB:
      rows = g.k, cols = g.n;
      break;
    case CellSpace::kC:
      rows = g.m, cols = g.n;
      break;
    case CellSpace::kAs:
      rows = g.naive ? 0 : g.tm, cols = g.tk;
      break;
    case CellSpace::kBs:
      rows = g.naive ? 0 : g.tk, cols = g.tn;
      break;
  }
  if (cell.row < rows && cell.col < cols) return "";
  return CellText(cell) + " is outside " + Name(cell.space) + " (" + std::to_string(rows) + "×" +
         std::to_string(cols) + ")";
}

// Each claimed figure beside what its query counts at `step`; the error names the query.
std::string CheckClaims(TourModel& model, const std::vector<Claim>& claims, std::int64_t step,
                        std::vector<CheckedClaim>& checked) {
  for (const Claim& claim : claims) {
    std::string error;
    const std::optional<QueryValue> value = model.Evaluate(claim.query, step, &error);
    if (!value) return error;
    if (value->kind != QueryKind::kNumber) return "query '" + claim.query + "' is not a number";
    checked.push_back({claim, value->number, SameValue(*value, FormatNumber(claim.figure), 0)});
  }
  return "";
}

// Whether a quotation states the question's answer: its words hold it, or a claim counts the
// question's own query. Such a quotation waits for the reveal.
bool StatesAnswer(const std::vector<std::string>& words, const std::vector<Claim>& claims, const Question& question,
                  const QueryValue& answer) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& text) { return TextStatesAnswer(text, answer); }) ||
         std::any_of(claims.begin(), claims.end(),
                     [&](const Claim& claim) { return SameQuery(claim.query, question.query); });
}

std::string PrepareStop(TourModel& model, const TourStop& stop, PreparedStop& out) {
  std::string error;
  const std::optional<std::int64_t> step = model.Resolve(stop.at, &error);
  if (!step) return "\"at\": " + error;
  out.step = *step;
  out.title = stop.title;
  const Geometry g = MakeGeometry(model.lesson());
  if (stop.block && (stop.block->x >= g.grid_x || stop.block->y >= g.grid_y || stop.block->x < 0 || stop.block->y < 0)) {
    return "\"block\": " + Coordinates(stop.block->x, stop.block->y) + " is not in the grid";
  }
  if (stop.thread && (stop.thread->x >= g.tn || stop.thread->y >= g.tm || stop.thread->x < 0 || stop.thread->y < 0)) {
    return "\"thread\": " + Coordinates(stop.thread->x, stop.thread->y) + " is not in a block of " +
           std::to_string(g.tn) + "×" + std::to_string(g.tm) + " threads";
  }
  for (const CellRef& cell : stop.cells) {
    if (std::string problem = CellProblem(cell, g); !problem.empty()) return "\"cells\": " + problem;
  }
  std::optional<std::string> text = model.Fill(stop.text, out.step, &error);
  if (!text) return "\"text\": " + error;
  out.text = *text;
  out.quote = stop.quote;
  if (stop.quote) {
    if (std::string problem = CheckClaims(model, stop.quote->claims, out.step, out.claims); !problem.empty()) {
      return "\"seed\" claim: " + problem;
    }
  }
  out.measured = stop.measured;
  if (stop.measured) {
    if (std::string problem = CheckClaims(model, stop.measured->claims, out.step, out.measured_claims); !problem.empty()) {
      return "\"measured\" claim: " + problem;
    }
  }
  if (!stop.question) return "";
  const Question& question = *stop.question;
  out.has_question = true;
  std::optional<std::string> prompt = model.Fill(question.prompt, out.step, &error);
  if (!prompt) return "\"question\".\"prompt\": " + error;
  std::optional<std::string> why = model.Fill(question.why, out.step, &error);
  if (!why) return "\"question\".\"why\": " + error;
  out.prompt = *prompt;
  out.why = *why;
  const std::optional<QueryValue> answer = model.Evaluate(question.query, out.step, &error);
  if (!answer) return "\"question\".\"query\": " + error;
  out.answer = *answer;
  if (stop.quote) out.quote_after_reveal = StatesAnswer({stop.quote->text}, stop.quote->claims, question, *answer);
  if (stop.measured) {
    out.measured_after_reveal = StatesAnswer(stop.measured->QuotedLines(), stop.measured->claims, question, *answer);
  }
  if (question.kind == QuestionKind::kNumber && answer->kind != QueryKind::kNumber) {
    return "\"question\": a number question's query '" + question.query + "' gives no number";
  }
  if (question.kind == QuestionKind::kCells && answer->kind != QueryKind::kCells) {
    return "\"question\": a cells question's query '" + question.query + "' gives no cells";
  }
  if (question.kind == QuestionKind::kChoice) {
    std::vector<std::string> matches;
    for (std::size_t i = 0; i < question.choices.size(); ++i) {
      if (!SameValue(*answer, question.choices[i].value, question.tolerance)) continue;
      matches.push_back(std::to_string(i + 1));
      out.right_choice = static_cast<int>(i);
    }
    if (matches.empty()) {
      return "\"question\": no choice is the model's answer " + answer->text + " (query '" + question.query + "')";
    }
    if (matches.size() > 1) {
      std::string listed = matches.front();
      for (std::size_t i = 1; i < matches.size(); ++i) listed += " and " + matches[i];
      return "\"question\": choices " + listed + " all equal the model's answer " + answer->text;
    }
  }
  return "";
}

}  // namespace

PreparedTour PrepareTour(const LessonConfig& lesson, const Tour& tour, const std::atomic<bool>* cancel,
                         std::atomic<int>* stops_done, TourBudget* shared_budget) {
  PreparedTour prepared;
  if (tour.empty()) return prepared;
  if (auto problem = Validate(lesson)) {
    prepared.error = "the lesson cannot run: " + problem->message;
    return prepared;
  }
  // One model per distinct edited lesson, however its "edits" are spelled, all under one budget.
  TourBudget own_budget;
  TourBudget& budget = shared_budget ? *shared_budget : own_budget;
  std::map<std::string, TourModel> models;  // by the edited lesson's JSON
  // The JSON of each "edits" as spelled: a lesson with explicit A and B values is megabytes of
  // it, written once per spelling, not once per stop.
  std::map<std::string, std::string> lesson_of_edits;
  for (std::size_t i = 0; i < tour.stops.size(); ++i) {
    if (cancel != nullptr && cancel->load()) {
      prepared.stops.clear();
      prepared.error = kTourCancelled;
      return prepared;
    }
    PreparedStop stop;
    std::string error;
    LessonConfig edited = lesson;
    const std::optional<ValidationError> problem =
        tour.stops[i].edits.empty() ? std::nullopt : ApplyLessonEdits(tour.stops[i].edits, edited);
    auto found = models.end();
    if (problem) {
      error = "\"edits\": " + problem->message;
    } else if (auto invalid = Validate(edited)) {
      error = "\"edits\": the edited lesson cannot run: " + invalid->message;
    } else {
      auto [spelled, first] = lesson_of_edits.try_emplace(tour.stops[i].edits);
      if (first) spelled->second = LessonToJson(edited);
      const std::string& key = spelled->second;
      found = models.find(key);
      // The model's own run of the lesson, kept while the tour is prepared.
      if (found == models.end()) {
        if (auto over = budget.Charge(Expected(edited).thread_instructions, EstimateModelMemory(edited).lesson, 0)) {
          error = *over;
        } else {
          found = models.emplace(key, TourModel(edited, cancel, &budget)).first;
        }
      }
    }
    if (error.empty()) {
      stop.lesson = found->second.lesson();
      error = PrepareStop(found->second, tour.stops[i], stop);
    }
    if (!error.empty() && cancel != nullptr && cancel->load()) error = kTourCancelled;
    if (error == kTourCancelled) {
      prepared.stops.clear();
      prepared.error = kTourCancelled;  // not the stop's fault: the run was stopped
      return prepared;
    }
    if (!error.empty()) {
      const std::string& title = tour.stops[i].title;
      prepared.stops.clear();
      prepared.error = "tour stop " + std::to_string(i + 1) + (title.empty() ? "" : " (\"" + title + "\")") + ": " + error;
      return prepared;
    }
    prepared.stops.push_back(std::move(stop));
    if (stops_done != nullptr) stops_done->store(static_cast<int>(i + 1));
  }
  return prepared;
}

}  // namespace sim
