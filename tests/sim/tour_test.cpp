// Guided tours: every shipped lesson's tour prepares against the model (each stop resolves,
// each placeholder fills, each question's answer is the model's); lesson 1's answers against
// the closed forms of sim/formulas and the fmaf reference; a tour that contradicts the model,
// and every kind of malformed tour, is refused with a message naming the stop and the key.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/model/reference.h"
#include "sim/model/simulation.h"

namespace {

using nlohmann::json;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The default lesson's file with `tour` in place of its own.
std::string WithTour(const json& tour, int version = 2) {
  json lesson = json::parse(sim::LessonToJson(sim::DefaultLesson()));
  lesson["version"] = version;
  lesson["tour"] = tour;
  return lesson.dump(2);
}

json OneStop(const json& stop) { return json::array({stop}); }

std::string LoadError(const json& tour) {
  const sim::LessonLoad load = sim::ParseLesson(WithTour(tour));
  EXPECT_FALSE(load.lesson) << "a bad tour must refuse the whole lesson";
  EXPECT_TRUE(load.tour.empty());
  return load.error;
}

TEST(Tour, EveryShippedLessonLoadsAndEveryCurriculumLessonHasAQuestion) {
  const std::vector<std::string> curriculum = sim::CurriculumNames();
  for (const sim::LessonConfig& preset : sim::Presets()) {
    SCOPED_TRACE(preset.name);
    const sim::LessonLoad load = sim::LoadPreset(preset.name);
    ASSERT_TRUE(load.lesson) << load.error;
    EXPECT_TRUE(load.warnings.empty());
    if (std::find(curriculum.begin(), curriculum.end(), preset.name) == curriculum.end()) continue;
    ASSERT_FALSE(load.tour.empty()) << "a curriculum lesson without a tour";
    ASSERT_EQ(load.prepared.stops.size(), load.tour.stops.size());
    EXPECT_TRUE(std::any_of(load.tour.stops.begin(), load.tour.stops.end(),
                            [](const sim::TourStop& stop) { return stop.question.has_value(); }));
  }
  EXPECT_EQ(sim::Presets().front().name, "default") << "lesson 1 comes first";
}

// Each stop's position, text and answer again, straight from a fresh model of the lesson the
// stop shows (the file's, with the stop's edits): what the load prepared is what the model
// says, the stop lies within the run, no placeholder is left.
TEST(Tour, EveryStopResolvesFillsAndAnswersFromTheModel) {
  for (const std::string& name : sim::CurriculumNames()) {
    const sim::LessonLoad load = sim::LoadPreset(name);
    if (!load.lesson) continue;  // the test above names it
    SCOPED_TRACE(name);
    for (std::size_t i = 0; i < load.tour.stops.size(); ++i) {
      SCOPED_TRACE("stop " + std::to_string(i + 1));
      const sim::TourStop& stop = load.tour.stops[i];
      const sim::PreparedStop& prepared = load.prepared.stops[i];
      sim::LessonConfig shown = *load.lesson;
      if (!stop.edits.empty()) {
        ASSERT_FALSE(sim::ApplyLessonEdits(stop.edits, shown));
      }
      EXPECT_EQ(sim::LessonToJson(prepared.lesson), sim::LessonToJson(shown));
      sim::TourModel model(shown);
      sim::Simulation run(shown);
      run.RunToEnd();
      EXPECT_EQ(model.TotalSteps(), run.step());
      std::string error;
      const std::optional<std::int64_t> step = model.Resolve(stop.at, &error);
      ASSERT_TRUE(step) << error;
      EXPECT_EQ(*step, prepared.step);
      EXPECT_LE(*step, run.step());
      EXPECT_FALSE(Contains(prepared.text, "{") || Contains(prepared.text, "}")) << prepared.text;
      EXPECT_FALSE(prepared.text.empty());
      if (!stop.question) continue;
      const std::optional<sim::QueryValue> answer = model.Evaluate(stop.question->query, *step, &error);
      ASSERT_TRUE(answer) << error;
      EXPECT_EQ(answer->text, prepared.answer.text);
      if (stop.question->kind == sim::QuestionKind::kChoice) {
        ASSERT_GE(prepared.right_choice, 0);
        const std::string& value = stop.question->choices[static_cast<std::size_t>(prepared.right_choice)].value;
        EXPECT_TRUE(value == answer->text || std::stod(value) == answer->number) << value;
      }
    }
  }
}

// Lesson 1's figures against the closed forms and the reference product, never against the
// 4×4 walkthrough exercise's printed numbers.
TEST(Tour, LessonOneAnswersMatchTheClosedForms) {
  const sim::LessonLoad load = sim::LoadPreset("default");
  ASSERT_TRUE(load.lesson) << load.error;
  const sim::LessonConfig& lesson = *load.lesson;
  const sim::ClosedForms tiled = sim::Expected(lesson);
  sim::TourModel model(lesson);
  const auto number = [&model](const char* query) {
    std::string error;
    const std::optional<sim::QueryValue> value = model.Evaluate(query, 0, &error);
    EXPECT_TRUE(value) << query << ": " << error;
    return value ? value->number : -1.0;
  };
  const double elements = double(lesson.m) * lesson.n;
  EXPECT_EQ(number("reads.tiled"), double(tiled.global_reads()));
  EXPECT_EQ(number("reads.naive"), double(tiled.naive_global_reads));
  EXPECT_EQ(number("reads.naive.per_element"), double(tiled.naive_global_reads) / elements);
  EXPECT_EQ(number("reads.tiled.per_element"), tiled.ReadsPerElementOfC(lesson));
  EXPECT_EQ(number("reads.saving"), tiled.Saving());
  EXPECT_EQ(number("phases"), tiled.phases);

  // C[0][0] and its phase-1 partial sum from the reference's own fmaf chain.
  const sim::Simulation simulation(lesson);
  const std::vector<float>& reference = simulation.reference();
  EXPECT_EQ(number("c.value row=0 col=0"), reference[0]);
  float partial = 0.0f;
  std::string expression = "(";
  for (int k = 0; k < lesson.k; ++k) {
    const float a = simulation.a()[static_cast<std::size_t>(k)];
    const float b = simulation.b()[static_cast<std::size_t>(k) * lesson.n];
    if (k == lesson.tile) expression += ") + (";
    expression += (k % lesson.tile == 0 ? "" : " + ") + sim::FormatNumber(a) + "\u00b7" + sim::FormatNumber(b);
    if (k < lesson.tile) partial = std::fma(a, b, partial);
  }
  EXPECT_EQ(number("c.sum row=0 col=0 phase=1"), partial);
  EXPECT_EQ(number("c.phase_sum row=0 col=0 phase=1"), partial);
  EXPECT_EQ(number("c.phase_sum row=0 col=0 phase=2"), reference[0] - partial);
  std::string error;
  const std::optional<sim::QueryValue> written = model.Evaluate("c.expression row=0 col=0", 0, &error);
  ASSERT_TRUE(written) << error;
  EXPECT_EQ(written->text, expression + ") = " + sim::FormatNumber(reference[0]));

  // The exercise's claims are compared with the model, and the ones it gets wrong say so.
  int disagreeing = 0;
  for (const sim::PreparedStop& stop : load.prepared.stops) {
    for (const sim::CheckedClaim& claim : stop.claims) {
      const double counted = number(claim.claim.query.c_str());
      EXPECT_EQ(claim.model, counted) << claim.claim.query;
      EXPECT_EQ(claim.agrees, claim.claim.figure == counted) << claim.claim.query;
      disagreeing += claim.agrees ? 0 : 1;
    }
  }
  EXPECT_GE(disagreeing, 3)
      << "the 4×4 walkthrough exercise's naive count per element, its total and its saving are shown wrong";
}

TEST(Tour, PositionsNameTheEventsTheyPromise) {
  const sim::LessonConfig lesson = sim::DefaultLesson();
  sim::TourModel model(lesson);
  sim::TourPosition release;
  release.kind = sim::TourPosition::Kind::kBarrierRelease;
  release.block = {0, 0};
  release.phase = 1;
  std::string error;
  const std::optional<std::int64_t> step = model.Resolve(release, &error);
  ASSERT_TRUE(step) << error;
  // The step before has not released block 0's first barrier; the step itself has.
  sim::Simulation simulation(lesson);
  simulation.JumpTo(*step - 1);
  simulation.Step();
  const auto& events = simulation.last_step_events();
  EXPECT_TRUE(std::any_of(events.begin(), events.end(), [](const sim::TraceEvent& e) {
    return e.kind == sim::EventKind::kBarrierRelease && e.block == 0 && e.op == sim::Op::kBarrier1 && e.phase == 0;
  }));
  // There, block (0,0)'s tiles hold phase 1's values: As = A[0..1][0..1].
  const sim::SharedTile as = simulation.snapshot().tile(0, sim::TileId::kAs);
  EXPECT_EQ(as.at(0, 1).value, simulation.a()[1]);
  EXPECT_EQ(as.at(1, 0).value, simulation.a()[static_cast<std::size_t>(lesson.k)]);

  // Block (1,0)'s first instruction of phase 2: the step runs it, the steps before run none.
  sim::TourPosition start;
  start.kind = sim::TourPosition::Kind::kPhaseStart;
  start.block = {1, 0};
  start.phase = 2;
  const std::optional<std::int64_t> started = model.Resolve(start, &error);
  ASSERT_TRUE(started) << error;
  sim::Simulation walk(lesson);
  const auto runs_phase_2 = [](const sim::TraceEvent& e) { return e.thread >= 0 && e.block == 1 && e.phase == 1; };
  for (std::int64_t s = 1; s < *started; ++s) {
    walk.Step();
    ASSERT_FALSE(std::any_of(walk.last_step_events().begin(), walk.last_step_events().end(), runs_phase_2))
        << "block (1,0) ran phase 2 already at step " << s;
  }
  walk.Step();
  EXPECT_TRUE(std::any_of(walk.last_step_events().begin(), walk.last_step_events().end(), runs_phase_2));

  sim::TourPosition hazard;
  hazard.kind = sim::TourPosition::Kind::kFirstHazard;
  EXPECT_FALSE(model.Resolve(hazard, &error));
  EXPECT_EQ(error, "the run reports no hazard");
  sim::TourPosition late;
  late.kind = sim::TourPosition::Kind::kPhaseStart;
  late.phase = 3;
  EXPECT_FALSE(model.Resolve(late, &error));
  EXPECT_EQ(error, "block (0,0) has no phase 3: the lesson has 2");
}

TEST(Tour, AChoiceTheModelContradictsRefusesTheLesson) {
  json stop{{"at", {{"event", "end"}}}, {"text", "reads"}};
  stop["question"] = {{"kind", "choice"},
                      {"prompt", "saving?"},
                      {"query", "reads.saving"},
                      {"choices", {{{"text", "8x"}, {"value", 8}}, {{"text", "4x"}, {"value", 4}}}}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"question\": no choice is the model's answer 2 (query 'reads.saving')");
  stop["question"]["choices"] = {{{"text", "2x"}, {"value", 2}}, {{"text", "two"}, {"value", "2"}}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"question\": choices 1 and 2 all equal the model's answer 2");
  stop["question"]["choices"] = {{{"text", "2x"}, {"value", 2}},
                                 {{"text", "8x"}, {"value", 8}, {"seed", "the 4×4 walkthrough exercise"}}};
  const sim::LessonLoad load = sim::ParseLesson(WithTour(OneStop(stop)));
  ASSERT_TRUE(load.lesson) << load.error;
  EXPECT_EQ(load.prepared.stops[0].right_choice, 0);
}

TEST(Tour, MalformedToursGetPreciseMessages) {
  const json good{{"at", {{"step", 1}}}, {"text", "ok"}};
  ASSERT_TRUE(sim::ParseLesson(WithTour(OneStop(good))).lesson);

  json stop = good;
  stop["at"] = {{"step", 100000}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"at\": step 100000 is past the end of the run (68 steps)");
  stop["at"] = {{"step", "five"}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"at.step\" = \"five\" is not a step number (0 or more)");
  stop["at"] = {{"event", "sunrise"}};
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "tour stop 1: \"at\" event \"sunrise\" is unknown (events: "));
  stop = good;
  stop.erase("at");
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "tour stop 1 has no \"at\""));

  stop = good;
  stop["panels"] = {"matrices", "teapot"};
  EXPECT_TRUE(Contains(LoadError(json::array({good, stop})), "tour stop 2: \"panels\" \"teapot\" is not a panel (matrices, "));
  stop = good;
  stop["cells"] = "As[0][0]";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"cells\" = \"As[0][0]\" is not an array of strings");
  stop["cells"] = {"Q[0][0]"};
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "\"cells\" \"Q[0][0]\" is not a cell such as"));
  stop["cells"] = {"As[2][0]"};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"cells\": As[2][0] is outside As (2×2)");
  stop = good;
  stop["text"] = 7;
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"text\" = 7 is not a string");
  stop["text"] = "{reads.tild} reads";
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "tour stop 1: \"text\": unknown query 'reads.tild'"));
  stop["text"] = "{c.sum row=0 col=0} reads";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"text\": query 'c.sum' needs phase=N");
  stop["text"] = "{c.sum row=9 col=0 phase=1}";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"text\": query 'c.sum' row = 9 is outside 0..3");
  stop["text"] = "{reads colour=red}";
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "query 'reads' takes no arguments (and lesson fields such as tile=16); 'colour' is neither"));
  stop["text"] = "{reads";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"text\": the placeholder at character 1 has no closing '}'");
  stop["text"] = "{{literal}} braces";
  const sim::LessonLoad braces = sim::ParseLesson(WithTour(OneStop(stop)));
  ASSERT_TRUE(braces.lesson) << braces.error;
  EXPECT_EQ(braces.prepared.stops[0].text, "{literal} braces");

  stop = good;
  stop["question"] = {{"kind", "essay"}, {"prompt", "?"}, {"query", "reads"}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"question.kind\" \"essay\" is not number, choice or cells");
  stop["question"] = {{"kind", "number"}, {"prompt", "?"}, {"query", "tile.as"}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"question\": a number question's query 'tile.as' gives no number");

  stop = good;
  stop["edits"] = "tile=zero";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"edits\": tile 'zero' is not a whole number");
  stop["edits"] = "m=100000";
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "tour stop 1: \"edits\": the edited lesson cannot run: "));

  stop = good;
  stop["measured"] = "0 wrong";
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"measured\" = \"0 wrong\" is not an object");
  stop["measured"] = {{"file", "docs/results/x.txt"}, {"device", "H100"}};
  EXPECT_EQ(LoadError(OneStop(stop)),
            "tour stop 1 has no \"measured.lines\" or \"measured.tables\": quote the results file's lines");
  stop["measured"]["lines"] = json::array();
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"measured\" quotes no line: quote at least one line of the file");
  stop["measured"]["tables"] = {{{"columns", {"kernel", "wrong"}}, {"rows", {{"tiled16"}}}}};
  EXPECT_EQ(LoadError(OneStop(stop)),
            "tour stop 1: \"measured.tables[0].rows[0]\" is not a list of 2 strings, one per column");
  stop["measured"]["tables"] = {{{"columns", json::array()}, {"rows", {{"tiled16"}}}}};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"measured.tables[0].columns\" is empty: name each column of the table");
  stop["measured"].erase("tables");
  stop["measured"]["lines"] = {"tiled16 0", 0};
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1: \"measured.lines\"[1] = 0 is not a string");
  stop["measured"]["lines"] = {"tiled16 0"};
  stop["measured"].erase("device");
  EXPECT_EQ(LoadError(OneStop(stop)), "tour stop 1 has no \"measured.device\"");
  stop["measured"]["device"] = "H100";
  stop["measured"]["claims"] = {{{"figure", "zero"}, {"query", "c.wrong.count"}}};
  EXPECT_EQ(LoadError(OneStop(stop)),
            "tour stop 1: \"measured.claims[0]\" is not {\"figure\": NUMBER, \"query\": \"...\"}");
  stop["measured"]["claims"] = {{{"figure", 0}, {"query", "c.wrong.cnt"}}};
  EXPECT_TRUE(Contains(LoadError(OneStop(stop)), "tour stop 1: \"measured.claims[0].query\": unknown query 'c.wrong.cnt'"));

  EXPECT_EQ(LoadError(json{{"step", 1}}), "tour = an object of 1 key is not an array of stops");
  EXPECT_EQ(sim::ParseLesson(WithTour(OneStop(good), 1)).error, "\"tour\" needs \"version\": 2 (this file says 1)");
}

