// verify_command.h — `tilescope verify FILE`: check the test-vector harness's files on the CPU
// model (always) and on the GPU kernel (when there is a device).
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace cli {

// Exit status of a file that is truncated or inconsistent (the cases before it are checked).
constexpr int kExitBadVectorFile = 2;

void AddVerifyCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
