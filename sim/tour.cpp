#include "sim/tour.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "sim/bank_conflicts.h"
#include "sim/formulas.h"
#include "sim/lesson_edit.h"
#include "sim/lesson_file.h"
#include "sim/occupancy.h"
#include "sim/reference.h"
#include "sim/simulation.h"
#include "sim/snapshot.h"
#include "sim/teaching.h"
#include "sim/walkthrough.h"

namespace sim {
namespace {

// Runs whose per-event records a query keeps (products and stores): beyond this many thread
// instructions a query that needs them says the lesson is too large for it.
constexpr std::uint64_t kMaxRecordedInstructions = std::uint64_t{1} << 22;
constexpr const char* kDefaultGpu = "h100";
// What one tour may ask the model to run, all its lessons and variants together: about two
// seconds of the model on one core. A lesson file is data, and loading one must not hang the
// app on a query about a 1024³ variant.
constexpr std::uint64_t kMaxTourInstructions = std::uint64_t{1} << 27;

// Thrown where a run would pass kMaxTourInstructions; TourModel turns it into the error.
struct OverBudget {
  std::string message;
};

const std::vector<std::string> kPanelIds{"matrices", "shared_tiles", "kernel_source", "narration",
                                         "counters", "threads",      "hazards",       "race_lab",
                                         "timeline", "occupancy",    "guide",         "controls",
                                         "live_gpu"};

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// The events a whole run leaves that queries read: every product and every shared store.
class RecordingSink : public TraceSink {
 public:
  explicit RecordingSink(WalkthroughRecorder* walkthrough) : walkthrough_(walkthrough) {}
  void OnEvent(const TraceEvent& event) override {
    walkthrough_->OnEvent(event);
    if (event.kind == EventKind::kFma) products.push_back(event);
  }
  std::vector<TraceEvent> products;

 private:
  WalkthroughRecorder* walkthrough_;
};

// One lesson (the tour's, or an edited variant a query asks about) run to its end once.
struct WholeRun {
  LessonConfig lesson;
  Geometry geometry;
  Counters counters;
  RunOutcome outcome;
  std::vector<float> c;
  std::int64_t steps = 0;
  bool recorded = false;  // products and walkthrough kept
  std::vector<TraceEvent> products;
  std::unique_ptr<WalkthroughRecorder> walkthrough;
};

std::unique_ptr<WholeRun> RunWhole(const LessonConfig& lesson) {
  auto run = std::make_unique<WholeRun>();
  run->lesson = lesson;
  run->geometry = MakeGeometry(lesson);
  const ClosedForms expected = Expected(lesson);
  run->recorded = expected.thread_instructions <= kMaxRecordedInstructions;
  run->walkthrough = std::make_unique<WalkthroughRecorder>(run->geometry, run->recorded ? run->geometry.blocks : 0);
  RecordingSink sink(run->walkthrough.get());
  Simulation simulation(lesson);
  if (run->recorded) simulation.SetSink(&sink);
  simulation.RunToEnd();
  run->counters = simulation.counters();
  run->outcome = Assess(simulation);
  run->c = simulation.c();
  run->steps = simulation.step();
  run->products = std::move(sink.products);
  return run;
}

// A query's arguments, read one by one; what is left over are lesson fields.
class Arguments {
 public:
  Arguments(const QueryCall& call, std::string* error) : call_(call), error_(error) {}

  std::optional<int> Int(const char* key, std::optional<int> fallback = std::nullopt) {
    const std::string* text = Find(key);
    if (text == nullptr) {
      if (!fallback) Fail(std::string("needs ") + key + "=N");
      return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || value < -1000000 || value > 1000000) {
      Fail(std::string(key) + "='" + *text + "' is not a whole number");
      return std::nullopt;
    }
    return static_cast<int>(value);
  }
  std::string Text(const char* key, const char* fallback) {
    const std::string* text = Find(key);
    return text == nullptr ? fallback : *text;
  }
  bool failed() const { return failed_; }
  void Fail(const std::string& message) {
    if (!failed_ && error_ != nullptr) *error_ = "query '" + call_.name + "' " + message;
    failed_ = true;
  }