TEST(Tour, BrokenFilesSayWhere) {
  const std::string whole = WithTour(OneStop(json{{"at", {{"step", 1}}}, {"text", "ok"}}));
  const sim::LessonLoad truncated = sim::ParseLesson(whole.substr(0, whole.size() - 20));
  EXPECT_FALSE(truncated.lesson);
  EXPECT_TRUE(Contains(truncated.error, "not valid JSON: parse error at line ")) << truncated.error;
  EXPECT_TRUE(Contains(truncated.error, ", column ")) << truncated.error;
  const sim::LessonLoad syntax = sim::ParseLesson("{\"version\": 2,\n \"tour\": [\n {\"at\": }]}");
  EXPECT_EQ(syntax.error.rfind("not valid JSON: parse error at line 3, column 9", 0), 0u) << syntax.error;
  EXPECT_FALSE(syntax.lesson);
}

TEST(Tour, UnknownKeysWarnAndVersionOneFilesStillLoad) {
  json stop{{"at", {{"step", 0}}}, {"text", "ok"}, {"colour", "red"}};
  const sim::LessonLoad load = sim::ParseLesson(WithTour(OneStop(stop)));
  ASSERT_TRUE(load.lesson) << load.error;
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0], "unknown key 'colour' in tour stop 1 ignored");
  json old = json::parse(sim::LessonToJson(sim::DefaultLesson()));
  old["version"] = 1;
  const sim::LessonLoad v1 = sim::ParseLesson(old.dump());
  ASSERT_TRUE(v1.lesson) << v1.error;
  EXPECT_TRUE(v1.tour.empty());
}

