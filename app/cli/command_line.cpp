#include "app/cli/command_line.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include "app/cli/asset_paths.h"
#include "app/cli/kernel_flags.h"
#include "app/cli/number_option.h"
#include "sim/lesson/teaching.h"
#include "app/cli/subcommands.h"

namespace cli {
namespace {

constexpr int kMaxFrames = 100000000;
constexpr int kMaxSoakSeconds = 7 * 24 * 3600;  // a week: a soak longer than that is a typo
constexpr int kMaxDumpPeriodSeconds = 24 * 3600;  // a day: a dump rarer than that is a typo

void AddGuiOptions(CLI::App& app, GuiOptions& options, KernelFlags& kernel_flags) {
  CLI::Option* lesson = app.add_option("--lesson", options.lesson,
                                       "Lesson to open: 'default', or a lesson JSON file (default: the last one used)");
  app.add_option("--kernel", options.kernel,
                 "A CUDA file of your own (.cu) to open as the lesson: its __global__ kernel steps on the model, "
                 "watched for saves (run as `tilescope check` runs its first size)")
      ->excludes(lesson);
  AddKernelNameFlag(app, kernel_flags, "--kernel-name",
                    "With --kernel: which __global__ function of the file, where it has several (check's --kernel NAME; "
                    "default: the first, and Controls picks another)");
  AddKernelFlags(app, kernel_flags,
                 "With --kernel: the size the kernel runs at, N or MxNxK (the first if several; default: a "
                 "multiple of the block)");
  app.add_option("--screenshot", options.screenshot,
                 "Save the window as PNG once --frames are drawn and background work is done, then exit");
  app.add_option("--frames", options.frames, "Render at least N frames, then exit")->check(WholeNumberIn(0, kMaxFrames));
  CLI::Option* actions = app.add_option("--actions", options.actions,
                                        "Script of named actions, ';'-separated (e.g. \"step; step; toggle-barrier1; wait 10\")");
  CLI::Option* dump_state =
      app.add_option("--dump-state", options.dump_state, "Write what the panels show as JSON on exit");
  app.add_option("--dump-state-every", options.dump_state_every,
                 "Also rewrite the --dump-state file every S seconds while the window runs")
      ->check(WholeNumberIn(1, kMaxDumpPeriodSeconds))
      ->needs(dump_state);
  app.add_option("--bench-frames", options.bench_frames,
                 "Step once per frame for N frames with vsync off and print frames per second")
      ->check(WholeNumberIn(1, kMaxFrames));
  app.add_option("--soak", options.soak_seconds,
                 "Repeat the --actions script for S seconds, print memory at the end of each pass, then exit")
      ->check(WholeNumberIn(1, kMaxSoakSeconds))
      ->needs(actions);
  app.add_option("--width", options.width, "Window width in pixels")
      ->check(WholeNumberIn(kMinWindowWidth, kMaxWindowSide));
  app.add_option("--height", options.height, "Window height in pixels")
      ->check(WholeNumberIn(kMinWindowHeight, kMaxWindowSide));
  app.add_flag("--presentation", options.presentation, "Start in presentation mode (large fonts, high contrast)");
  app.add_option("--content-scale", options.content_scale,
                 "Scale fonts and layout by S as on a high-DPI screen (default: the scale GLFW reports)")
      ->check(DecimalIn(0.5, 4.0));
  // Whole numbers only, named in the message: "--stop 0" or "--stop two" is one clear line.
  // Past the end is known once the lesson is open (the GUI says so and exits 2).
  app.add_option("--stop", options.stop, "Open the lesson's tour at stop N (1-based)")
      ->check(WholeNumberFrom(1, std::numeric_limits<int>::max(), "1 (the first stop) to the tour's last"));
  app.add_option("--step", options.step, "Open the lesson at step S of its run (0 is the start)")
      ->check(WholeNumberFrom(0, std::numeric_limits<long long>::max(), sim::kStepRangeWords));
}

// The kernel flags belong to --kernel: without it they would be silently ignored.
std::string ReadGuiKernelFlags(const KernelFlags& flags, GuiOptions& options) {
  if (options.kernel.empty()) return AnyKernelFlagGiven(flags) ? "--kernel-name, --block, --grid, --sizes and --define need --kernel FILE.cu" : "";
  return ReadKernelFlags(flags, options.kernel_options);
}

// "tilescope trace: --json was given an empty value ..." for the first option of `app` or its
// subcommands that was given "" (`--json ""`, `--sizes=`), or "" when none was. Without this
// an empty value reads as "not given" wherever a command tests for one (trace would print
// instead of writing a file), or is refused by a check that cannot say what was meant.
std::string EmptyValueMessage(const CLI::App& app, const std::string& command) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_type_size_max() == 0) continue;  // a flag: it takes no value
    for (const std::string& value : option->results()) {
      if (value.empty()) {
        return command + ": " + option->get_name(option->get_positional()) + " was given an empty value (see " +
               command + " --help)";
      }
    }
  }
  for (const CLI::App* subcommand : app.get_subcommands({})) {
    std::string message = EmptyValueMessage(*subcommand, command + " " + subcommand->get_name());
    if (!message.empty()) return message;
  }
  return "";
}

// CLI11 prints two lines for an error; we print one, naming what was wrong. An empty value is
// named as such even where a check refused it first ("--case: Value  not in range").
int ReportParseError(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(error);
  const std::string empty = EmptyValueMessage(app, app.get_name());
  if (!empty.empty()) {
    std::cerr << empty << std::endl;
  } else {
    std::cerr << "tilescope: " << error.what() << " (see tilescope --help)" << std::endl;
  }
  return kExitUsage;
}

// Output into a full disk or /dev/full fails in a buffer, unseen, unless someone looks: the
// run would exit 0 with a truncated result. So every run ends by flushing standard output
// and failing (exit 1, or the run's own failure) when any write to it failed.
int CheckStandardOutput(int status) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && !std::cout.fail()) return status;
  // A failed write earlier may have left nothing to flush now, and with it no errno to name.
  std::cerr << "tilescope: cannot write to standard output"
            << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << "; the output is incomplete"
            << std::endl;
  return status == 0 ? 1 : status;
}

int Run(int argc, char** argv, const GuiLauncher& launch_gui) {
  CLI::App app{"TileScope: step through shared-memory tiled matrix multiplication on an exact model of the "
               "CUDA kernel, and run the real kernels on the GPU.\nWith no subcommand, opens the window.",
               "tilescope"};
  app.set_version_flag("--version", VersionReport);
  app.require_subcommand(0, 1);
  GuiOptions gui_options;
  KernelFlags kernel_flags;
  AddGuiOptions(app, gui_options, kernel_flags);
  std::function<int()> action;
  AddSubcommands(app, action, launch_gui, gui_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return ReportParseError(app, error);
  }
  const std::string empty = EmptyValueMessage(app, app.get_name());
  if (!empty.empty()) {
    std::cerr << empty << std::endl;
    return kExitUsage;
  }
  if (action) return action();
  if (std::string problem = ReadGuiKernelFlags(kernel_flags, gui_options); !problem.empty()) {
    std::cerr << "tilescope: " << problem << std::endl;
    return kExitUsage;
  }
  return launch_gui(gui_options);
}

}  // namespace

int RunCommandLine(int argc, char** argv, const GuiLauncher& launch_gui) {
  return CheckStandardOutput(Run(argc, argv, launch_gui));
}

}  // namespace cli
