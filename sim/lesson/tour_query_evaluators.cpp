#include "sim/lesson/tour_query_evaluators.h"

#include <algorithm>
#include <array>
#include <utility>

#include "sim/model/bank_conflicts.h"

namespace sim::queries {
namespace {

constexpr const char* kDefaultGpu = "h100";

// The run's products, for queries that follow one thread's sum.
const WholeRun* Recorded(Asked& q) {
  const WholeRun& run = q.Run();
  if (run.recorded) return &run;
  q.args.Fail("needs the run's every product, which a lesson this large does not keep");
  return nullptr;
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

}  // namespace

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

std::optional<QueryValue> CValue(Asked& q) {
  const std::optional<int> row = q.args.Index("row", std::nullopt, q.g.m);
  const std::optional<int> col = q.args.Index("col", std::nullopt, q.g.n);
  if (!row || !col) return std::nullopt;
  return Number(q.Run().c[static_cast<std::size_t>(*row) * q.g.n + *col]);
}

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

}  // namespace sim::queries