TEST(Tour, ATourRoundTripsThroughItsFile) {
  for (const std::string& name : sim::CurriculumNames()) {
    SCOPED_TRACE(name);
    const sim::LessonLoad load = sim::LoadPreset(name);
    ASSERT_TRUE(load.lesson) << load.error;
    const sim::LessonLoad again = sim::ParseLesson(sim::LessonToJson(*load.lesson, load.tour));
    ASSERT_TRUE(again.lesson) << again.error;
    ASSERT_EQ(again.prepared.stops.size(), load.prepared.stops.size());
    for (std::size_t i = 0; i < load.prepared.stops.size(); ++i) {
      EXPECT_EQ(again.prepared.stops[i].step, load.prepared.stops[i].step);
      EXPECT_EQ(again.prepared.stops[i].text, load.prepared.stops[i].text);
      EXPECT_EQ(again.prepared.stops[i].answer.text, load.prepared.stops[i].answer.text);
      EXPECT_EQ(again.tour.stops[i].cells, load.tour.stops[i].cells);
      EXPECT_EQ(again.tour.stops[i].lines, load.tour.stops[i].lines);
      EXPECT_EQ(again.tour.stops[i].panels, load.tour.stops[i].panels);
      EXPECT_EQ(again.tour.stops[i].measured.has_value(), load.tour.stops[i].measured.has_value());
      if (!load.tour.stops[i].measured) continue;
      EXPECT_EQ(again.tour.stops[i].measured->QuotedLines(), load.tour.stops[i].measured->QuotedLines());
      EXPECT_EQ(again.prepared.stops[i].measured_claims.size(), load.prepared.stops[i].measured_claims.size());
    }
  }
}

