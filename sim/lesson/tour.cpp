// tour.cpp — names, cells and numbers as tours spell them, preparing a tour against the
// model (tour_model.cpp answers the queries), and checking a student's answers.
#include "sim/lesson/validation.h"
#include "sim/lesson/tour.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "sim/io/number_text.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/snapshot.h"

namespace sim {

std::vector<std::string> Measurement::QuotedLines() const {
  std::vector<std::string> quoted = lines;
  for (const MeasuredTable& table : tables) {
    for (const std::vector<std::string>& row : table.rows) {
      std::string line;
      for (const std::string& cell : row) line += (line.empty() ? "" : " ") + cell;
      quoted.push_back(line);
    }
  }
  return quoted;
}
namespace {

const std::vector<std::string> kPanelIds{"matrices", "shared_tiles", "kernel_source", "narration",
                                         "counters", "threads",      "hazards",       "race_lab",
                                         "timeline", "occupancy",    "guide",         "controls",
                                         "live_gpu"};

}  // namespace

// ---- Names --------------------------------------------------------------------------------

const std::vector<std::string>& TourPanelIds() { return kPanelIds; }

bool IsTourPanelId(std::string_view id) {
  return std::find(kPanelIds.begin(), kPanelIds.end(), id) != kPanelIds.end();
}

const char* Name(TourPosition::Kind kind) {
  switch (kind) {
    case TourPosition::Kind::kStep:
      return "step";
    case TourPosition::Kind::kBarrierRelease:
      return "barrier_release";
    case TourPosition::Kind::kPhaseStart:
      return "phase_start";
    case TourPosition::Kind::kFirstHazard:
      return "first_hazard";
    case TourPosition::Kind::kEnd:
      return "end";
  }
  return "step";
}

const char* Name(CellSpace space) {
  switch (space) {
    case CellSpace::kA:
      return "A";
    case CellSpace::kB:
      return "B";
    case CellSpace::kC:
      return "C";
    case CellSpace::kAs:
      return "As";
    case CellSpace::kBs:
      return "Bs";
  }
  return "C";
}

const char* Name(QuestionKind kind) {
  switch (kind) {
    case QuestionKind::kNumber:
      return "number";
    case QuestionKind::kChoice:
      return "choice";
    case QuestionKind::kCells:
      return "cells";
  }
  return "number";
}

bool CellRef::operator<(const CellRef& o) const {
  if (space != o.space) return space < o.space;
  if (row != o.row) return row < o.row;
  return col < o.col;
}

std::optional<CellRef> ParseCellRef(std::string_view text) {
  const std::size_t open = text.find('[');
  if (open == std::string_view::npos) return std::nullopt;
  const std::string_view space = text.substr(0, open);
  CellRef cell;
  bool known = false;
  for (CellSpace candidate : {CellSpace::kA, CellSpace::kB, CellSpace::kC, CellSpace::kAs, CellSpace::kBs}) {
    if (space == Name(candidate)) {
      cell.space = candidate;
      known = true;
    }
  }
  if (!known) return std::nullopt;
  // "[row][col]" and nothing after it.
  int values[2] = {0, 0};
  std::size_t at = open;
  for (int& value : values) {
    if (at >= text.size() || text[at] != '[') return std::nullopt;
    const std::size_t close = text.find(']', at);
    if (close == std::string_view::npos || close == at + 1 || close - at > 7) return std::nullopt;
    const std::string digits(text.substr(at + 1, close - at - 1));
    if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    value = std::atoi(digits.c_str());
    at = close + 1;
  }
  if (at != text.size()) return std::nullopt;
  cell.row = values[0];
  cell.col = values[1];
  return cell;
}

std::string CellText(const CellRef& cell) {
  return std::string(Name(cell.space)) + "[" + std::to_string(cell.row) + "][" + std::to_string(cell.col) + "]";
}

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[48];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  }
  return buffer;
}

bool SameQuery(std::string_view a, std::string_view b) {
  QueryParse left = ParseQueryCall(a);
  QueryParse right = ParseQueryCall(b);
  if (!left.error.empty() || !right.error.empty()) return false;
  std::sort(left.call.arguments.begin(), left.call.arguments.end());
  std::sort(right.call.arguments.begin(), right.call.arguments.end());
  return left.call.name == right.call.name && left.call.arguments == right.call.arguments;
}

