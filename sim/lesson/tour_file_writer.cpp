// A lesson file's "tour" written: sim::Tour to JSON, in the keys tour_file_reader.cpp reads,
// each optional key only when it holds something.
#include "sim/lesson/tour.h"

namespace sim {
namespace {

using nlohmann::json;

json PairJson(const Coordinates2& pair) { return json::array({pair.x, pair.y}); }

json ClaimsJson(const std::vector<Claim>& claims) {
  json out = json::array();
  for (const Claim& claim : claims) out.push_back({{"figure", claim.figure}, {"query", claim.query}});
  return out;
}

json QuestionJson(const Question& question) {
  json out{{"kind", Name(question.kind)}, {"prompt", question.prompt}, {"query", question.query}};
  if (question.tolerance != 0) out["tolerance"] = question.tolerance;
  if (!question.why.empty()) out["why"] = question.why;
  if (question.kind == QuestionKind::kChoice) {
    out["choices"] = json::array();
    for (const Choice& choice : question.choices) {
      json item{{"text", choice.text}, {"value", choice.value}};
      if (!choice.seed.empty()) item["seed"] = choice.seed;
      out["choices"].push_back(item);
    }
  }
  return out;
}

}  // namespace

json TourToJson(const Tour& tour) {
  json stops = json::array();
  for (const TourStop& stop : tour.stops) {
    json out;
    if (!stop.title.empty()) out["title"] = stop.title;
    if (!stop.edits.empty()) out["edits"] = stop.edits;
    json at;
    if (stop.at.kind == TourPosition::Kind::kStep) {
      at["step"] = stop.at.step;
    } else {
      at["event"] = Name(stop.at.kind);
      if (stop.at.kind == TourPosition::Kind::kBarrierRelease || stop.at.kind == TourPosition::Kind::kPhaseStart) {
        at["block"] = PairJson(stop.at.block);
        at["phase"] = stop.at.phase;
      }
      if (stop.at.kind == TourPosition::Kind::kBarrierRelease) at["barrier"] = stop.at.barrier;
    }
    out["at"] = at;
    if (stop.block) out["block"] = PairJson(*stop.block);
    if (stop.thread) out["thread"] = PairJson(*stop.thread);
    for (const CellRef& cell : stop.cells) out["cells"].push_back(CellText(cell));
    for (const Op op : stop.lines) out["lines"].push_back(MarkerName(op));
    for (const std::string& id : stop.panels) out["panels"].push_back(id);
    out["text"] = stop.text;
    if (stop.quote) {
      json seed{{"id", stop.quote->seed}, {"text", stop.quote->text}};
      if (!stop.quote->claims.empty()) seed["claims"] = ClaimsJson(stop.quote->claims);
      out["seed"] = seed;
    }
    if (stop.measured) {
      json measured{{"file", stop.measured->file}, {"device", stop.measured->device}};
      if (!stop.measured->lines.empty()) measured["lines"] = stop.measured->lines;
      for (const MeasuredTable& table : stop.measured->tables) {
        measured["tables"].push_back({{"columns", table.columns}, {"rows", table.rows}});
      }
      if (!stop.measured->claims.empty()) measured["claims"] = ClaimsJson(stop.measured->claims);
      out["measured"] = measured;
    }
    if (stop.question) out["question"] = QuestionJson(*stop.question);
    stops.push_back(out);
  }
  return stops;
}

}  // namespace sim