 private:
  const std::string* Find(const char* key) const {
    for (const auto& [name, value] : call_.arguments) {
      if (name == key) return &value;
    }
    return nullptr;
  }
  const QueryCall& call_;
  std::string* error_;
  bool failed_ = false;
};

bool IsLessonField(const std::string& key) {
  for (const LessonField& field : LessonFields()) {
    if (key == field.key) return true;
  }
  return false;
}

bool TakesArgument(const QueryInfo& info, const std::string& key) {
  std::string words = info.arguments;
  std::size_t start = 0;
  while (start < words.size()) {
    std::size_t end = words.find(' ', start);
    if (end == std::string::npos) end = words.size();
    if (words.compare(start, end - start, key) == 0) return true;
    start = end + 1;
  }
  return false;
}

QueryValue Number(double value) {
  QueryValue out;
  out.kind = QueryKind::kNumber;
  out.number = value;
  out.text = FormatNumber(value);
  return out;
}

QueryValue Text(std::string text) {
  QueryValue out;
  out.kind = QueryKind::kText;
  out.text = std::move(text);
  return out;
}

QueryValue Cells(std::vector<CellRef> cells) {
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  QueryValue out;
  out.kind = QueryKind::kCells;
  std::vector<std::string> names;
  for (const CellRef& cell : cells) names.push_back(CellText(cell));
  out.text = Join(names, " ");
  out.cells = std::move(cells);
  return out;
}

std::string TileText(const std::vector<float>& values, int rows, int cols) {
  std::string out = "[";
  for (int r = 0; r < rows; ++r) {
    out += r == 0 ? "[" : ",[";
    for (int c = 0; c < cols; ++c) {
      const float value = values[static_cast<std::size_t>(r) * cols + c];
      out += (c == 0 ? "" : ",") + (std::isnan(value) ? std::string("?") : FormatNumber(value));
    }
    out += "]";
  }
  return out + "]";
}

std::optional<Op> ParseOp(const std::string& name) {
  for (int op = 0; op < kOpCount; ++op) {
    if (name == kMarkerNames[static_cast<std::size_t>(op)]) return static_cast<Op>(op);
  }
  return std::nullopt;
}

std::optional<WarpAccess> ParseWarpAccess(const std::string& name) {
  if (name == "store_as") return WarpAccess::kStoreAs;
  if (name == "store_bs") return WarpAccess::kStoreBs;
  if (name == "read_as") return WarpAccess::kReadAs;
  if (name == "read_bs") return WarpAccess::kReadBs;
  return std::nullopt;
}

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

// ---- The queries --------------------------------------------------------------------------

const std::vector<QueryInfo>& Queries() {
  static const std::vector<QueryInfo> kQueries{
      {"m", QueryKind::kNumber, "", "M: rows of A and C"},
      {"n", QueryKind::kNumber, "", "N: columns of B and C"},
      {"k", QueryKind::kNumber, "", "K: columns of A, rows of B"},
      {"tm", QueryKind::kNumber, "", "rows of C a block computes (TILE for square tiles)"},
      {"tn", QueryKind::kNumber, "", "columns of C a block computes"},
      {"tk", QueryKind::kNumber, "", "the slice of K a phase loads"},
      {"steps", QueryKind::kNumber, "", "scheduler steps of the whole run"},
      {"phases", QueryKind::kNumber, "", "tile phases of the lesson (the naive kernel: 1)"},
      {"blocks", QueryKind::kNumber, "", "blocks in the grid"},
      {"threads.per_block", QueryKind::kNumber, "", "threads in a block"},
      {"warps.per_block", QueryKind::kNumber, "", "warps in a block"},
      {"reads", QueryKind::kNumber, "", "global reads of A and B the whole run makes, counted"},
      {"reads.a", QueryKind::kNumber, "", "global reads of A, the whole run"},
      {"reads.b", QueryKind::kNumber, "", "global reads of B, the whole run"},
      {"reads.now", QueryKind::kNumber, "", "global reads so far, at the stop's step"},
      {"reads.per_element", QueryKind::kNumber, "", "global reads of the whole run per element of C"},
      {"reads.tiled", QueryKind::kNumber, "", "global reads of the tiled kernel on these sizes, the whole run"},
      {"reads.tiled.per_element", QueryKind::kNumber, "", "the tiled kernel's reads per element of C"},
      {"reads.naive", QueryKind::kNumber, "", "global reads of the naive kernel on these sizes, the whole run"},
      {"reads.naive.per_element", QueryKind::kNumber, "", "the naive kernel's reads per element of C"},
      {"reads.saving", QueryKind::kNumber, "", "naive reads over tiled reads: how many times fewer"},
      {"c.elements", QueryKind::kNumber, "", "elements of C: M·N"},
      {"c.value", QueryKind::kNumber, "row col", "C[row][col] at the end of the run"},
      {"c.sum", QueryKind::kNumber, "row col phase",
       "the partial sum of C[row][col]'s thread after its last product of phase p"},
      {"c.expression", QueryKind::kText, "row col phase",
       "C[row][col]'s products as the run made them, grouped by phase: (1·1 + 2·5) + ... = 90 (phase=p: up to p)"},
      {"c.wrong", QueryKind::kCells, "", "the elements of C that end wrong (bits differ from the fmaf reference)"},
      {"c.wrong.count", QueryKind::kNumber, "", "how many elements of C end wrong"},
      {"c.outcome", QueryKind::kText, "", "\"right\" when every element of C ends right, else \"wrong\""},
      {"tile.as", QueryKind::kText, "block_x block_y phase",
       "what block (x, y) stored into As in phase p, as [[row],[row]]"},
      {"tile.bs", QueryKind::kText, "block_x block_y phase", "what block (x, y) stored into Bs in phase p"},
      {"shared.read", QueryKind::kCells, "tx ty k block_x block_y phase tile",
       "the As and Bs cells thread (tx, ty) read for its product k in phase p (tile=As or Bs: that tile only)"},
      {"hazards", QueryKind::kNumber, "", "shared-memory hazards the whole run reports"},
      {"hazards.raw", QueryKind::kNumber, "", "read-after-write hazards, the whole run"},
      {"hazards.war", QueryKind::kNumber, "", "write-after-read hazards, the whole run"},
      {"hazard.kinds", QueryKind::kText, "", "the kinds of hazard reported: \"RAW\", \"WAR\", \"RAW and WAR\" or \"none\""},
      {"out_of_bounds", QueryKind::kNumber, "", "global accesses outside A, B or C, the whole run"},
      {"sectors", QueryKind::kNumber, "", "32-byte sectors the whole run's warp loads and stores touch"},
      {"access.sectors", QueryKind::kNumber, "op block_x block_y warp phase j",
       "32-byte sectors of one warp-instruction: warp w of block (x, y) running op (load_a, load_b, store_c) "
       "for the j-th time in phase p"},
      {"bank.conflicts", QueryKind::kNumber, "", "extra shared-memory wavefronts from bank conflicts, the whole run"},
      {"shared.reads", QueryKind::kNumber, "", "shared-memory reads (As and Bs words) of the whole run"},
      {"fma", QueryKind::kNumber, "", "fused multiply-adds the whole run executed (zero padding included)"},
      {"shared.reads.per_fma", QueryKind::kNumber, "", "shared-memory reads per fused multiply-add, the whole run"},
      {"flops", QueryKind::kNumber, "", "floating-point operations of the whole run: 2 per fused multiply-add"},
      {"intensity", QueryKind::kNumber, "",
       "FLOP per byte of global memory read: flops over 4 bytes per global read, the whole run"},
      {"bank.ways", QueryKind::kNumber, "access warp j",
       "how many ways warp w's lanes conflict in one shared access (read_as, read_bs, store_as, store_bs) at "
       "index j: 1 is conflict-free or a broadcast"},
      {"shared.bytes", QueryKind::kNumber, "", "static shared memory of a block, bytes"},
      {"occupancy.blocks_per_sm", QueryKind::kNumber, "gpu",
       "blocks of this kernel one SM holds at once (gpu: t4, a100, rtx4090, h100)"},
      {"occupancy.active_warps", QueryKind::kNumber, "gpu", "warps resident on one SM"},
      {"occupancy.registers", QueryKind::kNumber, "gpu", "registers per thread recorded for the compiled kernel"},
      {"occupancy.limit", QueryKind::kText, "gpu", "the resource that limits blocks per SM, in words"},
      {"occupancy.by", QueryKind::kNumber, "resource gpu",
       "blocks per SM one resource allows (resource: threads, warps, blocks, registers, shared_memory)"},
      {"warp.fill", QueryKind::kText, "", "how full a block's warps are, in words"},
  };
  return kQueries;
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
    if (!TakesArgument(*info, key) && !IsLessonField(key)) {
      parse.error = "query '" + words[0] + "' takes " +
                    (std::string(info->arguments).empty() ? std::string("no arguments") : info->arguments) +
                    " (and lesson fields such as tile=16); '" + key + "' is neither";
      return parse;
    }
    parse.call.arguments.emplace_back(std::move(key), words[i].substr(equals + 1));
  }
  return parse;
}

// ---- The model behind a tour ----------------------------------------------------------------

struct TourModel::Impl {
  explicit Impl(const LessonConfig& config) : lesson(config), simulation(config) {}

