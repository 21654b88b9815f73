// The tour's queries in one table — each one's name, kind, arguments, help line and the
// function that asks the model — so the checks, `tilescope tour --queries` and the evaluation
// cannot disagree; and the parser of a query as a tour file writes it.
#include <stdexcept>

#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/teaching.h"
#include "sim/lesson/tour.h"
#include "sim/lesson/tour_query_evaluators.h"
#include "sim/lesson/validation.h"

namespace sim {
namespace queries {
namespace {

struct QuerySpec {
  QueryInfo info;
  Evaluator evaluate;
};

using K = QueryKind;

const std::vector<QuerySpec>& Specs() {
  static const std::vector<QuerySpec> kSpecs{
      {{"m", K::kNumber, "", "M: rows of A and C"}, [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.m); }},
      {{"n", K::kNumber, "", "N: columns of B and C"}, [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.n); }},
      {{"k", K::kNumber, "", "K: columns of A, rows of B"}, [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.k); }},
      {{"tm", K::kNumber, "", "rows of C a block computes (TILE for square tiles)"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.tm); }},
      {{"tn", K::kNumber, "", "columns of C a block computes"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.tn); }},
      {{"tk", K::kNumber, "", "the slice of K a phase loads"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.tk); }},
      {{"phases", K::kNumber, "", "tile phases of the lesson (the naive kernel: 1)"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.phases); }},
      {{"blocks", K::kNumber, "", "blocks in the grid"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.blocks); }},
      {{"threads.per_block", K::kNumber, "", "threads in a block"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.block_threads); }},
      {{"warps.per_block", K::kNumber, "", "warps in a block"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.g.warps_per_block); }},
      {{"warp.fill", K::kText, "", "how full a block's warps are, in words"},
       [](Asked& q) -> std::optional<QueryValue> { return Text(WarpsOfBlock(q.g)); }},
      {{"steps", K::kNumber, "", "scheduler steps of the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(static_cast<std::uint64_t>(q.Run().steps)); }},
      {{"reads", K::kNumber, "", "global reads of A and B the whole run makes, counted"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.GlobalReads()); }},
      {{"reads.a", K::kNumber, "", "global reads of A, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.global_reads_a); }},
      {{"reads.b", K::kNumber, "", "global reads of B, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.global_reads_b); }},
      {{"reads.now", K::kNumber, "", "global reads so far, at the stop's step (of the tour's own lesson)"},
       [](Asked& q) -> std::optional<QueryValue> {
         q.tour_lesson.JumpTo(q.step);
         return Count(q.tour_lesson.counters().GlobalReads());
       }},
      {{"reads.per_element", K::kNumber, "", "global reads of the whole run per element of C"},
       [](Asked& q) -> std::optional<QueryValue> {
         return Number(Ratio(double(q.Run().counters.GlobalReads()), q.Elements()));
       }},
      {{"reads.tiled", K::kNumber, "", "global reads of the tiled kernel on these sizes, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.RunOn(KernelKind::kTiled).counters.GlobalReads()); }},
      {{"reads.tiled.per_element", K::kNumber, "", "the tiled kernel's reads per element of C"},
       [](Asked& q) -> std::optional<QueryValue> {
         return Number(Ratio(double(q.RunOn(KernelKind::kTiled).counters.GlobalReads()), q.Elements()));
       }},
      {{"reads.naive", K::kNumber, "", "global reads of the naive kernel on these sizes, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.RunOn(KernelKind::kNaive).counters.GlobalReads()); }},
      {{"reads.naive.per_element", K::kNumber, "", "the naive kernel's reads per element of C"},
       [](Asked& q) -> std::optional<QueryValue> {
         return Number(Ratio(double(q.RunOn(KernelKind::kNaive).counters.GlobalReads()), q.Elements()));
       }},
      {{"reads.saving", K::kNumber, "", "naive reads over tiled reads: how many times fewer"},
       [](Asked& q) -> std::optional<QueryValue> {
         const std::uint64_t naive = q.RunOn(KernelKind::kNaive).counters.GlobalReads();
         return Number(ReadSaving(naive, q.RunOn(KernelKind::kTiled).counters.GlobalReads()));
       }},
      {{"c.elements", K::kNumber, "", "elements of C: M·N"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(q.Elements()); }},
      {{"c.value", K::kNumber, "row col", "C[row][col] at the end of the run"}, CValue},
      {{"c.sum", K::kNumber, "row col phase",
        "the partial sum of C[row][col]'s thread after its last product of phase p"},
       CSum},
      {{"c.phase_sum", K::kNumber, "row col phase",
        "what phase p's products added to C[row][col]'s partial sum (its sum after phase p less after p-1)"},
       CPhaseSum},
      {{"c.expression", K::kText, "row col phase",
        "C[row][col]'s products as the run made them, grouped by phase: (1·1 + 2·5) + ... = 90 (phase=p: up to p)"},
       CExpression},
      {{"c.wrong", K::kCells, "", "the elements of C that end wrong (bits differ from the fmaf reference)"}, WrongCells},
      {{"c.wrong.count", K::kNumber, "", "how many elements of C end wrong"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().outcome.wrong_elements); }},
      {{"c.outcome", K::kText, "", "\"right\" when every element of C ends right, else \"wrong\""},
       [](Asked& q) -> std::optional<QueryValue> { return Text(q.Run().outcome.wrong_elements == 0 ? "right" : "wrong"); }},
      {{"tile.as", K::kText, "block_x block_y phase", "what block (x, y) stored into As in phase p, as [[row],[row]]"},
       [](Asked& q) { return Tile(q, TileId::kAs); }},
      {{"tile.bs", K::kText, "block_x block_y phase", "what block (x, y) stored into Bs in phase p"},
       [](Asked& q) { return Tile(q, TileId::kBs); }},
      {{"shared.read", K::kCells, "tx ty k block_x block_y phase tile",
        "the As and Bs cells thread (tx, ty) read for its product k in phase p (tile=As or Bs: that tile only)"},
       SharedRead},
      {{"hazards", K::kNumber, "", "shared-memory hazards the whole run reports"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.hazards); }},
      {{"hazards.raw", K::kNumber, "", "read-after-write hazards, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.hazards_raw); }},
      {{"hazards.war", K::kNumber, "", "write-after-read hazards, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.hazards_war); }},
      {{"hazard.kinds", K::kText, "", "the kinds of hazard reported: \"RAW\", \"WAR\", \"RAW and WAR\" or \"none\""},
       HazardKinds},
      {{"out_of_bounds", K::kNumber, "", "global accesses outside A, B or C, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.out_of_bounds); }},
      {{"sectors", K::kNumber, "", "32-byte sectors the whole run's warp loads and stores touch"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.global_sectors); }},
      {{"access.sectors", K::kNumber, "op block_x block_y warp phase j",
        "32-byte sectors of one warp-instruction: warp w of block (x, y) running op (load_a, load_b, store_c) "
        "for the j-th time in phase p"},
       AccessSectors},
      {{"bank.conflicts", K::kNumber, "", "extra shared-memory wavefronts from bank conflicts, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.bank_conflicts); }},
      {{"bank.ways", K::kNumber, "access warp j",
        "how many ways warp w's lanes conflict in one shared access (read_as, read_bs, store_as, store_bs) at "
        "index j: 1 is conflict-free or a broadcast"},
       BankWaysOf},
      {{"shared.reads", K::kNumber, "", "shared-memory reads (As and Bs words) of the whole run"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.shared_reads); }},
      {{"shared.reads.per_fma", K::kNumber, "", "shared-memory reads per fused multiply-add, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> {
         const Counters& counters = q.Run().counters;
         return Number(Ratio(double(counters.shared_reads), double(counters.fma_executed)));
       }},
      {{"fma", K::kNumber, "", "fused multiply-adds the whole run executed (zero padding included)"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(q.Run().counters.fma_executed); }},
      {{"flops", K::kNumber, "", "floating-point operations of the whole run: 2 per fused multiply-add"},
       [](Asked& q) -> std::optional<QueryValue> { return Count(2 * q.Run().counters.fma_executed); }},
      {{"intensity", K::kNumber, "",
        "FLOP per byte of global memory read: flops over 4 bytes per global read, the whole run"},
       [](Asked& q) -> std::optional<QueryValue> {
         const Counters& counters = q.Run().counters;
         return Number(Ratio(2.0 * double(counters.fma_executed), double(counters.GlobalReads() * sizeof(float))));
       }},
      {{"shared.bytes", K::kNumber, "", "static shared memory of a block, bytes"},
       [](Asked& q) -> std::optional<QueryValue> { return Number(DemandOf(KernelChoice::Of(q.lesson)).shared_bytes); }},
      {{"occupancy.blocks_per_sm", K::kNumber, "gpu",
        "blocks of this kernel one SM holds at once (gpu: t4, a100, rtx4090, h100; default h100)"},
       [](Asked& q) {
         return FromOccupancy(q, [](const Occupancy& o) -> std::optional<QueryValue> { return Number(o.blocks_per_sm); });
       }},
      {{"occupancy.active_warps", K::kNumber, "gpu", "warps resident on one SM"},
       [](Asked& q) {
         return FromOccupancy(q, [](const Occupancy& o) -> std::optional<QueryValue> { return Number(o.active_warps); });
       }},
      {{"occupancy.limit", K::kText, "gpu", "the resources that limit blocks per SM, in words"},
       [](Asked& q) {
         return FromOccupancy(q, [](const Occupancy& o) -> std::optional<QueryValue> { return Text(LimitingText(o)); });
       }},
      {{"occupancy.by", K::kNumber, "resource gpu",
        "blocks per SM one resource allows (resource: threads, warps, blocks, registers, shared_memory)"},
       OccupancyBy},
      {{"occupancy.registers", K::kNumber, "gpu", "registers per thread recorded for the compiled kernel"}, Registers},
  };
  return kSpecs;
}

const QuerySpec* FindSpec(std::string_view name) {
  for (const QuerySpec& spec : Specs()) {
    if (name == spec.info.name) return &spec;
  }
  return nullptr;
}

bool IsLessonField(const std::string& key) {
  for (const LessonField& field : LessonFields()) {
    if (key == field.key) return true;
  }
  return false;
}

bool TakesArgument(const QueryInfo& info, const std::string& key) {
  const std::string words = std::string(" ") + info.arguments + " ";
  return words.find(" " + key + " ") != std::string::npos;
}

// The lesson a call asks about: the tour's, with the call's lesson fields applied.
std::optional<LessonConfig> LessonOf(const QueryCall& call, const QueryInfo& info, const LessonConfig& tour_lesson,
                                     std::string* error) {
  LessonConfig edited = tour_lesson;
  for (const auto& [key, value] : call.arguments) {
    if (TakesArgument(info, key)) continue;
    if (auto problem = ApplyLessonEdit(key, value, edited, key)) {
      if (error != nullptr) *error = "query '" + call.name + "': " + problem->message;
      return std::nullopt;
    }
  }
  if (auto problem = Validate(edited)) {
    if (error != nullptr) *error = "query '" + call.name + "': the lesson it asks about cannot run: " + problem->message;
    return std::nullopt;
  }
  return edited;
}

}  // namespace

std::optional<QueryValue> Answer(const QueryCall& call, const LessonConfig& tour_lesson, Runs& runs,
                                 Simulation& tour_simulation, std::int64_t step, std::string* error) {
  const QuerySpec* spec = FindSpec(call.name);
  if (spec == nullptr) {
    if (error != nullptr) *error = "unknown query '" + call.name + "'";
    return std::nullopt;
  }
  const std::optional<LessonConfig> lesson = LessonOf(call, spec->info, tour_lesson, error);
  if (!lesson) return std::nullopt;
  Arguments args(call, error);
  Asked asked{*lesson, MakeGeometry(*lesson), args, runs, tour_simulation, step};
  try {
    return spec->evaluate(asked);
  } catch (const OverBudget& over) {
    if (error != nullptr) *error = "query '" + call.name + "': " + over.message;
    return std::nullopt;
  } catch (const Cancelled&) {
    if (error != nullptr) *error = kTourCancelled;
    return std::nullopt;
  } catch (const std::invalid_argument& refused) {
    // A variant a query builds that the model refuses (Simulation throws Validate()'s
    // message): the tour file is data, so it gets the message, never a crash.
    if (error != nullptr) *error = "query '" + call.name + "': " + refused.what();
    return std::nullopt;
  }
}

}  // namespace queries

const std::vector<QueryInfo>& Queries() {
  static const std::vector<QueryInfo> kInfos = [] {
    std::vector<QueryInfo> infos;
    for (const queries::QuerySpec& spec : queries::Specs()) infos.push_back(spec.info);
    return infos;
  }();
  return kInfos;
}

const QueryInfo* FindQuery(std::string_view name) {
  for (const QueryInfo& info : Queries()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

QueryParse ParseQueryCall(std::string_view text) {
  QueryParse parse;
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t first = text.find_first_not_of(' ', start);
    if (first == std::string_view::npos) break;
    std::size_t end = text.find(' ', first);
    if (end == std::string_view::npos) end = text.size();
    words.emplace_back(text.substr(first, end - first));
    start = end;
  }
  if (words.empty()) {
    parse.error = "an empty query";
    return parse;
  }
  const QueryInfo* info = FindQuery(words[0]);
  if (info == nullptr) {
    parse.error = "unknown query '" + words[0] + "' (`tilescope tour --queries` lists them)";
    return parse;
  }
  parse.call.name = words[0];
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::size_t equals = words[i].find('=');
    if (equals == std::string::npos || equals == 0) {
      parse.error = "query '" + words[0] + "': '" + words[i] + "' is not key=value";
      return parse;
    }
    std::string key = words[i].substr(0, equals);
    if (!queries::TakesArgument(*info, key) && !queries::IsLessonField(key)) {
      parse.error = "query '" + words[0] + "' takes " +
                    (std::string(info->arguments).empty() ? std::string("no arguments") : info->arguments) +
                    " (and lesson fields such as tile=16); '" + key + "' is neither";
      return parse;
    }
    parse.call.arguments.emplace_back(std::move(key), words[i].substr(equals + 1));
  }
  return parse;
}

}  // namespace sim
