#include "app/cli/trace_print.h"

#include <algorithm>
#include <cmath>

#include "kernels/bench.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/narration.h"
#include "sim/lesson/plain_source.h"
#include "sim/lesson/teaching.h"
#include "sim/model/kernel_source.h"

namespace cli {
namespace {

// Beyond these, tiles, C and the expansion of C[0][0] would flood a terminal.
constexpr int kMaxPrintedTileSide = 8;
constexpr int kMaxPrintedCSide = 16;
constexpr std::size_t kMaxPrintedTerms = 16;
constexpr std::size_t kMaxPrintedHazards = 5;
constexpr std::size_t kMaxPrintedOutOfBounds = 3;
// Matrices of up to this many cells print on one line, as the 4×4 walkthrough exercise writes them.
constexpr int kMaxInlineCells = 16;

std::string Pair(int x, int y) { return sim::Coordinates(x, y); }

std::string Range(const sim::IndexRange& range) {
  if (range.empty()) return "none";
  if (range.first == range.last) return std::to_string(range.first);
  return std::to_string(range.first) + ".." + std::to_string(range.last);
}

std::string Fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Cells where `shown` is 0 print as "·".
std::string MatrixText(const std::vector<float>& values, int rows, int cols, const std::string& indent,
                       const std::vector<std::uint8_t>* shown = nullptr, int max_inline_cells = kMaxInlineCells) {
  auto cell = [&](int r, int c) {
    const std::size_t i = static_cast<std::size_t>(r) * cols + c;
    return shown != nullptr && (*shown)[i] == 0 ? std::string("·") : sim::FormatValue(values[i]);
  };
  std::string text;
  if (rows * cols <= max_inline_cells) {
    text = "[";
    for (int r = 0; r < rows; ++r) {
      text += r == 0 ? "[" : ",[";
      for (int c = 0; c < cols; ++c) text += (c == 0 ? "" : ",") + cell(r, c);
      text += "]";
    }
    return text + "]";
  }
  std::size_t width = 1;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) width = std::max(width, cell(r, c).size());
  }
  for (int r = 0; r < rows; ++r) {
    text += "\n" + indent;
    for (int c = 0; c < cols; ++c) {
      const std::string value = cell(r, c);
      text += std::string(width + 1 - std::min(width, value.size()), ' ') + value;
    }
  }
  return text;
}

std::string FillText(const sim::MatrixFill& fill, int rows, int cols) {
  switch (fill.kind) {
    case sim::FillKind::kSequence:
      return "1.." + std::to_string(static_cast<long long>(rows) * cols) + " row-major";
    case sim::FillKind::kRandom:
      return "seeded random in [-1, 1), seed " + std::to_string(fill.seed);
    case sim::FillKind::kIdentity:
      return "identity";
    case sim::FillKind::kExplicit:
      return "given values";
  }
  return "?";
}

std::string TileText(const sim::KernelConfig& config) {
  const sim::TileShape tiles = config.Tiles();
  if (config.kernel == sim::KernelKind::kTiledRect) {
    return "TM = " + std::to_string(tiles.tm) + ", TN = " + std::to_string(tiles.tn) +
           ", TK = " + std::to_string(tiles.tk);
  }
  return (config.kernel == sim::KernelKind::kNaive ? "blocks of " : "TILE = ") +
         (config.kernel == sim::KernelKind::kNaive ? std::to_string(config.tile) + "×" + std::to_string(config.tile)
                                                   : std::to_string(config.tile));
}

std::string KernelText(const sim::KernelConfig& config) {
  const std::string layout =
      config.bs_layout == sim::SharedLayout::kTransposed ? ", Bs stored transposed (Bs[tx][k]: bank conflicts)" : "";
  return std::string(sim::Name(config.kernel)) + " (kernels/" + std::string(sim::SourceFor(config.kernel).file_name) +
         "), " + TileText(config) + layout;
}