  LessonConfig lesson;
  Simulation simulation;  // the lesson itself: positions and queries at a step
  std::map<std::string, std::unique_ptr<WholeRun>> runs;  // by the lesson's JSON
  std::uint64_t spent = 0;  // thread-instructions run so far, against kMaxTourInstructions

  void Charge(const LessonConfig& config) {
    spent += Expected(config).thread_instructions;
    if (spent > kMaxTourInstructions) {
      throw OverBudget{"the tour asks the model to run more than " + std::to_string(kMaxTourInstructions) +
                       " thread-instructions in all: ask about smaller lessons"};
    }
  }

  const WholeRun& Run(const LessonConfig& config) {
    std::unique_ptr<WholeRun>& run = runs[LessonToJson(config)];
    if (!run) {
      Charge(config);
      run = RunWhole(config);
    }
    return *run;
  }

  // The lesson a call asks about: the tour's, with the call's lesson fields applied.
  std::optional<LessonConfig> LessonOf(const QueryCall& call, std::string* error) const {
    const QueryInfo* info = FindQuery(call.name);
    LessonConfig edited = lesson;
    for (const auto& [key, value] : call.arguments) {
      if (info != nullptr && TakesArgument(*info, key)) continue;
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

  std::optional<QueryValue> Evaluate(const QueryCall& call, std::int64_t step, std::string* error);
  std::optional<QueryValue> EvaluateCells(const QueryCall& call, const LessonConfig& config, Arguments& args);
  std::optional<QueryValue> EvaluateOccupancy(const QueryCall& call, const LessonConfig& config, Arguments& args);
  std::optional<QueryValue> EvaluateAccess(const LessonConfig& config, Arguments& args);
};

namespace {

// The block index and thread index that compute C[row][col].
std::pair<int, int> OwnerOf(const Geometry& g, int row, int col) {
  return {(row / g.tm) * g.grid_x + col / g.tn, (row % g.tm) * g.tn + col % g.tn};
}

bool InRange(Arguments& args, const char* what, int value, int limit) {
  if (value >= 0 && value < limit) return true;
  args.Fail(std::string(what) + " = " + std::to_string(value) + " is outside 0.." + std::to_string(limit - 1));
  return false;
}

}  // namespace

std::optional<QueryValue> TourModel::Impl::Evaluate(const QueryCall& call, std::int64_t step, std::string* error) {
  std::optional<LessonConfig> config = LessonOf(call, error);
  if (!config) return std::nullopt;
  Arguments args(call, error);
  const std::string& name = call.name;
  const Geometry geometry = MakeGeometry(*config);
  const double elements = static_cast<double>(config->m) * config->n;

  if (name == "m") return Number(geometry.m);
  if (name == "n") return Number(geometry.n);
  if (name == "k") return Number(geometry.k);
  if (name == "tm") return Number(geometry.tm);
  if (name == "tn") return Number(geometry.tn);
  if (name == "tk") return Number(geometry.tk);
  if (name == "phases") return Number(geometry.phases);
  if (name == "c.elements") return Number(elements);
  if (name == "blocks") return Number(geometry.blocks);
  if (name == "threads.per_block") return Number(geometry.block_threads);
  if (name == "warps.per_block") return Number(geometry.warps_per_block);
  if (name == "warp.fill") return Text(WarpsOfBlock(geometry));
  if (name.rfind("occupancy.", 0) == 0 || name == "shared.bytes") return EvaluateOccupancy(call, *config, args);
  if (name == "bank.ways") {
    const std::optional<WarpAccess> access = ParseWarpAccess(args.Text("access", ""));
    if (!access) {
      args.Fail("needs access=read_as, read_bs, store_as or store_bs");
      return std::nullopt;
    }
    const std::optional<int> warp = args.Int("warp", 0);
    const std::optional<int> j = args.Int("j", 0);
    if (!warp || !j || !InRange(args, "warp", *warp, geometry.warps_per_block)) return std::nullopt;
    if (config->kernel == KernelKind::kNaive) {
      args.Fail("asks about shared memory, which the naive kernel does not use");
      return std::nullopt;
    }
    return Number(BankWays(*config, *warp, *access, *j));
  }
  if (name == "access.sectors") return EvaluateAccess(*config, args);
  if (name == "reads.now") {
    simulation.JumpTo(step);
    return Number(static_cast<double>(simulation.counters().GlobalReads()));
  }

  // Whole-run counts.
  LessonConfig asked = *config;
  if (name.rfind("reads.naive", 0) == 0) asked.kernel = KernelKind::kNaive;
  if (name.rfind("reads.tiled", 0) == 0 && asked.kernel == KernelKind::kNaive) asked.kernel = KernelKind::kTiled;
  const WholeRun& run = Run(asked);
  const Counters& counters = run.counters;
  if (name == "steps") return Number(static_cast<double>(run.steps));
  if (name == "reads" || name == "reads.tiled" || name == "reads.naive") return Number(double(counters.GlobalReads()));
  if (name == "reads.a") return Number(static_cast<double>(counters.global_reads_a));
  if (name == "reads.b") return Number(static_cast<double>(counters.global_reads_b));
  if (name == "reads.per_element" || name == "reads.tiled.per_element" || name == "reads.naive.per_element") {
    return Number(static_cast<double>(counters.GlobalReads()) / elements);
  }
  if (name == "reads.saving") {
    LessonConfig naive = *config;
    naive.kernel = KernelKind::kNaive;
    LessonConfig tiled = *config;
    if (tiled.kernel == KernelKind::kNaive) tiled.kernel = KernelKind::kTiled;
    const std::uint64_t naive_reads = Run(naive).counters.GlobalReads();
    return Number(ReadSaving(naive_reads, Run(tiled).counters.GlobalReads()));
  }
  if (name == "hazards") return Number(static_cast<double>(counters.hazards));
  if (name == "hazards.raw") return Number(static_cast<double>(counters.hazards_raw));
  if (name == "hazards.war") return Number(static_cast<double>(counters.hazards_war));
  if (name == "hazard.kinds") {
    std::vector<std::string> kinds;
    if (counters.hazards_raw > 0) kinds.emplace_back("RAW");
    if (counters.hazards_war > 0) kinds.emplace_back("WAR");
    if (counters.hazards_waw > 0) kinds.emplace_back("WAW");
    return Text(kinds.empty() ? "none" : Join(kinds, " and "));
  }
  if (name == "out_of_bounds") return Number(static_cast<double>(counters.out_of_bounds));
  if (name == "sectors") return Number(static_cast<double>(counters.global_sectors));
  if (name == "bank.conflicts") return Number(static_cast<double>(counters.bank_conflicts));
  if (name == "shared.reads") return Number(static_cast<double>(counters.shared_reads));
  if (name == "fma") return Number(static_cast<double>(counters.fma_executed));
  if (name == "shared.reads.per_fma") {
    const double fma = static_cast<double>(counters.fma_executed);
    return Number(fma == 0 ? 0.0 : static_cast<double>(counters.shared_reads) / fma);
  }
  if (name == "flops") return Number(2.0 * static_cast<double>(counters.fma_executed));
  if (name == "intensity") {
    const double bytes = static_cast<double>(counters.GlobalReads()) * sizeof(float);
    return Number(bytes == 0 ? 0.0 : 2.0 * static_cast<double>(counters.fma_executed) / bytes);
  }
  if (name == "c.wrong.count") return Number(static_cast<double>(run.outcome.wrong_elements));
  if (name == "c.outcome") return Text(run.outcome.wrong_elements == 0 ? "right" : "wrong");
  return EvaluateCells(call, *config, args);
}

// Queries that read the recorded products and tiles, or name cells.
std::optional<QueryValue> TourModel::Impl::EvaluateCells(const QueryCall& call, const LessonConfig& config,
                                                         Arguments& args) {
  const std::string& name = call.name;
  const WholeRun& run = Run(config);
  const Geometry& g = run.geometry;
  if (name == "c.wrong") {
    std::vector<CellRef> cells;
    for (const std::int32_t index : run.outcome.wrong) cells.push_back({CellSpace::kC, index / g.n, index % g.n});
    return Cells(std::move(cells));
  }
  if (!run.recorded && name != "c.value") {
    args.Fail("needs the run's every product, which a lesson this large does not keep");
    return std::nullopt;
  }
  if (name == "c.value" || name == "c.sum" || name == "c.expression") {
    const std::optional<int> row = args.Int("row");
    const std::optional<int> col = args.Int("col");
    // c.expression: every phase unless one is named, then up to and including it.
    const std::optional<int> phase = args.Int("phase", name == "c.sum" ? std::nullopt : std::optional<int>(g.phases));
    if (!row || !col || !phase || !InRange(args, "row", *row, g.m) || !InRange(args, "col", *col, g.n) ||
        !InRange(args, "phase", *phase - 1, g.phases)) {
      return std::nullopt;
    }
    if (name == "c.value") return Number(run.c[static_cast<std::size_t>(*row) * g.n + *col]);
    const auto [block, thread] = OwnerOf(g, *row, *col);
    std::vector<std::string> groups;  // one per phase: "1·1 + 2·5"
    int group_phase = -1;
    float sum = 0.0f;
    for (const TraceEvent& e : run.products) {
      if (e.block != block || e.thread != thread) continue;
      if (e.phase > *phase - 1) break;
      const std::string term = FormatNumber(e.operand_a) + "\u00b7" + FormatNumber(e.operand_b);
      if (e.phase != group_phase) {
        groups.push_back(term);
      } else {
        groups.back() += " + " + term;
      }
      group_phase = e.phase;
      sum = e.value;
    }
    if (groups.size() > 1) {
      for (std::string& group : groups) group = "(" + group + ")";
    }
    if (name == "c.sum") return Number(sum);
    return Text(Join(groups, " + ") + " = " + FormatNumber(sum));
  }
  const std::optional<int> bx = args.Int("block_x", 0);
  const std::optional<int> by = args.Int("block_y", 0);
  const std::optional<int> phase = args.Int("phase", 1);
  if (!bx || !by || !phase || !InRange(args, "block_x", *bx, g.grid_x) || !InRange(args, "block_y", *by, g.grid_y) ||
      !InRange(args, "phase", *phase - 1, g.phases)) {
    return std::nullopt;
  }
  if (g.naive) {
    args.Fail("asks about shared tiles, which the naive kernel does not use");
    return std::nullopt;
  }
  const int block = *by * g.grid_x + *bx;
  if (name == "tile.as" || name == "tile.bs") {
    const PhaseRecord& record = run.walkthrough->blocks()[static_cast<std::size_t>(block)]
                                    .phases[static_cast<std::size_t>(*phase - 1)];
    return Text(name == "tile.as" ? TileText(record.as, g.tm, g.tk) : TileText(record.bs, g.tk, g.tn));
  }
  // shared.read
  const std::optional<int> tx = args.Int("tx");
  const std::optional<int> ty = args.Int("ty");
  const std::optional<int> k = args.Int("k");
  const std::string tile = args.Text("tile", "");
  if (!tx || !ty || !k || !InRange(args, "tx", *tx, g.tn) || !InRange(args, "ty", *ty, g.tm) ||
      !InRange(args, "k", *k, g.tk)) {
    return std::nullopt;
  }
  if (!tile.empty() && tile != "As" && tile != "Bs") {
    args.Fail("tile='" + tile + "' is not As or Bs");
    return std::nullopt;
  }
  const int thread = *ty * g.tn + *tx;
  int seen = 0;
  for (const TraceEvent& e : run.products) {
    if (e.block != block || e.thread != thread || e.phase != *phase - 1) continue;
    if (seen++ != *k) continue;
    std::vector<CellRef> cells;
    if (tile != "Bs") cells.push_back({CellSpace::kAs, e.from.row, e.from.col});
    if (tile != "As") cells.push_back({CellSpace::kBs, e.from2.row, e.from2.col});
    return Cells(std::move(cells));
  }
  args.Fail("found no product k = " + std::to_string(*k) + " of that thread in phase " + std::to_string(*phase));
  return std::nullopt;
}

std::optional<QueryValue> TourModel::Impl::EvaluateOccupancy(const QueryCall& call, const LessonConfig& config,
                                                             Arguments& args) {
  const KernelChoice choice = KernelChoice::Of(config);
  if (call.name == "shared.bytes") return Number(DemandOf(choice).shared_bytes);
  const std::string key = args.Text("gpu", kDefaultGpu);
  const GpuLimits* gpu = FindClassroomGpu(key);
  if (gpu == nullptr) {
    args.Fail("gpu='" + key + "' is not one of " + ClassroomGpuKeys());
    return std::nullopt;
  }
  const Occupancy occupancy = OccupancyOf(choice, *gpu);
  if (call.name == "occupancy.blocks_per_sm") return Number(occupancy.blocks_per_sm);
  if (call.name == "occupancy.active_warps") return Number(occupancy.active_warps);
  if (call.name == "occupancy.limit") return Text(LimitingText(occupancy));
  if (call.name == "occupancy.by") {
    const std::string resource = args.Text("resource", "");
    for (const ResourceLimit& limit : occupancy.limits) {
      std::string limit_name = Name(limit.resource);
      std::replace(limit_name.begin(), limit_name.end(), ' ', '_');
      if (limit_name != resource) continue;
      if (!limit.known) {
        args.Fail("finds no ceiling from " + resource + " for " + Describe(choice));
        return std::nullopt;
      }
      return Number(limit.blocks);
    }
    args.Fail("needs resource=threads, warps, blocks, registers or shared_memory");
    return std::nullopt;
  }
  // occupancy.registers
  if (occupancy.demand.registers_per_thread == 0) {
    args.Fail("has no recorded register count for " + Describe(choice));
    return std::nullopt;
  }
  return Number(occupancy.demand.registers_per_thread);
}

// The sectors one warp-instruction touched: the counter's growth over the step that ran it.
std::optional<QueryValue> TourModel::Impl::EvaluateAccess(const LessonConfig& config, Arguments& args) {
  const std::string op_name = args.Text("op", "");
  const std::optional<Op> op = ParseOp(op_name);
  if (!op || (*op != Op::kLoadA && *op != Op::kLoadB && *op != Op::kStoreC)) {
    args.Fail("needs op=load_a, load_b or store_c");
    return std::nullopt;
  }
  const Geometry g = MakeGeometry(config);
  const std::optional<int> bx = args.Int("block_x", 0);
  const std::optional<int> by = args.Int("block_y", 0);
  const std::optional<int> warp = args.Int("warp", 0);
  const std::optional<int> phase = args.Int("phase", 1);
  const std::optional<int> j = args.Int("j", 0);
  if (!bx || !by || !warp || !phase || !j || !InRange(args, "block_x", *bx, g.grid_x) ||
      !InRange(args, "block_y", *by, g.grid_y) || !InRange(args, "warp", *warp, g.warps_per_block)) {
    return std::nullopt;
  }
  if (config.scheduler != SchedulerKind::kRealistic) {
    args.Fail("counts a warp-instruction, which only the realistic scheduler runs as one step");
    return std::nullopt;
  }
  const int block = *by * g.grid_x + *bx;
  Charge(config);
  Simulation run(config);
  int seen = 0;
  std::uint64_t before = 0;
  bool found = false;
  run.RunWhile([&](const Simulation& s) {
    for (const TraceEvent& e : s.last_step_events()) {
      if (e.block != block || e.op != *op || e.thread < 0 || e.thread / 32 != *warp) continue;
      if (*op != Op::kStoreC && e.phase != *phase - 1) continue;
      if (e.kind != EventKind::kGlobalLoad && e.kind != EventKind::kStoreC) continue;
      found = seen++ == *j;
      break;
    }
    if (!found) before = s.counters().global_sectors;
    return !found;
  });
  if (!found) {
    args.Fail("found no " + op_name + " number " + std::to_string(*j) + " of warp " + std::to_string(*warp) +
              " in that block and phase");
    return std::nullopt;
  }
  return Number(static_cast<double>(run.counters().global_sectors - before));
}

TourModel::TourModel(const LessonConfig& lesson) : impl_(std::make_unique<Impl>(lesson)) {}
TourModel::~TourModel() = default;
TourModel::TourModel(TourModel&&) noexcept = default;
TourModel& TourModel::operator=(TourModel&&) noexcept = default;

const LessonConfig& TourModel::lesson() const { return impl_->lesson; }

std::int64_t TourModel::TotalSteps() { return impl_->simulation.TotalSteps(); }

std::optional<std::int64_t> TourModel::Resolve(const TourPosition& position, std::string* error) {
  const auto fail = [error](const std::string& message) -> std::optional<std::int64_t> {
    if (error != nullptr) *error = message;
    return std::nullopt;
  };
  const std::int64_t total = TotalSteps();
  const Geometry& g = impl_->simulation.geometry();
  const std::string block_name = "block " + Coordinates(position.block.x, position.block.y);
  switch (position.kind) {
    case TourPosition::Kind::kStep:
      if (position.step < 0 || position.step > total) {
        return fail("step " + std::to_string(position.step) + " is past the end of the run (" +
                    std::to_string(total) + " steps)");
      }
      return position.step;
    case TourPosition::Kind::kEnd:
      return total;
    case TourPosition::Kind::kFirstHazard:
    case TourPosition::Kind::kBarrierRelease:
    case TourPosition::Kind::kPhaseStart:
      break;
  }
  if (position.kind != TourPosition::Kind::kFirstHazard) {
    if (position.block.x < 0 || position.block.x >= g.grid_x || position.block.y < 0 || position.block.y >= g.grid_y) {
      return fail(block_name + " is not in the grid (" + std::to_string(g.grid_x) + "×" + std::to_string(g.grid_y) +
                  " blocks)");
    }
    if (position.phase < 1 || position.phase > g.phases) {
      return fail(block_name + " has no phase " + std::to_string(position.phase) + ": the lesson has " +
                  std::to_string(g.phases));
    }
  }
  const int block = position.block.y * g.grid_x + position.block.x;
  const Op barrier = position.barrier == 2 ? Op::kBarrier2 : Op::kBarrier1;
  try {
    impl_->Charge(impl_->lesson);
  } catch (const OverBudget& over) {
    return fail(over.message);
  }
  Simulation& sim = impl_->simulation;
  sim.Reset();
  bool found = false;
  sim.RunWhile([&](const Simulation& s) {
    for (const TraceEvent& e : s.last_step_events()) {
      switch (position.kind) {
        case TourPosition::Kind::kFirstHazard:
          found = found || e.kind == EventKind::kHazard;
          break;
        case TourPosition::Kind::kBarrierRelease:
          found = found || (e.kind == EventKind::kBarrierRelease && e.block == block && e.op == barrier &&
                            e.phase == position.phase - 1);
          break;
        default:
          found = found || (e.thread >= 0 && e.block == block && e.phase == position.phase - 1 && e.op != Op::kStoreC);
          break;
      }
    }
    return !found;
  });
  if (found) return sim.step();
  if (position.kind == TourPosition::Kind::kFirstHazard) return fail("the run reports no hazard");
  if (position.kind == TourPosition::Kind::kBarrierRelease) {
    return fail(block_name + "'s barrier " + std::to_string(position.barrier) + " never releases in phase " +
                std::to_string(position.phase) + " (it is " +
                SourceText(position.barrier == 2 ? impl_->lesson.barrier2 : impl_->lesson.barrier1) + ")");
  }
  return fail(block_name + " never starts phase " + std::to_string(position.phase));
}

std::optional<QueryValue> TourModel::Evaluate(const QueryCall& call, std::int64_t step, std::string* error) {
  try {
    return impl_->Evaluate(call, step, error);
  } catch (const OverBudget& over) {
    if (error != nullptr) *error = "query '" + call.name + "': " + over.message;
    return std::nullopt;
  }
}

std::optional<QueryValue> TourModel::Evaluate(std::string_view query, std::int64_t step, std::string* error) {
  const QueryParse parse = ParseQueryCall(query);
  if (!parse.error.empty()) {
    if (error != nullptr) *error = parse.error;
    return std::nullopt;
  }
  return Evaluate(parse.call, step, error);
}

std::optional<std::string> TourModel::Fill(std::string_view text, std::int64_t step, std::string* error) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      out.push_back(c);
      ++i;
      continue;
    }
    if (c == '}') {
      if (error != nullptr) *error = "a '}' at character " + std::to_string(i + 1) + " closes no placeholder";
      return std::nullopt;
    }
    if (c != '{') {
      out.push_back(c);
      continue;
    }
    const std::size_t close = text.find('}', i);
    if (close == std::string_view::npos) {
      if (error != nullptr) *error = "the placeholder at character " + std::to_string(i + 1) + " has no closing '}'";
      return std::nullopt;
    }
    const std::optional<QueryValue> value = Evaluate(text.substr(i + 1, close - i - 1), step, error);
    if (!value) return std::nullopt;
    out += value->text;
    i = close;
  }
  return out;
}