TEST(Tour, AnswersAreParsedCheckedAndRevealed) {
  const sim::LessonLoad load = sim::LoadPreset("default");
  ASSERT_TRUE(load.lesson) << load.error;
  int checked = 0;
  for (std::size_t i = 0; i < load.tour.stops.size(); ++i) {
    if (!load.tour.stops[i].question) continue;
    const sim::Question& question = *load.tour.stops[i].question;
    const sim::PreparedStop& prepared = load.prepared.stops[i];
    std::string right = prepared.answer.text;
    std::string wrong = "12345";
    if (question.kind == sim::QuestionKind::kChoice) {
      right = std::to_string(prepared.right_choice + 1);
      wrong = prepared.right_choice == 0 ? "2" : "1";
    }
    if (question.kind == sim::QuestionKind::kCells) wrong = "C[3][3]";
    const sim::AnswerParse good = sim::ParseAnswer(question, right);
    ASSERT_TRUE(good.answer) << good.error;
    const sim::Reveal yes = sim::CheckAnswer(question, prepared, *good.answer);
    EXPECT_TRUE(yes.correct) << right;
    EXPECT_EQ(yes.why, prepared.why);
    const sim::AnswerParse bad = sim::ParseAnswer(question, wrong);
    ASSERT_TRUE(bad.answer) << bad.error;
    const sim::Reveal no = sim::CheckAnswer(question, prepared, *bad.answer);
    EXPECT_FALSE(no.correct) << wrong;
    EXPECT_EQ(no.right, yes.right);
    EXPECT_NE(no.student, no.right);
    ++checked;
  }
  EXPECT_GE(checked, 3);

  sim::Question number;
  number.kind = sim::QuestionKind::kNumber;
  EXPECT_EQ(sim::ParseAnswer(number, "sixty").error.rfind("'sixty' is not a number", 0), 0u);
  // Read whole, never up to the first character the reader does not know (issue 32).
  for (const char* partial : {"1,5", "0x10", "2 junk", "inf"}) {
    EXPECT_NE(sim::ParseAnswer(number, partial).error.find("is not a number"), std::string::npos) << partial;
  }
  EXPECT_EQ(sim::ParseAnswer(number, "  ").error, "no answer given");
  sim::Question choice;
  choice.kind = sim::QuestionKind::kChoice;
  choice.choices = {{"a", "1", ""}, {"b", "2", ""}};
  EXPECT_EQ(sim::ParseAnswer(choice, "3").error, "'3' is not a choice: answer 1 to 2");
  sim::Question cells;
  cells.kind = sim::QuestionKind::kCells;
  EXPECT_EQ(sim::ParseAnswer(cells, "As[0][1] Zs[0][0]").error, "'Zs[0][0]' is not a cell such as As[1][0]");
  const sim::AnswerParse two = sim::ParseAnswer(cells, "As[0][1], As[0][1] Bs[1][1]");
  ASSERT_TRUE(two.answer);
  EXPECT_EQ(two.answer->cells.size(), 2u) << "a cell named twice counts once";
}

