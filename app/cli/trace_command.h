// trace_command.h — `tilescope trace`: run a lesson on the model without a window and print
// the phase-by-phase walkthrough the 4×4 walkthrough exercise asks for, every figure
// counted by the model, or write the run's figures as JSON (--json FILE, or - for standard output). With no flags it
// runs the default lesson. A bad value gets one line naming it and the limit, exit status 2.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

void AddTraceCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