void PrintHeader(std::FILE* out, const TraceReport& report) {
  const sim::KernelConfig& config = report.simulation->config();
  const sim::Geometry& g = report.simulation->geometry();
  std::fprintf(out, "=== TileScope trace: %s ===\n", report.source.c_str());
  std::fprintf(out, "C (%d×%d) = A (%d×%d) · B (%d×%d), kernel %s\n", config.m, config.n, config.m, config.k, config.k,
               config.n, KernelText(config).c_str());
  std::fprintf(out, "A: %s; B: %s\n", FillText(config.fill_a, config.m, config.k).c_str(),
               FillText(config.fill_b, config.k, config.n).c_str());
  std::fprintf(out, "Grid %d×%d blocks of %d×%d threads: each block is %s\n", g.grid_x, g.grid_y, g.tn, g.tm,
               sim::WarpsOfBlock(g).c_str());
  if (!g.naive) {
    std::fprintf(out, "Barriers: 1st %s, 2nd %s; ", sim::SourceText(config.barrier1), sim::SourceText(config.barrier2));
  }
  const char* tile_count =
      config.tile_count == sim::TileCount::kCeil ? "ceil(K/T) tiles; " : "K/T tiles rounded down; ";
  std::fprintf(out, "bounds guard %s; %s%s, seed %llu\n", config.guard ? "on" : "off", g.naive ? "" : tile_count,
               sim::SchedulerSummary(config.scheduler), static_cast<unsigned long long>(config.seed));
  if (g.naive) {
    std::fprintf(out,
                 "The naive kernel has no tiles: each thread reads its row of A and column of B from global memory\n");
  } else {
    std::fprintf(out, "Number of tile phases: %d\n", g.phases);
  }
}

// "C[0..1][2..3]": the part of C a block computes (clipped to C).
std::string BlockOfC(const sim::Geometry& g, int block) {
  const int bx = block % g.grid_x;
  const int by = block / g.grid_x;
  const sim::IndexRange rows{by * g.tm, std::min(g.m, (by + 1) * g.tm) - 1};
  const sim::IndexRange cols{bx * g.tn, std::min(g.n, (bx + 1) * g.tn) - 1};
  return "C[" + Range(rows) + "][" + Range(cols) + "]";
}

// Threads whose (row, col) lies inside C: their sums become elements of C.
std::vector<std::uint8_t> InsideC(const sim::Geometry& g, int block, const std::vector<std::uint8_t>& summed) {
  std::vector<std::uint8_t> inside(summed.size(), 0);
  const int bx = block % g.grid_x;
  const int by = block / g.grid_x;
  for (int ty = 0; ty < g.tm; ++ty) {
    for (int tx = 0; tx < g.tn; ++tx) {
      const std::size_t i = static_cast<std::size_t>(ty) * g.tn + tx;
      inside[i] = summed[i] != 0 && by * g.tm + ty < g.m && bx * g.tn + tx < g.n;
    }
  }
  return inside;
}

void PrintBlockPhase(std::FILE* out, const sim::Geometry& g, int block, const sim::PhaseRecord& phase) {
  std::fprintf(out, "  block %s, %s: reads A[%s][%s] and B[%s][%s]: %s of A, %llu of B",
               Pair(block % g.grid_x, block / g.grid_x).c_str(), BlockOfC(g, block).c_str(),
               Range(phase.a_rows).c_str(), Range(phase.a_cols).c_str(), Range(phase.b_rows).c_str(),
               Range(phase.b_cols).c_str(), sim::CountOf(phase.reads_a, "global read", "global reads").c_str(),
               static_cast<unsigned long long>(phase.reads_b));
  if (phase.select_zero > 0) {
    std::fprintf(out, ", %llu past the edge (zero padding, no read)",
                 static_cast<unsigned long long>(phase.select_zero));
  }
  std::fprintf(out, "\n");
  const bool small = std::max({g.tm, g.tn, g.tk}) <= kMaxPrintedTileSide;
  if (!small) return;
  const std::string indent = "      ";
  if (!g.naive) {
    std::fprintf(out, "    As = %s\n", MatrixText(phase.as, g.tm, g.tk, indent).c_str());
    std::fprintf(out, "    Bs = %s\n", MatrixText(phase.bs, g.tk, g.tn, indent).c_str());
  }
  const std::vector<std::uint8_t> inside = InsideC(g, block, phase.summed);
  std::fprintf(out, "    %s = %s\n", g.naive ? "sums" : "partial sums",
               MatrixText(phase.sums, g.tm, g.tn, indent, &inside).c_str());
}