// Every query of the registry answers on lesson 1, with its kind, given the arguments it
// needs; one it does not take is refused by name.
TEST(Tour, EveryQueryAnswersWithItsKind) {
  const std::map<std::string, std::string> needs{
      {"c.value", "row=1 col=2"},          {"c.sum", "row=1 col=2 phase=2"},
      {"c.phase_sum", "row=1 col=2 phase=2"},
      {"c.expression", "row=1 col=2"},     {"shared.read", "tx=1 ty=0 k=1"},
      {"access.sectors", "op=load_b"},     {"bank.ways", "access=read_bs"},
      {"occupancy.by", "resource=warps"}};
  sim::TourModel model(sim::DefaultLesson());
  ASSERT_GE(sim::Queries().size(), 40u);
  for (const sim::QueryInfo& info : sim::Queries()) {
    const auto given = needs.find(info.name);
    const std::string query = std::string(info.name) + (given == needs.end() ? "" : " " + given->second);
    std::string error;
    const std::optional<sim::QueryValue> value = model.Evaluate(query, model.TotalSteps(), &error);
    ASSERT_TRUE(value) << query << ": " << error;
    EXPECT_EQ(value->kind, info.kind) << query;
    EXPECT_FALSE(value->text.empty() && info.kind != sim::QueryKind::kCells) << query;
    EXPECT_FALSE(std::string(info.help).empty()) << query;
  }
  EXPECT_EQ(sim::ParseQueryCall("c.sum row=0 col=0 phase=1 colour=red").error,
            "query 'c.sum' takes row col phase (and lesson fields such as tile=16); 'colour' is neither");
}

TEST(Tour, QueriesAskAboutEditedLessonsWithoutTouchingTheirOwn) {
  sim::TourModel model(sim::DefaultLesson());
  std::string error;
  const std::optional<sim::QueryValue> war = model.Evaluate("hazard.kinds barrier2=off", 0, &error);
  ASSERT_TRUE(war) << error;
  EXPECT_EQ(war->text, "WAR");
  const std::optional<sim::QueryValue> none = model.Evaluate("hazard.kinds", 0, &error);
  ASSERT_TRUE(none) << error;
  EXPECT_EQ(none->text, "none");
  sim::LessonConfig big = sim::DefaultLesson();
  big.m = big.n = big.k = 32;
  big.tile = 16;
  const std::optional<sim::QueryValue> saving = model.Evaluate("reads.saving m=32 n=32 k=32 tile=16", 0, &error);
  ASSERT_TRUE(saving) << error;
  EXPECT_EQ(saving->number, sim::Expected(big).Saving());
  EXPECT_FALSE(model.Evaluate("reads m=512 n=512 k=512 tile=32", 0, &error));
  EXPECT_TRUE(Contains(error, "query 'reads': the tour asks the model to run more than 134217728 thread-instructions "
                              "in all"))
      << error << ": a lesson file must not make loading it take minutes";
  EXPECT_FALSE(model.Evaluate("reads tile=0", 0, &error));
  EXPECT_TRUE(Contains(error, "query 'reads': the lesson it asks about cannot run")) << error;
}

// The budget covers the whole tour (issue 32): 200 stops asking `reads` at 200 sizes once ran
// 159 s and grew to 7.7 GB, and the same edit spelled 200 ways built 200 models, each with a
// budget of its own. Refused before the work, naming the stop that crosses the budget.
TEST(Tour, TheBudgetCoversTheWholeTourAndNamesTheStopThatCrossesIt) {
  sim::Tour sizes;
  for (int i = 0; i < 200; ++i) {
    sim::TourStop stop;
    stop.at.kind = sim::TourPosition::Kind::kStep;
    const std::string side = std::to_string(16 + 4 * i);
    stop.text = "{reads m=" + side + " n=" + side + " k=" + side + "}";
    sizes.stops.push_back(stop);
  }
  // A budget a hundredth of the app's keeps the test quick, under the sanitizers too.
  sim::TourBudget budget(sim::kMaxTourInstructions / 128, sim::kMaxTourBytes / 128);
  const sim::PreparedTour refused = sim::PrepareTour(sim::DefaultLesson(), sizes, nullptr, nullptr, &budget);
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(refused.error.rfind("tour stop ", 0) == 0 && !Contains(refused.error, "tour stop 1:")) << refused.error;
  EXPECT_TRUE(Contains(refused.error, "in all: ask about smaller lessons")) << refused.error;
  EXPECT_LE(budget.instructions(), sim::kMaxTourInstructions / 128) << "nothing ran past the budget";
  EXPECT_LE(budget.kept_bytes(), sim::kMaxTourBytes / 128);

  // One model however the same edit is spelled: 200 spellings cost what one does.
  sim::Tour spellings;
  for (int i = 0; i < 200; ++i) {
    sim::TourStop stop;
    stop.at.kind = sim::TourPosition::Kind::kStep;
    stop.edits = "m=8" + std::string(static_cast<std::size_t>(i % 5), ' ') + (i % 2 ? ",n=8" : " n=8");
    stop.text = "{reads}";
    spellings.stops.push_back(stop);
  }
  const sim::PreparedTour spelled = sim::PrepareTour(sim::DefaultLesson(), spellings);
  EXPECT_TRUE(spelled.ok()) << spelled.error;

  sim::TourBudget whole;
  EXPECT_FALSE(whole.Charge(sim::kMaxTourInstructions, 0, 0));
  EXPECT_TRUE(whole.Charge(1, 0, 0)) << "one more instruction crosses it";
  EXPECT_EQ(whole.instructions(), sim::kMaxTourInstructions) << "a refused charge is not counted";
  EXPECT_TRUE(whole.Charge(0, sim::kMaxTourBytes, 1)) << "what is kept and what runs count together";
  EXPECT_EQ(whole.kept_bytes(), 0u);
}

