// tour.cpp — names, cells and numbers as tours spell them (the panel ids, positions, cell
// references, numbers) and whether a text states an answer. Preparing a tour against the model
// is tour_prepare.cpp, checking a student's answers tour_answers.cpp.
#include "sim/lesson/tour.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

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

}  // namespace sim