void PrintPhases(std::FILE* out, const TraceReport& report) {
  const sim::Geometry& g = report.simulation->geometry();
  const std::vector<sim::BlockRecord>& blocks = report.walkthrough->blocks();
  const sim::Counters& counted = report.simulation->counters();
  for (int t = 0; t < g.phases; ++t) {
    const sim::PhaseCounters& totals = counted.phases[static_cast<std::size_t>(t)];
    if (g.naive) {
      std::fprintf(out, "\nAll K = %d products, straight from global memory: %llu reads of A, %llu of B\n", g.k,
                   static_cast<unsigned long long>(totals.global_reads_a),
                   static_cast<unsigned long long>(totals.global_reads_b));
    } else {
      std::fprintf(out, "\nPhase %d (t=%d): %llu global reads of A and %llu of B in all blocks\n", t + 1, t,
                   static_cast<unsigned long long>(totals.global_reads_a),
                   static_cast<unsigned long long>(totals.global_reads_b));
    }
    for (const sim::BlockRecord& block : blocks)
      PrintBlockPhase(out, g, block.block, block.phases[static_cast<std::size_t>(t)]);
  }
  if (std::max({g.tm, g.tn, g.tk}) > kMaxPrintedTileSide && !blocks.empty()) {
    std::fprintf(out, "  (tiles and partial sums are printed for tiles of up to %d×%d)\n", kMaxPrintedTileSide,
                 kMaxPrintedTileSide);
  }
  if (static_cast<int>(blocks.size()) < g.blocks) {
    std::fprintf(out, "  ... %d more blocks not shown (--blocks N shows more)\n",
                 g.blocks - static_cast<int>(blocks.size()));
  }
}

// "C[0][0] = (1×1 + 2×5) + (3×9 + 4×13) = 90, the sum 11 after phase 1": its products as they ran.
void PrintFirstElement(std::FILE* out, const TraceReport& report) {
  const std::vector<sim::ProductTerm>& terms = report.walkthrough->first_element_terms();
  if (terms.empty() || terms.size() > kMaxPrintedTerms) return;
  const bool grouped = !report.simulation->geometry().naive && terms.front().phase != terms.back().phase;
  std::string expansion;
  std::string partials;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const bool opens = i == 0 || terms[i].phase != terms[i - 1].phase;
    const bool closes = i + 1 == terms.size() || terms[i + 1].phase != terms[i].phase;
    expansion += (i == 0 ? "" : " + ") + std::string(grouped && opens ? "(" : "") + sim::FormatValue(terms[i].a) + "×" +
                 sim::FormatValue(terms[i].b) + (grouped && closes ? ")" : "");
    if (grouped && closes) {
      partials += (partials.empty() ? "" : ", ") + sim::FormatValue(terms[i].sum) + " after phase " +
                  std::to_string(terms[i].phase + 1);
    }
  }
  std::fprintf(out, "\nC[0][0] = %s = %s", expansion.c_str(), sim::FormatValue(terms.back().sum).c_str());
  std::fprintf(out, grouped ? " (the sum: %s)\n" : "\n", partials.c_str());
}

void PrintC(std::FILE* out, const sim::Simulation& simulation) {
  const sim::KernelConfig& config = simulation.config();
  if (std::max(config.m, config.n) > kMaxPrintedCSide) {
    std::fprintf(out, "Final C is %d×%d: not printed (--json FILE writes it)\n", config.m, config.n);
    return;
  }
  std::fprintf(out, "Final C =%s\n", MatrixText(simulation.c(), config.m, config.n, "  ", nullptr, 0).c_str());
  if (simulation.counters().hazards_witnessed > 0) {
    std::fprintf(out,
                 "(? is the poison a never-written shared cell holds, a NaN: a thread read the cell too early, and "
                 "every sum that used it shows ?)\n");
  }
}

std::string ReadsLine(std::uint64_t reads, const sim::KernelConfig& config) {
  const double per_element = double(reads) / (double(config.m) * double(config.n));
  return std::to_string(reads) + " total, " + Fixed(per_element, per_element == std::floor(per_element) ? 0 : 2) +
         " per element of C";
}

