// The model behind a tour: the query registry and TourModel. Each query is one row of one
// table — its name, kind, arguments, help line and the function that asks the model — so
// the checks, `tilescope tour --queries` and the evaluation cannot disagree.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "sim/lesson/validation.h"
#include "sim/model/bank_conflicts.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/checked_math.h"
#include "sim/model/occupancy.h"
#include "sim/model/reference.h"
#include "sim/model/run_check.h"
#include "sim/model/simulation.h"
#include "sim/model/snapshot.h"
#include "sim/lesson/teaching.h"
#include "sim/lesson/tour.h"
#include "sim/lesson/walkthrough.h"

namespace sim {
namespace {

// Runs whose per-event records a query keeps (products and stores): beyond this many thread
// instructions a query that needs them says the lesson is too large for it.
constexpr std::uint64_t kMaxRecordedInstructions = std::uint64_t{1} << 22;
constexpr const char* kDefaultGpu = "h100";

// Thrown where a run would pass the tour's budget; TourModel turns it into the error.
struct OverBudget {
  std::string message;
};
// Thrown from within a run once the tour's cancel flag is set; TourModel turns it into
// kTourCancelled, so a worker stops mid-run instead of at the next stop.
struct Cancelled {};

// How many steps a cancellable run takes between looks at the flag: small enough that
// Cancel answers within a few milliseconds, large enough that the look costs nothing.
constexpr std::int64_t kStepsBetweenCancelChecks = 4096;

void RunToEndUnless(Simulation& simulation, const std::atomic<bool>* cancel) {
  if (cancel == nullptr) {
    simulation.RunToEnd();
    return;
  }
  std::int64_t steps = 0;
  simulation.RunWhile([&](const Simulation&) { return ++steps % kStepsBetweenCancelChecks != 0 || !cancel->load(); });
  if (!simulation.Finished()) throw Cancelled{};
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// The events a whole run leaves that queries read: every product, and (through the
// walkthrough) what each phase stored into the tiles.
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
  Geometry geometry;
  Counters counters;
  RunOutcome outcome;
  std::vector<float> c;
  std::int64_t steps = 0;
  bool recorded = false;  // products and walkthrough kept
  std::vector<TraceEvent> products;
  std::unique_ptr<WalkthroughRecorder> walkthrough;
};

std::unique_ptr<WholeRun> RunWhole(const LessonConfig& lesson, const std::atomic<bool>* cancel) {
  auto run = std::make_unique<WholeRun>();
  run->geometry = MakeGeometry(lesson);
  run->recorded = Expected(lesson).thread_instructions <= kMaxRecordedInstructions;
  run->walkthrough = std::make_unique<WalkthroughRecorder>(run->geometry, run->recorded ? run->geometry.blocks : 0);
  RecordingSink sink(run->walkthrough.get());
  Simulation simulation(lesson);
  if (run->recorded) simulation.SetSink(&sink);
  RunToEndUnless(simulation, cancel);
  run->counters = simulation.counters();
  run->outcome = Assess(simulation);
  run->c = simulation.c();
  run->steps = simulation.step();
  run->products = std::move(sink.products);
  return run;
}

// An upper bound of what a kept WholeRun holds: C, and when recorded its products and the
// walkthrough's tile stores (counted as events, the larger of the two records).
std::uint64_t KeptBytes(const LessonConfig& lesson) {
  const ClosedForms expected = Expected(lesson);
  const std::uint64_t c = SaturatingMul(SaturatingMul(std::uint64_t(lesson.m), std::uint64_t(lesson.n)), sizeof(float));
  if (expected.thread_instructions > kMaxRecordedInstructions) return c;
  return SaturatingAdd(c, SaturatingMul(SaturatingAdd(expected.fma, expected.shared_writes), sizeof(TraceEvent)));
}

// Whole runs, each made once, within the tour's budget.
class Runs {
 public:
  Runs(const std::atomic<bool>* cancel, TourBudget& budget) : cancel_(cancel), budget_(budget) {}
  const std::atomic<bool>* cancel() const { return cancel_; }
  // A run of `lesson` that keeps `kept_bytes` once it ends.
  void Charge(const LessonConfig& lesson, std::uint64_t kept_bytes = 0) {
    if (auto over = budget_.Charge(Expected(lesson).thread_instructions, kept_bytes,
                                   EstimateModelMemory(lesson).whole_run)) {
      throw OverBudget{*over};
    }
  }
  const WholeRun& Of(const LessonConfig& lesson) {
    std::unique_ptr<WholeRun>& run = runs_[LessonToJson(lesson)];
    if (!run) {
      Charge(lesson, KeptBytes(lesson));
      run = RunWhole(lesson, cancel_);
    }
    return *run;
  }

