// bench_command.h — `tilescope bench`: time the real kernels on the GPU against cuBLAS
// (or, with --race, count what removing a barrier does to C), printing rows as they come.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace cli {

// Exit status when there is no GPU to run on (built without CUDA, no driver, no device).
constexpr int kExitNoGpu = 3;

void AddBenchCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