// The "{query args}" placeholders of a text as written in the file.
std::vector<std::string> Placeholders(const std::string& text) {
  std::vector<std::string> found;
  const std::regex placeholder(R"(\{([^{}]+)\})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), placeholder); it != std::sregex_iterator(); ++it) {
    found.push_back((*it)[1]);
  }
  return found;
}

// Predict, then reveal: what a question stop shows before the student answers (its title,
// text and prompt; the source document's quotation and its claims unless they wait for the reveal) must
// not hold the answer — neither a placeholder or claim counting the question's own query, nor
// the answer's figure, word or cell in the words on screen.
TEST(Tour, NoQuestionStopShowsItsAnswerBeforeTheReveal) {
  int questions = 0;
  for (const std::string& name : sim::CurriculumNames()) {
    const sim::LessonLoad load = sim::LoadPreset(name);
    ASSERT_TRUE(load.lesson) << load.error;
    for (std::size_t i = 0; i < load.tour.stops.size(); ++i) {
      const sim::TourStop& stop = load.tour.stops[i];
      const sim::PreparedStop& prepared = load.prepared.stops[i];
      if (!stop.question) continue;
      ++questions;
      SCOPED_TRACE(name + " stop " + std::to_string(i + 1) + ": " + prepared.prompt + " (answer " + prepared.answer.text +
                   ")");
      const std::string& query = stop.question->query;
      for (const std::string* raw : {&stop.title, &stop.text, &stop.question->prompt}) {
        for (const std::string& placeholder : Placeholders(*raw)) {
          EXPECT_FALSE(sim::SameQuery(placeholder, query)) << "{" << placeholder << "} fills in the answer";
        }
      }
      std::vector<std::string> shown{prepared.title, prepared.text, prepared.prompt};
      if (prepared.measured && !prepared.measured_after_reveal) {
        const std::vector<std::string> quoted = prepared.measured->QuotedLines();
        shown.insert(shown.end(), quoted.begin(), quoted.end());
        for (const sim::CheckedClaim& checked : prepared.measured_claims) {
          EXPECT_FALSE(sim::SameQuery(checked.claim.query, query)) << "the measured claim counts the question's query";
        }
      }
      if (prepared.quote && !prepared.quote_after_reveal) {
        shown.push_back(prepared.quote->text);
        for (const sim::CheckedClaim& checked : prepared.claims) {
          EXPECT_FALSE(sim::SameQuery(checked.claim.query, query)) << "the claim counts the question's query";
          EXPECT_FALSE(prepared.answer.kind == sim::QueryKind::kNumber && checked.model == prepared.answer.number)
              << "the model's figure beside the claim is the answer";
          shown.push_back(sim::FormatNumber(checked.claim.figure) + " " + sim::FormatNumber(checked.model));
        }
      }
      // A word or a cell in any text gives the answer away. A number is looked for in the
      // quotation's words only: in filled text the same figure often counts something else (TILE 2 and 2
      // phases), and the placeholder check above already catches the stop's own count.
      if (prepared.answer.kind == sim::QueryKind::kNumber) {
        shown = {prepared.quote && !prepared.quote_after_reveal ? prepared.quote->text : std::string()};
        if (prepared.measured && !prepared.measured_after_reveal) {
          const std::vector<std::string> quoted = prepared.measured->QuotedLines();
        shown.insert(shown.end(), quoted.begin(), quoted.end());
        }
      }
      for (const std::string& text : shown) {
        EXPECT_FALSE(sim::TextStatesAnswer(text, prepared.answer)) << "shown before the reveal: " << text;
      }
    }
  }
  EXPECT_GE(questions, 20);
  // The case that started this: lesson 1 asks for the phases under the exercise's "Number of
  // tile phases: 2"; the quotation now waits for the answer.
  const sim::LessonLoad lesson1 = sim::LoadPreset("default");
  ASSERT_TRUE(lesson1.lesson);
  ASSERT_TRUE(lesson1.prepared.stops.front().quote);
  EXPECT_TRUE(lesson1.prepared.stops.front().quote_after_reveal);
}