 private:
  std::map<std::string, std::unique_ptr<WholeRun>> runs_;  // by the lesson's JSON
  const std::atomic<bool>* cancel_;  // may be null
  TourBudget& budget_;
};

// A query's own arguments, read one by one (the rest are lesson fields, applied before).
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
  // A whole number from 0 to limit - 1 (`shown_offset` is added for the message: phases
  // are asked for from 1).
  std::optional<int> Index(const char* key, std::optional<int> fallback, int limit, int shown_offset = 0) {
    const std::optional<int> value = Int(key, fallback);
    if (!value) return std::nullopt;
    if (*value - shown_offset >= 0 && *value - shown_offset < limit) return *value - shown_offset;
    Fail(std::string(key) + " = " + std::to_string(*value) + " is outside " + std::to_string(shown_offset) + ".." +
         std::to_string(limit - 1 + shown_offset));
    return std::nullopt;
  }
  std::string Text(const char* key, const char* fallback) const {
    const std::string* text = Find(key);
    return text == nullptr ? fallback : *text;
  }
  std::nullopt_t Fail(const std::string& message) {
    if (!failed_ && error_ != nullptr) *error_ = "query '" + call_.name + "' " + message;
    failed_ = true;
    return std::nullopt;
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

// Everything an evaluator may read.
struct Asked {
  const LessonConfig& lesson;  // the tour's lesson with the call's lesson fields
  Geometry g;
  Arguments& args;
  Runs& runs;
  Simulation& tour_lesson;  // the tour's own lesson, for what holds at the stop's step
  std::int64_t step;

  const WholeRun& Run() { return runs.Of(lesson); }
  // The same sizes and tiles on another kernel: the naive kernel reads 2·M·N·K.
  const WholeRun& RunOn(KernelKind kernel) {
    LessonConfig other = lesson;
    if (kernel == KernelKind::kNaive || other.kernel == KernelKind::kNaive) other.kernel = kernel;
    if (kernel == KernelKind::kNaive) {
      // The naive kernel has no barrier and no tiles to lay out: a lesson with a barrier off
      // or a transposed Bs still has its naive counterpart (it would not run otherwise).
      other.barrier1 = other.barrier2 = SyncKind::kSyncthreads;
      other.bs_layout = SharedLayout::kRowMajor;
    }
    return runs.Of(other);
  }
  double Elements() const { return static_cast<double>(g.m) * g.n; }
};

using Evaluator = std::optional<QueryValue> (*)(Asked&);

QueryValue Number(double value) {
  QueryValue out;
  out.kind = QueryKind::kNumber;
  out.number = value;
  out.text = FormatNumber(value);
  return out;
}

QueryValue Count(std::uint64_t value) { return Number(static_cast<double>(value)); }

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

double Ratio(double over, double under) { return under == 0 ? 0.0 : over / under; }

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

// ---- Evaluators that need more than a line ---------------------------------------------------

std::optional<QueryValue> HazardKinds(Asked& q) {
  const Counters& counters = q.Run().counters;
  std::vector<std::string> kinds;
  if (counters.hazards_raw > 0) kinds.emplace_back("RAW");
  if (counters.hazards_war > 0) kinds.emplace_back("WAR");
  if (counters.hazards_waw > 0) kinds.emplace_back("WAW");
  return Text(kinds.empty() ? "none" : Join(kinds, " and "));
}

std::optional<QueryValue> WrongCells(Asked& q) {
  std::vector<CellRef> cells;
  for (const std::int32_t index : q.Run().outcome.wrong) cells.push_back({CellSpace::kC, index / q.g.n, index % q.g.n});
  return Cells(std::move(cells));
}

// The run's products, for queries that follow one thread's sum.
const WholeRun* Recorded(Asked& q) {
  const WholeRun& run = q.Run();
  if (run.recorded) return &run;
  q.args.Fail("needs the run's every product, which a lesson this large does not keep");
  return nullptr;
}

std::optional<QueryValue> CValue(Asked& q) {
  const std::optional<int> row = q.args.Index("row", std::nullopt, q.g.m);
  const std::optional<int> col = q.args.Index("col", std::nullopt, q.g.n);
  if (!row || !col) return std::nullopt;
  return Number(q.Run().c[static_cast<std::size_t>(*row) * q.g.n + *col]);
}

// C[row][col]'s products up to a phase, grouped by phase: "(1·1 + 2·5) + (3·9 + 4·13)", and the
// partial sum after each group. c.sum and c.phase_sum need the phase; c.expression takes every
// phase unless told.
struct Products {
  std::vector<std::string> groups;
  std::vector<float> sums;  // one per group: the thread's sum after that phase's last product
};
std::optional<Products> ProductsOf(Asked& q, std::optional<int> default_phase) {
  const std::optional<int> row = q.args.Index("row", std::nullopt, q.g.m);
  const std::optional<int> col = q.args.Index("col", std::nullopt, q.g.n);
  const std::optional<int> phase = q.args.Index("phase", default_phase, q.g.phases, 1);
  const WholeRun* run = row && col && phase ? Recorded(q) : nullptr;
  if (run == nullptr) return std::nullopt;
  const int block = (*row / q.g.tm) * q.g.grid_x + *col / q.g.tn;
  const int thread = (*row % q.g.tm) * q.g.tn + *col % q.g.tn;
  Products out;
  int group_phase = -1;
  for (const TraceEvent& e : run->products) {
    if (e.block != block || e.thread != thread) continue;
    if (e.phase > *phase) break;
    const std::string term = FormatNumber(e.operand_a) + "\u00b7" + FormatNumber(e.operand_b);
    if (e.phase != group_phase) {
      out.groups.push_back(term);
      out.sums.push_back(e.value);
    } else {
      out.groups.back() += " + " + term;
      out.sums.back() = e.value;
    }
    group_phase = e.phase;
  }
  if (out.groups.size() > 1) {
    for (std::string& group : out.groups) group = "(" + group + ")";
  }
  return out;
}

float SumAfter(const Products& products) { return products.sums.empty() ? 0.0f : products.sums.back(); }

std::optional<QueryValue> CSum(Asked& q) {
  const std::optional<Products> products = ProductsOf(q, std::nullopt);
  if (!products) return std::nullopt;
  return Number(SumAfter(*products));
}

// What the last phase's products added: the sum after it less the sum before it.
std::optional<QueryValue> CPhaseSum(Asked& q) {
  const std::optional<Products> products = ProductsOf(q, std::nullopt);
  if (!products) return std::nullopt;
  const std::size_t groups = products->sums.size();
  return Number(SumAfter(*products) - (groups > 1 ? products->sums[groups - 2] : 0.0f));
}

std::optional<QueryValue> CExpression(Asked& q) {
  const std::optional<Products> products = ProductsOf(q, q.g.phases);
  if (!products) return std::nullopt;
  return Text(Join(products->groups, " + ") + " = " + FormatNumber(SumAfter(*products)));
}

// The block and phase a tile query names (block (0,0) and phase 1 unless told).
struct BlockPhase {
  int block = 0;
  int phase = 0;  // from 0
};
std::optional<BlockPhase> TileBlock(Asked& q) {
  if (q.g.naive) return q.args.Fail("asks about shared tiles, which the naive kernel does not use");
  const std::optional<int> bx = q.args.Index("block_x", 0, q.g.grid_x);
  const std::optional<int> by = q.args.Index("block_y", 0, q.g.grid_y);
  const std::optional<int> phase = q.args.Index("phase", 1, q.g.phases, 1);
  if (!bx || !by || !phase) return std::nullopt;
  return BlockPhase{*by * q.g.grid_x + *bx, *phase};
}

std::optional<QueryValue> Tile(Asked& q, TileId id) {
  const std::optional<BlockPhase> at = TileBlock(q);
  const WholeRun* run = at ? Recorded(q) : nullptr;
  if (run == nullptr) return std::nullopt;
  const PhaseRecord& record =
      run->walkthrough->blocks()[static_cast<std::size_t>(at->block)].phases[static_cast<std::size_t>(at->phase)];
  return Text(id == TileId::kAs ? TileText(record.as, q.g.tm, q.g.tk) : TileText(record.bs, q.g.tk, q.g.tn));
}

// The As and Bs cells thread (tx, ty) read for its product k of the phase, as the run read them.
std::optional<QueryValue> SharedRead(Asked& q) {
  const std::optional<BlockPhase> at = TileBlock(q);
  const std::optional<int> tx = q.args.Index("tx", std::nullopt, q.g.tn);
  const std::optional<int> ty = q.args.Index("ty", std::nullopt, q.g.tm);
  const std::optional<int> k = q.args.Index("k", std::nullopt, q.g.tk);
  const std::string tile = q.args.Text("tile", "");
  if (!tile.empty() && tile != "As" && tile != "Bs") return q.args.Fail("tile='" + tile + "' is not As or Bs");
  const WholeRun* run = at && tx && ty && k ? Recorded(q) : nullptr;
  if (run == nullptr) return std::nullopt;
  const int thread = *ty * q.g.tn + *tx;
  int seen = 0;
  for (const TraceEvent& e : run->products) {
    if (e.block != at->block || e.thread != thread || e.phase != at->phase || seen++ != *k) continue;
    std::vector<CellRef> cells;
    if (tile != "Bs") cells.push_back({CellSpace::kAs, e.from.row, e.from.col});
    if (tile != "As") cells.push_back({CellSpace::kBs, e.from2.row, e.from2.col});
    return Cells(std::move(cells));
  }
  return q.args.Fail("found no product k = " + std::to_string(*k) + " of that thread in that phase");
}

std::optional<QueryValue> BankWaysOf(Asked& q) {
  const std::string name = q.args.Text("access", "");
  const std::array<std::pair<const char*, WarpAccess>, 4> kAccesses{{{"store_as", WarpAccess::kStoreAs},
                                                                     {"store_bs", WarpAccess::kStoreBs},
                                                                     {"read_as", WarpAccess::kReadAs},
                                                                     {"read_bs", WarpAccess::kReadBs}}};
  const auto access = std::find_if(kAccesses.begin(), kAccesses.end(), [&name](const auto& a) { return name == a.first; });
  if (access == kAccesses.end()) return q.args.Fail("needs access=read_as, read_bs, store_as or store_bs");
  if (q.g.naive) return q.args.Fail("asks about shared memory, which the naive kernel does not use");
  const std::optional<int> warp = q.args.Index("warp", 0, q.g.warps_per_block);
  const std::optional<int> j = q.args.Int("j", 0);
  if (!warp || !j) return std::nullopt;
  return Number(BankWays(q.lesson, *warp, access->second, *j));
}

// The sectors one warp-instruction touched: the counter's growth over the step that ran it.
std::optional<QueryValue> AccessSectors(Asked& q) {
  const std::string op_name = q.args.Text("op", "");
  const Op op = op_name == "load_a" ? Op::kLoadA : op_name == "load_b" ? Op::kLoadB : Op::kStoreC;
  if (op == Op::kStoreC && op_name != "store_c") return q.args.Fail("needs op=load_a, load_b or store_c");
  if (q.lesson.scheduler != SchedulerKind::kRealistic) {
    return q.args.Fail("counts a warp-instruction, which only the realistic scheduler runs as one step");
  }
  const std::optional<int> bx = q.args.Index("block_x", 0, q.g.grid_x);
  const std::optional<int> by = q.args.Index("block_y", 0, q.g.grid_y);
  const std::optional<int> warp = q.args.Index("warp", 0, q.g.warps_per_block);
  const std::optional<int> phase = q.args.Index("phase", 1, q.g.phases, 1);
  const std::optional<int> j = q.args.Int("j", 0);
  if (!bx || !by || !warp || !phase || !j) return std::nullopt;
  const int block = *by * q.g.grid_x + *bx;
  q.runs.Charge(q.lesson);
  Simulation run(q.lesson);
  int seen = 0;
  std::uint64_t before = 0;
  bool found = false;
  run.RunWhile([&](const Simulation& s) {
    for (const TraceEvent& e : s.last_step_events()) {
      const bool load_or_store = e.kind == EventKind::kGlobalLoad || e.kind == EventKind::kStoreC;
      if (!load_or_store || e.block != block || e.op != op || e.thread / kWarpSize != *warp) continue;
      if (op != Op::kStoreC && e.phase != *phase) continue;
      found = seen++ == *j;
      break;
    }
    if (!found) before = s.counters().global_sectors;
    return !found;
  });
  if (!found) return q.args.Fail("found no " + op_name + " number " + std::to_string(*j) + " of that warp");
  return Count(run.counters().global_sectors - before);
}

// Occupancy of the lesson's kernel on a classroom GPU (the H100 unless gpu= names another).
std::optional<Occupancy> OccupancyAsked(Asked& q) {
  const std::string key = q.args.Text("gpu", kDefaultGpu);
  const GpuLimits* gpu = FindClassroomGpu(key);
  if (gpu == nullptr) return q.args.Fail("gpu='" + key + "' is not one of " + ClassroomGpuKeys());
  return OccupancyOf(KernelChoice::Of(q.lesson), *gpu);
}

std::optional<QueryValue> OccupancyBy(Asked& q) {
  const std::optional<Occupancy> occupancy = OccupancyAsked(q);
  if (!occupancy) return std::nullopt;
  const std::string resource = q.args.Text("resource", "");
  for (const ResourceLimit& limit : occupancy->limits) {
    std::string name = Name(limit.resource);
    std::replace(name.begin(), name.end(), ' ', '_');
    if (name != resource) continue;
    if (!limit.known) return q.args.Fail("finds no ceiling from " + resource + " for this kernel");
    return Number(limit.blocks);
  }
  return q.args.Fail("needs resource=threads, warps, blocks, registers or shared_memory");
}

std::optional<QueryValue> Registers(Asked& q) {
  const std::optional<Occupancy> occupancy = OccupancyAsked(q);
  if (!occupancy) return std::nullopt;
  if (occupancy->demand.registers_per_thread == 0) {
    return q.args.Fail("has no recorded register count for " + Describe(KernelChoice::Of(q.lesson)));
  }
  return Number(occupancy->demand.registers_per_thread);
}

template <typename Read>
std::optional<QueryValue> FromOccupancy(Asked& q, Read read) {
  const std::optional<Occupancy> occupancy = OccupancyAsked(q);
  if (!occupancy) return std::nullopt;
  return read(*occupancy);
}

// ---- The registry ---------------------------------------------------------------------------

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

}  // namespace

const std::vector<QueryInfo>& Queries() {
  static const std::vector<QueryInfo> kInfos = [] {
    std::vector<QueryInfo> infos;
    for (const QuerySpec& spec : Specs()) infos.push_back(spec.info);
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

// ---- TourModel ----------------------------------------------------------------------------

struct TourModel::Impl {
  Impl(const LessonConfig& config, const std::atomic<bool>* cancel, TourBudget* shared)
      : lesson(config), simulation(config), budget(shared ? *shared : own_budget), runs(cancel, budget) {}

  LessonConfig lesson;
  Simulation simulation;  // the lesson itself: positions, and queries at a step
  TourBudget own_budget;  // when no tour shares one
  TourBudget& budget;
  Runs runs;

  // The lesson a call asks about: the tour's, with the call's lesson fields applied.
  std::optional<LessonConfig> LessonOf(const QueryCall& call, const QueryInfo& info, std::string* error) const {
    LessonConfig edited = lesson;
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

  // The lesson's whole run, counted so that the cancel flag stops it (Simulation's own count
  // would run to the end first).
  void CountWholeRun() {
    const std::atomic<bool>* cancel = runs.cancel();
    if (cancel == nullptr || simulation.KnownTimeline() != nullptr) return;
    std::optional<Timeline> timeline = ComputeTimeline(simulation.config(), simulation.a(), simulation.b(), cancel, nullptr);
    if (!timeline) throw Cancelled{};
    simulation.AdoptTimeline(std::move(*timeline));
  }

  // Just after the first step whose events `matches` accepts; nullopt if none does.
  template <typename Matches>
  std::optional<std::int64_t> FirstStep(Matches matches) {
    runs.Charge(lesson);
    simulation.Reset();
    bool found = false;
    std::int64_t steps = 0;
    const std::atomic<bool>* cancel = runs.cancel();
    bool cancelled = false;
    simulation.RunWhile([&](const Simulation& s) {
      for (const TraceEvent& e : s.last_step_events()) found = found || matches(e);
      cancelled = cancel != nullptr && ++steps % kStepsBetweenCancelChecks == 0 && cancel->load();
      return !found && !cancelled;
    });
    if (cancelled) throw Cancelled{};
    return found ? std::optional<std::int64_t>(simulation.step()) : std::nullopt;
  }
};

std::optional<std::string> TourBudget::Charge(std::uint64_t instructions, std::uint64_t kept_bytes,
                                              std::uint64_t running_bytes) {
  const std::uint64_t spent = SaturatingAdd(instructions_, instructions);
  if (spent > max_instructions_) {
    return "the tour asks the model to run more than " + std::to_string(max_instructions_) +
           " thread-instructions in all: ask about smaller lessons or fewer of them";
  }
  const std::uint64_t kept = SaturatingAdd(kept_bytes_, kept_bytes);
  if (SaturatingAdd(kept, running_bytes) > max_bytes_) {
    return "the tour's model runs would hold more than " + std::to_string(max_bytes_ >> 20) +
           " MiB in all: ask about smaller lessons or fewer of them";
  }
  instructions_ = spent;
  kept_bytes_ = kept;
  return std::nullopt;
}

TourModel::TourModel(const LessonConfig& lesson, const std::atomic<bool>* cancel, TourBudget* budget)
    : impl_(std::make_unique<Impl>(lesson, cancel, budget)) {}
TourModel::~TourModel() = default;
TourModel::TourModel(TourModel&&) noexcept = default;
TourModel& TourModel::operator=(TourModel&&) noexcept = default;

const LessonConfig& TourModel::lesson() const { return impl_->lesson; }

std::int64_t TourModel::TotalSteps() { return impl_->simulation.TotalSteps(); }

std::optional<std::int64_t> TourModel::Resolve(const TourPosition& position, std::string* error) {
  try {
    return ResolveStep(position, error);
  } catch (const Cancelled&) {
    if (error != nullptr) *error = kTourCancelled;
    return std::nullopt;
  }
}

std::optional<std::int64_t> TourModel::ResolveStep(const TourPosition& position, std::string* error) {
  const auto fail = [error](const std::string& message) -> std::optional<std::int64_t> {
    if (error != nullptr) *error = message;
    return std::nullopt;
  };
  impl_->CountWholeRun();
  const std::int64_t total = TotalSteps();
  const Geometry& g = impl_->simulation.geometry();
  const std::string block_name = "block " + Coordinates(position.block.x, position.block.y);
  const int block = position.block.y * g.grid_x + position.block.x;
  const int phase = position.phase - 1;
  const Op barrier = position.barrier == 2 ? Op::kBarrier2 : Op::kBarrier1;
  const auto located = [&](auto matches) -> std::optional<std::int64_t> {
    try {
      return impl_->FirstStep(matches);
    } catch (const OverBudget& over) {
      return fail(over.message);
    }
  };
  switch (position.kind) {
    case TourPosition::Kind::kStep:
      if (position.step >= 0 && position.step <= total) return position.step;
      return fail("step " + std::to_string(position.step) + " is past the end of the run (" + std::to_string(total) +
                  " steps)");
    case TourPosition::Kind::kEnd:
      return total;
    case TourPosition::Kind::kFirstHazard:
      if (auto step = located([](const TraceEvent& e) { return e.kind == EventKind::kHazard; })) return step;
      return fail("the run reports no hazard");
    case TourPosition::Kind::kBarrierRelease:
    case TourPosition::Kind::kPhaseStart:
      break;
  }
  if (position.block.x < 0 || position.block.x >= g.grid_x || position.block.y < 0 || position.block.y >= g.grid_y) {
    return fail(block_name + " is not in the grid (" + std::to_string(g.grid_x) + "×" + std::to_string(g.grid_y) +
                " blocks)");
  }
  if (phase < 0 || phase >= g.phases) {
    return fail(block_name + " has no phase " + std::to_string(position.phase) + ": the lesson has " +
                std::to_string(g.phases));
  }
  if (position.kind == TourPosition::Kind::kPhaseStart) {
    if (auto step = located([&](const TraceEvent& e) {
          return e.thread >= 0 && e.block == block && e.phase == phase && e.op != Op::kStoreC;
        })) {
      return step;
    }
    return fail(block_name + " never starts phase " + std::to_string(position.phase));
  }
  if (auto step = located([&](const TraceEvent& e) {
        return e.kind == EventKind::kBarrierRelease && e.block == block && e.op == barrier && e.phase == phase;
      })) {
    return step;
  }
  return fail(block_name + "'s barrier " + std::to_string(position.barrier) + " never releases in phase " +
              std::to_string(position.phase) + " (it is " +
              SourceText(position.barrier == 2 ? impl_->lesson.barrier2 : impl_->lesson.barrier1) + ")");
}

std::optional<QueryValue> TourModel::Evaluate(const QueryCall& call, std::int64_t step, std::string* error) {
  const QuerySpec* spec = FindSpec(call.name);
  if (spec == nullptr) {
    if (error != nullptr) *error = "unknown query '" + call.name + "'";
    return std::nullopt;
  }
  const std::optional<LessonConfig> lesson = impl_->LessonOf(call, spec->info, error);
  if (!lesson) return std::nullopt;
  Arguments args(call, error);
  Asked asked{*lesson, MakeGeometry(*lesson), args, impl_->runs, impl_->simulation, step};
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

}  // namespace sim