void PrintReads(std::FILE* out, const TraceReport& report) {
  const sim::KernelConfig& config = report.simulation->config();
  const sim::Counters& counted = report.simulation->counters();
  std::fprintf(out, "\nGlobal reads, counted by the model:\n");
  if (!report.comparison) {
    std::fprintf(out, "  %s: %s (A %llu, B %llu)\n", KernelText(config).c_str(),
                 ReadsLine(counted.GlobalReads(), config).c_str(),
                 static_cast<unsigned long long>(counted.global_reads_a),
                 static_cast<unsigned long long>(counted.global_reads_b));
    std::fprintf(out, "  no comparison: %s\n", report.comparison_error.c_str());
    return;
  }
  const bool naive = config.kernel == sim::KernelKind::kNaive;
  const std::uint64_t naive_reads = naive ? counted.GlobalReads() : report.comparison->global_reads;
  const std::uint64_t tiled_reads = naive ? report.comparison->global_reads : counted.GlobalReads();
  const sim::KernelConfig& tiled = naive ? report.comparison->kernel : config;
  std::fprintf(out, "  naive kernel (kernels/01_naive.cu%s): %s\n", naive ? "" : ", also run on the model",
               ReadsLine(naive_reads, config).c_str());
  std::fprintf(out, "  %s%s: %s", KernelText(tiled).c_str(), naive ? ", also run on the model" : "",
               ReadsLine(tiled_reads, config).c_str());
  if (!naive) {
    std::fprintf(out, " (A %llu, B %llu)", static_cast<unsigned long long>(counted.global_reads_a),
                 static_cast<unsigned long long>(counted.global_reads_b));
  }
  std::fprintf(out, "\n  saving: %s× fewer global reads than the naive kernel\n",
               Fixed(tiled_reads == 0 ? 0.0 : double(naive_reads) / double(tiled_reads), 2).c_str());
}

void PrintCounters(std::FILE* out, const sim::Simulation& simulation) {
  const sim::Counters& c = simulation.counters();
  std::fprintf(out,
               "Also counted: %llu global writes, %llu shared writes, %llu shared reads, %llu barrier arrivals, "
               "%llu barrier stall steps, %llu global 32-byte sectors, %llu bank conflicts, %llu fmaf executed "
               "(zero padding included), %llu steps, %llu thread-instructions\n",
               static_cast<unsigned long long>(c.global_writes), static_cast<unsigned long long>(c.shared_writes),
               static_cast<unsigned long long>(c.shared_reads), static_cast<unsigned long long>(c.barrier_arrivals),
               static_cast<unsigned long long>(c.barrier_stall_steps),
               static_cast<unsigned long long>(c.global_sectors), static_cast<unsigned long long>(c.bank_conflicts),
               static_cast<unsigned long long>(c.fma_executed), static_cast<unsigned long long>(c.steps),
               static_cast<unsigned long long>(c.thread_instructions));
}

// A line of the kernel as the handouts write it, its indentation left out: "As[ty][tx] = a;".
std::string StatementAt(const sim::PlainSource& source, int line) {
  const std::string& text = source.Line(line);
  const std::size_t first = text.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : text.substr(first);
}

std::string SideText(const sim::Simulation& simulation, const sim::PlainSource& source, const sim::HazardSide& side) {
  const sim::Geometry& g = simulation.geometry();
  const int line = sim::LineOf(simulation.config().kernel, side.op);
  return "thread " + Pair(side.thread % g.tn, side.thread / g.tn) + (side.write ? " wrote" : " read") + " it at line " +
         std::to_string(line) + " (" + StatementAt(source, line) + ")";
}

void PrintHazard(std::FILE* out, const sim::Simulation& simulation, const sim::PlainSource& source,
                 const sim::Hazard& hazard) {
  const sim::Geometry& g = simulation.geometry();
  std::fprintf(out, "  %s %s, block %s, %s[%d][%d], phase %d: %s, then %s", sim::Name(hazard.kind),
               sim::Name(hazard.severity), Pair(hazard.block % g.grid_x, hazard.block / g.grid_x).c_str(),
               hazard.tile == sim::TileId::kAs ? "As" : "Bs", hazard.row, hazard.col, hazard.phase + 1,
               SideText(simulation, source, hazard.first).c_str(), SideText(simulation, source, hazard.second).c_str());
  if (hazard.kind != sim::HazardKind::kWaw && !hazard.observed_in_program_order) {
    std::fprintf(out, ": the reader got %s, the barrier would have given %s",
                 sim::FormatValue(hazard.value_seen).c_str(), sim::FormatValue(hazard.value_expected).c_str());
  }
  std::fprintf(out, "\n");
}