// A class guesses from patterns: where the right choice sits, and which choice explains
// itself. Over every shipped choice question, no position holds more than two in five of the
// right answers and every position that three or more questions offer holds one; within a
// question the choices have the same form (the same punctuation, no note a sibling lacks) and
// the right one is not the longest unless another is as long.
TEST(Tour, ChoiceQuestionsDoNotGiveTheirAnswerAway) {
  std::map<int, int> right_at;    // 0-based position -> right answers there
  std::map<int, int> offered_at;  // 0-based position -> questions with a choice there
  int questions = 0;
  std::string positions;
  for (const sim::LessonConfig& preset : sim::Presets()) {
    const sim::LessonLoad load = sim::LoadPreset(preset.name);
    ASSERT_TRUE(load.lesson) << load.error;
    for (std::size_t i = 0; i < load.tour.stops.size(); ++i) {
      const std::optional<sim::Question>& question = load.tour.stops[i].question;
      if (!question || question->kind != sim::QuestionKind::kChoice) continue;
      SCOPED_TRACE(preset.name + " stop " + std::to_string(i + 1));
      const int right = load.prepared.stops[i].right_choice;
      ASSERT_GE(right, 0);
      ++questions;
      ++right_at[right];
      for (int c = 0; c < static_cast<int>(question->choices.size()); ++c) ++offered_at[c];
      positions += " " + preset.name + ":" + std::to_string(i + 1) + "=" + std::to_string(right + 1);
      const auto form = [](const std::string& text) {
        std::string marks;
        for (char mark : std::string(":,;(")) {
          if (text.find(mark) != std::string::npos) marks += mark;
        }
        return marks;
      };
      std::size_t longest_wrong = 0;
      for (std::size_t c = 0; c < question->choices.size(); ++c) {
        const std::string& text = question->choices[c].text;
        EXPECT_EQ(form(text), form(question->choices.front().text)) << "choices of different forms: " << text;
        if (static_cast<int>(c) != right) longest_wrong = std::max(longest_wrong, text.size());
      }
      EXPECT_LE(question->choices[static_cast<std::size_t>(right)].text.size(), longest_wrong)
          << "the right choice is the one that says most: " << question->choices[static_cast<std::size_t>(right)].text;
    }
  }
  ASSERT_GE(questions, 10);
  for (const auto& [position, offered] : offered_at) {
    SCOPED_TRACE("right answers by stop (lesson:stop=position):" + positions);
    const int right = right_at.count(position) ? right_at.at(position) : 0;
    EXPECT_LE(right * 5, questions * 2) << "choice " << position + 1 << " is right in " << right << " of " << questions;
    if (offered >= 3) {
      EXPECT_GE(right, 1) << "choice " << position + 1 << " is never right";
    }
  }
}

TEST(Tour, AnswerWordsAreFoundWholeOnly) {
  sim::QueryValue two;
  two.number = 2;
  two.text = "2";
  EXPECT_TRUE(sim::TextStatesAnswer("Number of tile phases: 2", two));
  EXPECT_TRUE(sim::TextStatesAnswer("a 2\u00d7 saving", two));
  EXPECT_FALSE(sim::TextStatesAnswer("128 reads, 2.5 per element, 32", two));
  sim::QueryValue raw;
  raw.kind = sim::QueryKind::kText;
  raw.text = "RAW";
  EXPECT_TRUE(sim::TextStatesAnswer("the model reports RAW.", raw));
  EXPECT_FALSE(sim::TextStatesAnswer("a RAWR", raw));
  sim::QueryValue cells;
  cells.kind = sim::QueryKind::kCells;
  cells.cells = {*sim::ParseCellRef("As[0][1]")};
  EXPECT_TRUE(sim::TextStatesAnswer("it reads As[0][1] at k = 1", cells));
  EXPECT_FALSE(sim::TextStatesAnswer("it reads As[0][0]", cells));
  EXPECT_TRUE(sim::SameQuery("c.sum row=0 col=0 phase=1", "c.sum phase=1 col=0 row=0"));
  EXPECT_FALSE(sim::SameQuery("reads", "reads tile=16"));
}

