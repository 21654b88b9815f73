#include "sim/lesson/trace_summary.h"

#include <string>

#include "sim/lesson/formulas.h"
#include "sim/model/kernel_source.h"
#include "sim/lesson/lesson_file.h"

namespace sim {
namespace {

using nlohmann::json;

json Coordinates(int x, int y) { return json::array({x, y}); }

json BlockCoordinates(const sim::Geometry& g, int block) { return Coordinates(block % g.grid_x, block / g.grid_x); }

json ThreadCoordinates(const sim::Geometry& g, int index_in_block) {
  return Coordinates(index_in_block % g.tn, index_in_block / g.tn);
}

json SideJson(const sim::Geometry& g, sim::KernelKind kernel, const sim::HazardSide& side) {
  return {{"thread", ThreadCoordinates(g, side.thread)},
          {"warp", side.warp},
          {"instruction", sim::MarkerName(side.op)},
          {"line", sim::LineOf(kernel, side.op)},
          {"phase", side.phase},
          {"access", side.write ? "write" : "read"},
          {"value", side.value}};
}

json HazardJson(const sim::Geometry& g, sim::KernelKind kernel, const sim::Hazard& hazard) {
  const char* tile = hazard.tile == sim::TileId::kAs ? "As" : "Bs";
  return {
      {"step", hazard.step},
      {"kind", sim::Name(hazard.kind)},
      {"severity", sim::Name(hazard.severity)},
      {"block", BlockCoordinates(g, hazard.block)},
      {"cell", std::string(tile) + "[" + std::to_string(hazard.row) + "][" + std::to_string(hazard.col) + "]"},
      {"threads", json::array({ThreadCoordinates(g, hazard.first.thread), ThreadCoordinates(g, hazard.second.thread)})},
      {"lines", json::array({sim::LineOf(kernel, hazard.first.op), sim::LineOf(kernel, hazard.second.op)})},
      // first and second in the order the run observed them
      {"first", SideJson(g, kernel, hazard.first)},
      {"second", SideJson(g, kernel, hazard.second)},
      {"observed_order", hazard.observed_in_program_order ? "program order" : "reversed"},
      {"phase", hazard.phase},
      {"current_value", hazard.current_value},
      {"incoming_value", hazard.incoming_value},
      {"value_seen", hazard.value_seen},
      {"value_expected", hazard.value_expected}};
}

json OutOfBoundsJson(const sim::Geometry& g, const sim::OutOfBoundsAccess& access) {
  const char* matrix = access.matrix == sim::MatrixId::kA ? "A" : (access.matrix == sim::MatrixId::kB ? "B" : "C");
  return {{"step", access.step},
          {"block", BlockCoordinates(g, access.block)},
          {"thread", ThreadCoordinates(g, access.thread)},
          {"element", std::string(matrix) + "[" + std::to_string(access.row) + "][" + std::to_string(access.col) + "]"},
          {"access", access.write ? "write (dropped)" : "read"},
          {"inside_allocation", access.inside_allocation},
          {"value", access.value}};
}

json PhaseJson(const sim::PhaseCounters& phase) {
  return {{"global_reads_a", phase.global_reads_a},
          {"global_reads_b", phase.global_reads_b},
          {"shared_reads", phase.shared_reads},
          {"shared_writes", phase.shared_writes},
          {"barrier_arrivals", phase.barrier_arrivals},
          {"fma", phase.fma},
          {"global_sectors", phase.global_sectors},
          {"bank_conflicts", phase.bank_conflicts},
          {"hazards", phase.hazards}};
}

json MatrixJson(const std::vector<float>& values, int rows, int cols) {
  json matrix = json::array();
  for (int row = 0; row < rows; ++row) {
    const auto begin = values.begin() + static_cast<std::ptrdiff_t>(row) * cols;
    matrix.push_back(std::vector<float>(begin, begin + cols));
  }
  return matrix;
}

}  // namespace

json TraceSummaryJson(const sim::LessonConfig& config, const sim::Simulation& simulation,
                      const sim::RunOutcome& outcome, std::uint64_t naive_global_reads) {
  const sim::Geometry& g = simulation.geometry();
  const sim::Counters& counted = simulation.counters();
  const double elements_of_c = double(config.m) * double(config.n);
  json out;
  out["lesson"] = json::parse(sim::LessonToJson(config));
  out["steps"] = counted.steps;
  out["thread_instructions"] = counted.thread_instructions;
  out["global_reads_a"] = counted.global_reads_a;
  out["global_reads_b"] = counted.global_reads_b;
  out["global_reads_total"] = counted.GlobalReads();
  out["naive_global_reads"] = naive_global_reads;
  out["reads_per_element"] = double(counted.GlobalReads()) / elements_of_c;
  out["naive_reads_per_element"] = double(naive_global_reads) / elements_of_c;
  out["saving"] = ReadSaving(naive_global_reads, counted.GlobalReads());
  out["select_zero"] = counted.select_zero;
  out["global_writes"] = counted.global_writes;
  out["shared_reads"] = counted.shared_reads;
  out["shared_writes"] = counted.shared_writes;
  out["barrier_arrivals"] = counted.barrier_arrivals;
  out["barrier_releases"] = counted.barrier_releases;
  out["barrier_stall_steps"] = counted.barrier_stall_steps;
  out["global_sectors"] = counted.global_sectors;
  out["bank_conflicts"] = counted.bank_conflicts;
  out["phases"] = g.phases;
  out["blocks"] = g.blocks;
  out["threads_per_block"] = g.block_threads;
  out["warps_per_block"] = g.warps_per_block;
  out["fma_executed"] = counted.fma_executed;
  out["flops"] = sim::Expected(config).flops;
  out["per_phase"] = json::array();
  for (const sim::PhaseCounters& phase : counted.phases) out["per_phase"].push_back(PhaseJson(phase));
  out["hazard_count"] = counted.hazards;
  out["hazard_counts"] = {{"RAW", counted.hazards_raw},
                          {"WAR", counted.hazards_war},
                          {"WAW", counted.hazards_waw},
                          {"warning", counted.hazard_warnings},
                          {"error", counted.hazard_errors},
                          {"witnessed", counted.hazards_witnessed},
                          {"corrupting", counted.hazards_corrupting}};
  out["hazards"] = json::array();
  for (const sim::Hazard& hazard : simulation.hazards()) out["hazards"].push_back(HazardJson(g, config.kernel, hazard));
  out["out_of_bounds"] = counted.out_of_bounds;
  out["out_of_bounds_accesses"] = json::array();
  for (const sim::OutOfBoundsAccess& access : simulation.out_of_bounds()) {
    out["out_of_bounds_accesses"].push_back(OutOfBoundsJson(g, access));
  }
  out["wrong_elements"] = outcome.wrong_elements;
  out["verdict"] = sim::Describe(outcome, config.m * config.n);
  out["c"] = MatrixJson(simulation.c(), config.m, config.n);
  return out;
}

}  // namespace sim