void PrintHazards(std::FILE* out, const sim::Simulation& simulation) {
  const sim::Counters& c = simulation.counters();
  if (c.hazards == 0) return;
  std::fprintf(out,
               "\nShared-memory hazards: %llu (RAW %llu, WAR %llu, WAW %llu; %llu warnings within a warp, %llu errors "
               "across warps); %llu ran in the wrong order, %llu of them with a different value\n",
               static_cast<unsigned long long>(c.hazards), static_cast<unsigned long long>(c.hazards_raw),
               static_cast<unsigned long long>(c.hazards_war), static_cast<unsigned long long>(c.hazards_waw),
               static_cast<unsigned long long>(c.hazard_warnings), static_cast<unsigned long long>(c.hazard_errors),
               static_cast<unsigned long long>(c.hazards_witnessed),
               static_cast<unsigned long long>(c.hazards_corrupting));
  if (simulation.geometry().warps_per_block == 1) {
    std::fprintf(out, "  %s\n", sim::OneWarpRaceNote(simulation.config().scheduler));
  }
  const std::vector<sim::Hazard>& hazards = simulation.hazards();
  const sim::PlainSource source = sim::PlainSourceFor(simulation.config());
  for (std::size_t i = 0; i < std::min(hazards.size(), kMaxPrintedHazards); ++i)
    PrintHazard(out, simulation, source, hazards[i]);
  if (c.hazards > kMaxPrintedHazards) {
    std::fprintf(out, "  ... %zu of %llu shown (--json FILE lists %zu)\n", std::min(hazards.size(), kMaxPrintedHazards),
                 static_cast<unsigned long long>(c.hazards), hazards.size());
  }
}

void PrintOutOfBounds(std::FILE* out, const sim::Simulation& simulation) {
  const std::uint64_t count = simulation.counters().out_of_bounds;
  if (count == 0) return;
  const sim::Geometry& g = simulation.geometry();
  std::fprintf(
      out, "\nOut-of-bounds global accesses (the guard is off): %llu, like compute-sanitizer's invalid global reads\n",
      static_cast<unsigned long long>(count));
  const std::vector<sim::OutOfBoundsAccess>& accesses = simulation.out_of_bounds();
  for (std::size_t i = 0; i < std::min(accesses.size(), kMaxPrintedOutOfBounds); ++i) {
    const sim::OutOfBoundsAccess& access = accesses[i];
    const char* matrix = access.matrix == sim::MatrixId::kA ? "A" : (access.matrix == sim::MatrixId::kB ? "B" : "C");
    std::fprintf(
        out, "  thread %s of block %s %s %s[%d][%d]%s\n", Pair(access.thread % g.tn, access.thread / g.tn).c_str(),
        Pair(access.block % g.grid_x, access.block / g.grid_x).c_str(), access.write ? "writes (dropped)" : "reads",
        matrix, access.row, access.col,
        access.write ? ""
                     : (access.inside_allocation
                            ? ": another element of " + std::string(matrix) + ", " + sim::FormatValue(access.value)
                            : std::string(": past the allocation, NaN"))
                           .c_str());
  }
}

double MaxAbs(const std::vector<float>& values) {
  double largest = 0.0;
  for (float value : values) largest = std::max(largest, std::fabs(double(value)));
  return largest;
}

void PrintFileCheck(std::FILE* out, const TraceReport& report) {
  const std::optional<FileCheck> check = CheckAgainstFile(report);
  if (!check) return;
  std::fprintf(out, "Against the file's expected C: max |error| %.3g, tolerance %.3g: %s\n", check->worst,
               check->tolerance, check->passed() ? "pass" : "FAIL");
}

}  // namespace

std::optional<FileCheck> CheckAgainstFile(const TraceReport& report) {
  if (report.expected_c.empty()) return std::nullopt;
  const sim::Simulation& simulation = *report.simulation;
  FileCheck check;
  check.tolerance = kernels::Tolerance(kernels::Precision::kFp32, simulation.config().k, MaxAbs(simulation.a()),
                                       MaxAbs(simulation.b()));
  for (std::size_t i = 0; i < report.expected_c.size(); ++i) {
    const double error = std::fabs(double(simulation.c()[i]) - double(report.expected_c[i]));
    check.worst = std::isnan(error) || std::isnan(check.worst) ? NAN : std::max(check.worst, error);
  }
  return check;
}

void PrintTrace(std::FILE* out, const TraceReport& report) {
  const sim::Simulation& simulation = *report.simulation;
  PrintHeader(out, report);
  PrintPhases(out, report);
  PrintFirstElement(out, report);
  PrintC(out, simulation);
  PrintReads(out, report);
  PrintCounters(out, simulation);
  PrintHazards(out, simulation);
  PrintOutOfBounds(out, simulation);
  std::fprintf(out, "\nResult: %s\n",
               sim::Describe(report.outcome, simulation.config().m * simulation.config().n).c_str());
  PrintFileCheck(out, report);
}

}  // namespace cli