// A line with every run of whitespace read as one space, and none at either end.
std::string Collapsed(const std::string& line) {
  std::string out;
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A stop's measurement is the committed results file's own words: its every line is a line of
// that file, the device is the one the file names, and every claimed figure is one the lines
// state, so what a tour calls measured is what was measured.
TEST(Tour, MeasurementsQuoteTheirResultsFileLineByLine) {
  int quoted = 0;
  for (const std::string& name : sim::CurriculumNames()) {
    const sim::LessonLoad load = sim::LoadPreset(name);
    ASSERT_TRUE(load.lesson) << load.error;
    for (std::size_t i = 0; i < load.tour.stops.size(); ++i) {
      if (!load.tour.stops[i].measured) continue;
      const sim::Measurement& measured = *load.tour.stops[i].measured;
      SCOPED_TRACE(name + " stop " + std::to_string(i + 1) + ": " + measured.file);
      std::ifstream file(std::string(TILESCOPE_SOURCE_DIR) + "/" + measured.file);
      ASSERT_TRUE(file) << "the results file is not in the repository";
      std::set<std::string> lines;
      std::string whole;
      for (std::string line; std::getline(file, line);) {
        lines.insert(Collapsed(line));
        whole += line + "\n";
      }
      EXPECT_TRUE(Contains(whole, measured.device)) << "the file does not name the device " << measured.device;
      const std::vector<std::string> quoted_lines = measured.QuotedLines();
      for (const std::string& line : quoted_lines) {
        EXPECT_EQ(lines.count(Collapsed(line)), 1u) << "not a line of the file: " << line;
      }
      for (const sim::Claim& claim : measured.claims) {
        sim::QueryValue figure;
        figure.number = claim.figure;
        EXPECT_TRUE(std::any_of(quoted_lines.begin(), quoted_lines.end(), [&](const std::string& line) {
          return sim::TextStatesAnswer(line, figure);
        })) << "the quoted lines do not state the claimed " << claim.figure;
      }
      // A results file's lines read on screen as a table with its columns in words, never as
      // the file's raw lines ("kernel label size differing per trial mean % of C").
      EXPECT_TRUE(measured.lines.empty()) << "quoted as raw lines: " << measured.lines.front();
      EXPECT_FALSE(measured.tables.empty());
      ++quoted;
    }
  }
  EXPECT_GE(quoted, 3) << "two_barriers quotes the H100's race runs";
}

// Figures are filled from the model, never typed: no shipped lesson's description or stop
// words (outside placeholders; quotations of source documents are a field of their own) state
// a figure the model counts for that lesson, unless it is one of the lesson's own sizes (a
// description says "6×5×7 with TILE 4"; the sizes a placeholder asks about), 0 and 1, which
// name cells, blocks and phases, a number with a leading zero (kernels/04_*), a source
// document's name (docs/glossary.md: "the Day 2 sheet"), or what the
// hardware fixes ("4 bytes" of a float, "2 FLOP" of a multiply-add).
TEST(Tour, NoShippedTextTypesAModelCountByHand) {
  const std::vector<std::string> counts{"reads",        "reads.a",       "reads.b",          "reads.tiled",
                                        "reads.naive",  "reads.per_element", "reads.tiled.per_element",
                                        "reads.naive.per_element", "reads.saving", "hazards", "hazards.raw",
                                        "hazards.war",  "out_of_bounds", "sectors",          "bank.conflicts",
                                        "shared.reads", "fma",           "flops",            "steps",
                                        "c.wrong.count", "shared.bytes", "occupancy.blocks_per_sm"};
  const std::regex digits(R"(\d+)");
  for (const sim::LessonConfig& preset : sim::Presets()) {
    SCOPED_TRACE(preset.name);
    const sim::LessonLoad load = sim::LoadPreset(preset.name);
    ASSERT_TRUE(load.lesson) << load.error;
    sim::TourModel model(*load.lesson);
    const std::int64_t end = model.TotalSteps();
    std::set<double> counted;
    for (const std::string& query : counts) {
      std::string error;
      if (const std::optional<sim::QueryValue> value = model.Evaluate(query, end, &error)) counted.insert(value->number);
    }
    const sim::Geometry g = sim::MakeGeometry(*load.lesson);
    for (const double own : {0.0, 1.0, double(g.m), double(g.n), double(g.k), double(g.tm), double(g.tn), double(g.tk)}) {
      counted.erase(own);
    }
    std::vector<std::string> texts{load.lesson->description};
    for (const sim::TourStop& stop : load.tour.stops) {
      texts.insert(texts.end(), {stop.title, stop.text});
      if (stop.question) texts.insert(texts.end(), {stop.question->prompt, stop.question->why});
    }
    // The sizes a placeholder asks about ("At 32×32 with TILE 16 ... {reads.saving m=32 tile=16}")
    // are lesson fields the text names, not counts.
    for (const std::string& text : texts) {
      for (const std::string& placeholder : Placeholders(text)) {
        for (const auto& [key, value] : sim::ParseQueryCall(placeholder).call.arguments) {
          char* end = nullptr;
          const double number = std::strtod(value.c_str(), &end);
          if (!value.empty() && *end == '\0') counted.erase(number);
        }
      }
    }
    for (const std::string& text : texts) {
      // The source documents' names carry numbers that count nothing ("the Day 2 sheet").
      const std::string words = std::regex_replace(std::regex_replace(text, std::regex(R"(\{[^{}]*\})"), "{}"),
                                                   std::regex(R"(Day 2 sheet|4×4 walkthrough exercise|Exercise 05)"), "");
      for (auto it = std::sregex_iterator(words.begin(), words.end(), digits); it != std::sregex_iterator(); ++it) {
        const std::string after = words.substr(static_cast<std::size_t>(it->position() + it->length()), 6);
        if (it->str().size() > 1 && it->str()[0] == '0') continue;  // a kernel file's number: 04_*
        if ((it->str() == "4" && after == " bytes") || (it->str() == "2" && after.rfind(" FLOP", 0) == 0)) {
          continue;  // what the hardware fixes: a float is 4 bytes, a multiply-add 2 FLOP
        }
        EXPECT_EQ(counted.count(std::stod(it->str())), 0u)
            << "\"" << it->str() << "\" is a count the model makes, typed by hand in: " << text;
      }
    }
  }
}

// Cancel reaches into a model run: a whole-run query of thousands of steps stops at once.
TEST(Tour, CancelStopsPreparationWithinARun) {
  const std::atomic<bool> cancelled{true};
  sim::TourModel model(sim::DefaultLesson(), &cancelled);
  std::string error;
  EXPECT_FALSE(model.Evaluate("reads m=64 n=64 k=64 tile=16", 0, &error));
  EXPECT_EQ(error, sim::kTourCancelled);
  const sim::LessonLoad load = sim::LoadPreset("default", sim::TourCheck::kLater);
  ASSERT_TRUE(load.lesson);
  EXPECT_TRUE(load.prepared.stops.empty()) << "kLater leaves the tour to the caller";
  std::atomic<int> done{0};
  const sim::PreparedTour prepared = sim::PrepareTour(*load.lesson, load.tour, &cancelled, &done);
  EXPECT_EQ(prepared.error, sim::kTourCancelled);
  EXPECT_TRUE(prepared.stops.empty());
  EXPECT_EQ(done.load(), 0);
  const std::atomic<bool> go_on{false};
  const sim::PreparedTour whole = sim::PrepareTour(*load.lesson, load.tour, &go_on, &done);
  ASSERT_TRUE(whole.ok()) << whole.error;
  EXPECT_EQ(done.load(), static_cast<int>(load.tour.stops.size())) << "every stop counted for the progress bar";
}

// The naive kernel has no barriers: a lesson with one off still has a naive count (this
// query ended the program with an uncaught exception on two_barriers' lesson).
TEST(Tour, NaiveCountsOfALessonWithABarrierOff) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  lesson.barrier2 = sim::SyncKind::kNone;
  sim::TourModel model(lesson);
  std::string error;
  const std::optional<sim::QueryValue> naive = model.Evaluate("reads.naive", 0, &error);
  ASSERT_TRUE(naive) << error;
  EXPECT_EQ(naive->number, sim::Expected(sim::DefaultLesson()).naive_global_reads);
  EXPECT_TRUE(model.Evaluate("reads.saving barrier1=off", 0, &error)) << error;
}

}  // namespace
