// A lesson file's "tour" read: JSON to sim::Tour (tour_file_writer.cpp writes it back). Every
// value's type is checked before it is read, and every problem names the stop (counted from 1,
// as the Guide panel shows them) and the key, so a teacher can find it in the file.
#include <set>

#include "sim/io/json_input.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/tour.h"

namespace sim {
namespace {

using nlohmann::json;

struct BadTour {
  std::string message;
};

const std::set<std::string> kStopKeys{"title", "edits", "at", "block", "thread", "cells", "lines",
                                      "panels", "text", "seed", "measured", "question"};
const std::set<std::string> kAtKeys{"step", "event", "block", "phase", "barrier"};
const std::set<std::string> kSeedKeys{"id", "text", "claims"};
const std::set<std::string> kMeasuredKeys{"file", "device", "lines", "tables", "claims"};
const std::set<std::string> kTableKeys{"columns", "rows"};
const std::set<std::string> kQuestionKeys{"kind", "prompt", "query", "tolerance", "choices", "why"};
const std::set<std::string> kChoiceKeys{"text", "value", "seed"};

class StopReader {
 public:
  StopReader(std::size_t index, std::vector<std::string>& warnings)
      : where_("tour stop " + std::to_string(index + 1)), warnings_(warnings) {}

  TourStop Read(const json& value) {
    if (!value.is_object()) Fail(where_ + " = " + DescribeJsonValue(value) + " is not an object");
    WarnUnknown(value, kStopKeys, "");
    TourStop stop;
    stop.title = String(value, "title", "", false);
    stop.edits = String(value, "edits", "", false);
    if (!value.contains("at")) Fail(where_ + " has no \"at\": say where it goes ({\"step\": N} or {\"event\": ...})");
    stop.at = ReadAt(value.at("at"));
    if (value.contains("block")) stop.block = Pair(value.at("block"), "block");
    if (value.contains("thread")) stop.thread = Pair(value.at("thread"), "thread");
    for (const std::string& name : Strings(value, "cells")) {
      const std::optional<CellRef> cell = ParseCellRef(name);
      if (!cell) Fail(Where("cells") + " \"" + name + "\" is not a cell such as \"As[1][0]\" or \"C[0][0]\"");
      stop.cells.push_back(*cell);
    }
    for (const std::string& name : Strings(value, "lines")) stop.lines.push_back(ReadLine(name));
    for (const std::string& id : Strings(value, "panels")) {
      if (!IsTourPanelId(id)) {
        std::string ids;
        for (const std::string& known : TourPanelIds()) ids += (ids.empty() ? "" : ", ") + known;
        Fail(Where("panels") + " \"" + id + "\" is not a panel (" + ids + ")");
      }
      stop.panels.push_back(id);
    }
    stop.text = String(value, "text", "", true);
    CheckPlaceholders(stop.text, "text");
    if (value.contains("seed")) stop.quote = ReadSeed(value.at("seed"));
    if (value.contains("measured")) stop.measured = ReadMeasured(value.at("measured"));
    if (value.contains("question")) stop.question = ReadQuestion(value.at("question"));
    return stop;
  }

 private:
  [[noreturn]] static void Fail(const std::string& message) { throw BadTour{message}; }
  std::string Where(const std::string& key) const { return where_ + ": \"" + key + "\""; }

  void WarnUnknown(const json& object, const std::set<std::string>& known, const std::string& prefix) {
    for (const auto& item : object.items()) {
      if (known.count(item.key()) == 0) {
        warnings_.push_back("unknown key '" + prefix + item.key() + "' in " + where_ + " ignored");
      }
    }
  }

  // A tour's text is drawn every frame it is on show: bounded as a lesson's description is.
  std::string Bounded(const json& value, const std::string& name) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.size() > kMaxLessonTextBytes) {
      Fail(Where(name) + " is " + std::to_string(text.size()) + " bytes long; a tour's text is at most " +
           std::to_string(kMaxLessonTextBytes));
    }
    return text;
  }