namespace {

bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// `word` in `text` with no letter or digit glued to either end; a number also not continued
// by a decimal point and a digit ("2" is not in "2.5", nor in "128").
bool HasWord(std::string_view text, std::string_view word) {
  if (word.empty()) return false;
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    const bool starts = at == 0 || !WordChar(text[at - 1]) || !WordChar(word.front());
    bool ends = end == text.size() || !WordChar(text[end]) || !WordChar(word.back());
    if (ends && end + 1 < text.size() && text[end] == '.' && std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
      ends = false;
    }
    const bool after_point = at >= 2 && text[at - 1] == '.' && std::isdigit(static_cast<unsigned char>(text[at - 2]));
    if (starts && ends && !after_point) return true;
  }
  return false;
}

}  // namespace

bool TextStatesAnswer(std::string_view text, const QueryValue& answer) {
  switch (answer.kind) {
    case QueryKind::kNumber:
      return HasWord(text, FormatNumber(answer.number));
    case QueryKind::kText:
      return HasWord(text, answer.text);
    case QueryKind::kCells:
      return std::any_of(answer.cells.begin(), answer.cells.end(),
                         [&](const CellRef& cell) { return text.find(CellText(cell)) != std::string_view::npos; });
  }
  return false;
}

const char* const kTourCancelled = "cancelled";

// ---- Preparing a whole tour ---------------------------------------------------------------

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

// ---- Answers ------------------------------------------------------------------------------

AnswerParse ParseAnswer(const Question& question, std::string_view text) {
  AnswerParse parse;
  std::string trimmed(text);
  trimmed.erase(0, trimmed.find_first_not_of(" \t"));
  trimmed.erase(trimmed.find_last_not_of(" \t") + 1);
  if (trimmed.empty()) {
    parse.error = "no answer given";
    return parse;
  }
  StudentAnswer answer;
  if (question.kind == QuestionKind::kNumber || question.kind == QuestionKind::kChoice) {
    std::string problem;
    const std::optional<double> read = ReadDecimal(trimmed, problem);
    if (!read) {
      parse.error = problem;
      return parse;
    }
    const double number = *read;
    if (question.kind == QuestionKind::kChoice) {
      const double count = static_cast<double>(question.choices.size());
      if (number != std::floor(number) || number < 1 || number > count) {
        parse.error = "'" + trimmed + "' is not a choice: answer 1 to " + FormatNumber(count);
        return parse;
      }
      answer.choice = static_cast<int>(number) - 1;
    }
    answer.number = number;
    parse.answer = answer;
    return parse;
  }
  std::size_t start = 0;
  while (start < trimmed.size()) {
    const std::size_t first = trimmed.find_first_not_of(" ,", start);
    if (first == std::string::npos) break;
    std::size_t end = trimmed.find_first_of(" ,", first);
    if (end == std::string::npos) end = trimmed.size();
    const std::string word = trimmed.substr(first, end - first);
    const std::optional<CellRef> cell = ParseCellRef(word);
    if (!cell) {
      parse.error = "'" + word + "' is not a cell such as As[1][0]";
      return parse;
    }
    answer.cells.push_back(*cell);
    start = end;
  }
  std::sort(answer.cells.begin(), answer.cells.end());
  answer.cells.erase(std::unique(answer.cells.begin(), answer.cells.end()), answer.cells.end());
  parse.answer = answer;
  return parse;
}

Reveal CheckAnswer(const Question& question, const PreparedStop& prepared, const StudentAnswer& answer) {
  Reveal reveal;
  reveal.why = prepared.why;
  switch (question.kind) {
    case QuestionKind::kNumber:
      reveal.right = prepared.answer.text;
      reveal.student = FormatNumber(answer.number);
      reveal.correct = std::fabs(answer.number - prepared.answer.number) <= question.tolerance;
      break;
    case QuestionKind::kChoice: {
      const auto text_of = [&question](int index) {
        return index >= 0 && index < static_cast<int>(question.choices.size())
                   ? question.choices[static_cast<std::size_t>(index)].text
                   : std::string("no choice");
      };
      reveal.right = text_of(prepared.right_choice);
      reveal.student = text_of(answer.choice);
      reveal.correct = answer.choice == prepared.right_choice;
      break;
    }
    case QuestionKind::kCells: {
      std::vector<CellRef> given = answer.cells;
      std::sort(given.begin(), given.end());
      given.erase(std::unique(given.begin(), given.end()), given.end());
      reveal.right = prepared.answer.text.empty() ? "no cells" : prepared.answer.text;
      for (const CellRef& cell : given) reveal.student += (reveal.student.empty() ? "" : " ") + CellText(cell);
      if (given.empty()) reveal.student = "no cells";
      reveal.correct = given == prepared.answer.cells;
      break;
    }
  }
  return reveal;
}

}  // namespace sim
