#include "app/cli/occupancy_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/bench_command.h"
#include "app/cli/command_line.h"
#include "app/cli/trace_lesson.h"
#include "kernels/occupancy.h"
#include "sim/model/occupancy.h"

namespace cli {
namespace {


struct OccupancyOptions {
  TraceFlags flags;
  std::string gpu = "all";
  bool json = false;
};

// One GPU's figures, and where its registers came from.
struct Row {
  sim::GpuLimits gpu;
  sim::Occupancy occupancy;
  std::string registers_from;
};

std::string GpuChoices() { return sim::ClassroomGpuKeys() + ", present or all"; }

// The rows --gpu asks for, or the one-line reason there are none.
std::string CollectRows(const std::string& wanted, const sim::KernelChoice& choice, std::vector<Row>& rows,
                        std::string& no_present) {
  for (const sim::GpuLimits& gpu : sim::ClassroomGpus()) {
    if (wanted == "all" || wanted == gpu.key) rows.push_back({gpu, sim::OccupancyOf(choice, gpu), "ptxas at build time"});
  }
  if (wanted == "all" || wanted == "present") {
    std::string reason;
    if (auto present = kernels::OccupancyOnPresentGpu(choice, reason)) {
      rows.push_back({present->gpu, present->occupancy, present->registers_from});
    } else {
      no_present = reason;
    }
  }
  if (rows.empty() && wanted != "present") return "--gpu " + wanted + " is not one of " + GpuChoices();
  return "";
}

void PrintRow(const Row& row) {
  const sim::Occupancy& o = row.occupancy;
  std::printf("\n%s: ", row.gpu.name.c_str());
  if (!o.cannot_launch.empty()) {
    std::printf("no block fits: %s\n", o.cannot_launch.c_str());
  } else {
    std::printf("%d blocks per SM = %d threads in %d of %d warp slots (%.0f%%), limited by %s\n", o.blocks_per_sm,
                o.blocks_per_sm * o.demand.threads, o.active_warps, row.gpu.max_warps_per_sm, 100.0 * o.warp_occupancy,
                sim::LimitingText(o).c_str());
  }
  for (const sim::ResourceLimit& limit : o.limits) {
    const std::string blocks = limit.known ? std::to_string(limit.blocks) : "-";
    std::printf("  %-14s %5s  %s\n", sim::Name(limit.resource), blocks.c_str(), limit.working.c_str());
  }
  if (o.demand.registers_per_thread > 0) {
    std::printf("  registers per thread: %d (%s)\n", o.demand.registers_per_thread, row.registers_from.c_str());
  }
}

int Run(const OccupancyOptions& options) {
  TraceLessonResult built = BuildTraceLesson(options.flags);
  if (!built.lesson) {
    std::fprintf(stderr, "tilescope occupancy: %s\n", built.error.c_str());
    return kExitUsage;
  }
  const sim::KernelChoice choice = sim::KernelChoice::Of(built.lesson->config);
  std::vector<Row> rows;
  std::string no_present;
  if (std::string error = CollectRows(options.gpu, choice, rows, no_present); !error.empty()) {
    std::fprintf(stderr, "tilescope occupancy: %s\n", error.c_str());
    return kExitUsage;
  }
  if (rows.empty()) {
    std::fprintf(stderr, "tilescope occupancy: no GPU here: %s\n", no_present.c_str());
    return kExitNoGpu;
  }
  const sim::Occupancy& first = rows.front().occupancy;
  if (options.json) {
    nlohmann::json out;
    out["kernel"] = sim::Describe(choice);
    out["warp_fill"] = sim::WarpFill(first);
    out["gpus"] = nlohmann::json::array();
    for (const Row& row : rows) {
      nlohmann::json one = sim::OccupancyJson(row.occupancy, row.gpu);
      one["registers_from"] = row.registers_from;
      out["gpus"].push_back(one);
    }
    if (!no_present.empty()) out["present_gpu"] = no_present;
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf("%s: %d threads per block = %s; %d B of shared memory per block\n", sim::Describe(choice).c_str(),
              first.demand.threads, sim::WarpFill(first).c_str(), first.demand.shared_bytes);
  std::printf("(a block holds whole warps, so warps, not threads, fill an SM; 1024 threads is the limit of one "
              "block, not of an SM)\n");
  for (const Row& row : rows) PrintRow(row);
  if (!no_present.empty()) std::printf("\nno present GPU: %s\n", no_present.c_str());
  std::printf("\nlimits: CUDA C++ Programming Guide, technical specifications per compute capability; registers: %s\n",
              sim::RecordedResourcesSource().c_str());
  return 0;
}

}  // namespace

void AddOccupancyCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<OccupancyOptions>();
  CLI::App* command = app.add_subcommand(
      "occupancy",
      "How many blocks of a lesson's kernel fit on one SM, limit by limit (threads, warps, blocks, registers, "
      "shared memory), on the classroom GPUs and the GPU here (no flags: the default lesson, TILE 2)");
  AddLessonFlags(*command, options->flags);
  command->add_option("--gpu", options->gpu, "Which GPU: " + GpuChoices() + " (default all)");
  command->add_flag("--json", options->json, "Print the figures as JSON");
  command->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
