// occupancy_command.h — `tilescope occupancy`: how many blocks of a lesson's kernel fit on
// one SM of each classroom GPU (and the GPU in this machine), limit by limit, with the
// arithmetic (sim/model/occupancy.h). Takes the lesson flags of `trace` (--tile 16, --kernel rect
// --tm 32 ...) and --gpu; --json writes the same figures as JSON.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

void AddOccupancyCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