// ---- Preparing a whole tour ---------------------------------------------------------------

namespace {

bool SameValue(const QueryValue& right, const std::string& value, double tolerance) {
  if (right.kind != QueryKind::kNumber) return value == right.text;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0') return false;
  return std::fabs(number - right.number) <= tolerance + 1e-9 * std::max(1.0, std::fabs(right.number));
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
    for (const SeedClaim& claim : stop.quote->claims) {
      const std::optional<QueryValue> value = model.Evaluate(claim.query, out.step, &error);
      if (!value) return "\"seed\" claim: " + error;
      if (value->kind != QueryKind::kNumber) return "\"seed\" claim: query '" + claim.query + "' is not a number";
      out.claims.push_back({claim, value->number, SameValue(*value, FormatNumber(claim.figure), 0)});
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
      return "\"question\": choices " + Join(matches, " and ") + " all equal the model's answer " + answer->text;
    }
  }
  return "";
}

}  // namespace

PreparedTour PrepareTour(const LessonConfig& lesson, const Tour& tour, const std::atomic<bool>* cancel) {
  PreparedTour prepared;
  if (tour.empty()) return prepared;
  if (auto problem = Validate(lesson)) {
    prepared.error = "the lesson cannot run: " + problem->message;
    return prepared;
  }
  std::map<std::string, TourModel> models;  // one per distinct "edits", each run once
  for (std::size_t i = 0; i < tour.stops.size(); ++i) {
    if (cancel != nullptr && cancel->load()) {
      prepared.stops.clear();
      prepared.error = "cancelled";
      return prepared;
    }
    PreparedStop stop;
    std::string error;
    auto found = models.find(tour.stops[i].edits);
    if (found == models.end()) {
      LessonConfig edited = lesson;
      const std::optional<ValidationError> problem =
          tour.stops[i].edits.empty() ? std::nullopt : ApplyLessonEdits(tour.stops[i].edits, edited);
      if (problem) {
        error = "\"edits\": " + problem->message;
      } else if (auto invalid = Validate(edited)) {
        error = "\"edits\": the edited lesson cannot run: " + invalid->message;
      } else {
        found = models.emplace(tour.stops[i].edits, TourModel(edited)).first;
      }
    }
    if (error.empty()) {
      stop.lesson = found->second.lesson();
      error = PrepareStop(found->second, tour.stops[i], stop);
    }
    if (!error.empty()) {
      const std::string& title = tour.stops[i].title;
      prepared.stops.clear();
      prepared.error = "tour stop " + std::to_string(i + 1) + (title.empty() ? "" : " (\"" + title + "\")") + ": " + error;
      return prepared;
    }
    prepared.stops.push_back(std::move(stop));
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
    char* end = nullptr;
    const double number = std::strtod(trimmed.c_str(), &end);
    if (*end != '\0' || !std::isfinite(number)) {
      parse.error = "'" + trimmed + "' is not a number";
      return parse;
    }
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
      std::vector<std::string> names;
      for (const CellRef& cell : given) names.push_back(CellText(cell));
      reveal.student = names.empty() ? "no cells" : Join(names, " ");
      reveal.correct = given == prepared.answer.cells;
      break;
    }
  }
  return reveal;
}

}  // namespace sim
