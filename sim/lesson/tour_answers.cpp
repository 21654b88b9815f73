// tour_answers.cpp — a student's answer to a stop's question: read from what was typed (a
// number, a choice, cells) and checked against the prepared stop's answer.
#include "sim/lesson/tour.h"

#include <algorithm>
#include <cmath>

#include "sim/io/number_text.h"

namespace sim {

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