  std::string String(const json& object, const char* key, const std::string& prefix, bool required) {
    if (!object.contains(key)) {
      if (required) Fail(where_ + " has no \"" + prefix + key + "\"");
      return "";
    }
    const json& value = object.at(key);
    if (!value.is_string()) Fail(Where(prefix + key) + " = " + DescribeJsonValue(value) + " is not a string");
    return Bounded(value, prefix + key);
  }

  int Int(const json& object, const char* key, const std::string& prefix, int fallback) {
    if (!object.contains(key)) return fallback;
    const json& value = object.at(key);
    if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > (1ll << 40)) {
      Fail(Where(prefix + key) + " = " + DescribeJsonValue(value) + " is not a non-negative whole number");
    }
    return static_cast<int>(std::min<long long>(value.get<long long>(), 1ll << 30));
  }

  std::vector<std::string> Strings(const json& object, const char* key, const std::string& prefix = "") {
    std::vector<std::string> out;
    if (!object.contains(key)) return out;
    const json& value = object.at(key);
    const std::string name = prefix + key;
    if (!value.is_array()) Fail(Where(name) + " = " + DescribeJsonValue(value) + " is not an array of strings");
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) {
        Fail(Where(name) + "[" + std::to_string(i) + "] = " + DescribeJsonValue(value[i]) + " is not a string");
      }
      out.push_back(Bounded(value[i], name + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  Coordinates2 Pair(const json& value, const std::string& key) {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number_integer() || !value[1].is_number_integer() ||
        value[0].get<long long>() < 0 || value[1].get<long long>() < 0 || value[0].get<long long>() > 65535 ||
        value[1].get<long long>() > 65535) {
      Fail(Where(key) + " = " + DescribeJsonValue(value) + " is not [x, y] with whole numbers from 0");
    }
    return {static_cast<int>(value[0].get<long long>()), static_cast<int>(value[1].get<long long>())};
  }

  TourPosition ReadAt(const json& value) {
    if (!value.is_object()) Fail(Where("at") + " = " + DescribeJsonValue(value) + " is not an object");
    WarnUnknown(value, kAtKeys, "at.");
    TourPosition at;
    if (value.contains("step")) {
      const json& step = value.at("step");
      if (!step.is_number_integer() || step.get<long long>() < 0) {
        Fail(Where("at.step") + " = " + DescribeJsonValue(step) + " is not a step number (0 or more)");
      }
      if (value.contains("event")) Fail(Where("at") + " names both a step and an event: give one");
      at.kind = TourPosition::Kind::kStep;
      at.step = step.get<long long>();
      return at;
    }
    const std::string event = String(value, "event", "at.", false);
    bool known = false;
    for (TourPosition::Kind kind : {TourPosition::Kind::kBarrierRelease, TourPosition::Kind::kPhaseStart,
                                    TourPosition::Kind::kFirstHazard, TourPosition::Kind::kEnd}) {
      if (event == Name(kind)) {
        at.kind = kind;
        known = true;
      }
    }
    if (!known) {
      Fail(Where("at") + (event.empty() ? std::string(" needs \"step\" or \"event\"") : " event \"" + event + "\" is unknown") +
           " (events: barrier_release, phase_start, first_hazard, end)");
    }
    if (value.contains("block")) at.block = Pair(value.at("block"), "at.block");
    at.phase = Int(value, "phase", "at.", 1);
    at.barrier = Int(value, "barrier", "at.", 1);
    if (at.barrier != 1 && at.barrier != 2) Fail(Where("at.barrier") + " = " + std::to_string(at.barrier) + " is not 1 or 2");
    if (at.phase < 1) Fail(Where("at.phase") + " = 0: phases count from 1");
    return at;
  }

  Op ReadLine(const std::string& name) {
    for (int op = 0; op < kOpCount; ++op) {
      if (name == kMarkerNames[static_cast<std::size_t>(op)]) return static_cast<Op>(op);
    }
    std::string names;
    for (const char* marker : kMarkerNames) names += (names.empty() ? "" : ", ") + std::string(marker);
    Fail(Where("lines") + " \"" + name + "\" is not a statement of the kernel (" + names + ")");
  }

  void CheckQuery(const std::string& query, const std::string& key) {
    const QueryParse parse = ParseQueryCall(query);
    if (!parse.error.empty()) Fail(Where(key) + ": " + parse.error);
  }

  // Each "{...}" must name a known query; the values come later, from the model.
  void CheckPlaceholders(const std::string& text, const std::string& key) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if ((text[i] == '{' || text[i] == '}') && i + 1 < text.size() && text[i + 1] == text[i]) {
        ++i;
        continue;
      }
      if (text[i] == '}') Fail(Where(key) + ": a '}' at character " + std::to_string(i + 1) + " closes no placeholder");
      if (text[i] != '{') continue;
      const std::size_t close = text.find('}', i);
      if (close == std::string::npos) {
        Fail(Where(key) + ": the placeholder at character " + std::to_string(i + 1) + " has no closing '}'");
      }
      CheckQuery(text.substr(i + 1, close - i - 1), key);
      i = close;
    }
  }

  SeedQuote ReadSeed(const json& value) {
    if (!value.is_object()) Fail(Where("seed") + " = " + DescribeJsonValue(value) + " is not an object");
    WarnUnknown(value, kSeedKeys, "seed.");
    SeedQuote quote;
    quote.seed = String(value, "id", "seed.", true);
    quote.text = String(value, "text", "seed.", true);
    quote.claims = ReadClaims(value, "seed.");
    return quote;
  }

  Measurement ReadMeasured(const json& value) {
    if (!value.is_object()) Fail(Where("measured") + " = " + DescribeJsonValue(value) + " is not an object");
    WarnUnknown(value, kMeasuredKeys, "measured.");
    Measurement measured;
    measured.file = String(value, "file", "measured.", true);
    measured.device = String(value, "device", "measured.", true);
    if (!value.contains("lines") && !value.contains("tables")) {
      Fail(where_ + " has no \"measured.lines\" or \"measured.tables\": quote the results file's lines");
    }
    measured.lines = Strings(value, "lines", "measured.");
    if (value.contains("tables")) {
      const json& tables = value.at("tables");
      if (!tables.is_array()) Fail(Where("measured.tables") + " = " + DescribeJsonValue(tables) + " is not an array");
      for (std::size_t i = 0; i < tables.size(); ++i) measured.tables.push_back(ReadTable(tables[i], i));
    }
    if (measured.QuotedLines().empty()) Fail(Where("measured") + " quotes no line: quote at least one line of the file");
    measured.claims = ReadClaims(value, "measured.");
    return measured;
  }

  MeasuredTable ReadTable(const json& value, std::size_t index) {
    const std::string prefix = "measured.tables[" + std::to_string(index) + "].";
    if (!value.is_object()) {
      Fail(Where("measured.tables[" + std::to_string(index) + "]") + " = " + DescribeJsonValue(value) + " is not an object");
    }
    WarnUnknown(value, kTableKeys, prefix);
    MeasuredTable table;
    table.columns = Strings(value, "columns", prefix);
    if (table.columns.empty()) Fail(Where(prefix + "columns") + " is empty: name each column of the table");
    const json rows = value.contains("rows") ? value.at("rows") : json::array();
    if (!rows.is_array() || rows.empty()) Fail(Where(prefix + "rows") + " is not a list of rows: quote at least one");
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::string where = prefix + "rows[" + std::to_string(r) + "]";
      std::vector<std::string> row;
      if (rows[r].is_array()) {
        for (const json& cell : rows[r]) {
          if (!cell.is_string()) break;
          row.push_back(Bounded(cell, where));
        }
      }
      if (!rows[r].is_array() || row.size() != rows[r].size() || row.size() != table.columns.size()) {
        Fail(Where(where) + " is not a list of " + std::to_string(table.columns.size()) + " strings, one per column");
      }
      table.rows.push_back(std::move(row));
    }
    return table;
  }

  std::vector<Claim> ReadClaims(const json& quotation, const std::string& prefix) {
    std::vector<Claim> read;
    if (!quotation.contains("claims")) return read;
    const json& claims = quotation.at("claims");
    if (!claims.is_array()) Fail(Where(prefix + "claims") + " is not an array");
    for (std::size_t i = 0; i < claims.size(); ++i) {
      const json& claim = claims[i];
      const std::string at = prefix + "claims[" + std::to_string(i) + "]";
      if (!claim.is_object() || !claim.contains("figure") || !claim.at("figure").is_number() ||
          !claim.contains("query") || !claim.at("query").is_string()) {
        Fail(Where(at) + " is not {\"figure\": NUMBER, \"query\": \"...\"}");
      }
      Claim one{claim.at("figure").get<double>(), claim.at("query").get<std::string>()};
      CheckQuery(one.query, at + ".query");
      read.push_back(std::move(one));
    }
    return read;
  }

  Question ReadQuestion(const json& value) {
    if (!value.is_object()) Fail(Where("question") + " = " + DescribeJsonValue(value) + " is not an object");
    WarnUnknown(value, kQuestionKeys, "question.");
    Question question;
    const std::string kind = String(value, "kind", "question.", true);
    bool known = false;
    for (QuestionKind candidate : {QuestionKind::kNumber, QuestionKind::kChoice, QuestionKind::kCells}) {
      if (kind == Name(candidate)) {
        question.kind = candidate;
        known = true;
      }
    }
    if (!known) Fail(Where("question.kind") + " \"" + kind + "\" is not number, choice or cells");
    question.prompt = String(value, "prompt", "question.", true);
    question.query = String(value, "query", "question.", true);
    question.why = String(value, "why", "question.", false);
    CheckPlaceholders(question.prompt, "question.prompt");
    CheckPlaceholders(question.why, "question.why");
    CheckQuery(question.query, "question.query");
    if (value.contains("tolerance")) {
      const json& tolerance = value.at("tolerance");
      if (!tolerance.is_number() || tolerance.get<double>() < 0) {
        Fail(Where("question.tolerance") + " = " + DescribeJsonValue(tolerance) + " is not a number from 0");
      }
      question.tolerance = tolerance.get<double>();
    }
    if (question.kind == QuestionKind::kChoice) question.choices = ReadChoices(value);
    return question;
  }

  std::vector<Choice> ReadChoices(const json& question) {
    if (!question.contains("choices") || !question.at("choices").is_array() || question.at("choices").size() < 2) {
      Fail(Where("question.choices") + ": a choice question needs an array of at least two choices");
    }
    std::vector<Choice> choices;
    const json& array = question.at("choices");
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::string at = "question.choices[" + std::to_string(i) + "].";
      const json& item = array[i];
      if (!item.is_object()) Fail(Where(at.substr(0, at.size() - 1)) + " is not an object");
      WarnUnknown(item, kChoiceKeys, at);
      Choice choice;
      choice.text = String(item, "text", at, true);
      if (!item.contains("value") || !(item.at("value").is_number() || item.at("value").is_string())) {
        Fail(Where(at + "value") + " must be the number or word compared with the query's answer");
      }
      const json& compared = item.at("value");
      choice.value = compared.is_string() ? compared.get<std::string>() : compared.dump();
      choice.seed = String(item, "seed", at, false);
      choices.push_back(std::move(choice));
    }
    return choices;
  }

  std::string where_;
  std::vector<std::string>& warnings_;
};

}  // namespace

std::string ReadTour(const json& value, Tour& tour, std::vector<std::string>& warnings) {
  tour.stops.clear();
  try {
    if (!value.is_array()) throw BadTour{"tour = " + DescribeJsonValue(value) + " is not an array of stops"};
    for (std::size_t i = 0; i < value.size(); ++i) tour.stops.push_back(StopReader(i, warnings).Read(value[i]));
  } catch (const BadTour& bad) {
    tour.stops.clear();
    return bad.message;
  }
  return "";
}

}  // namespace sim
