#include "app/cli/exercise_command.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>

#include "app/cli/command_line.h"
#include "app/cli/kernel_flags.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/lesson/exercise.h"
#include "sim/lesson/kernel_lesson.h"

namespace cli {
namespace {

constexpr int kExitNotYet = 1;
constexpr const char* kTiled = "tiled";

struct ExerciseOptions {
  std::string name;
  std::string dir;
  std::string check;
  bool force = false;
  bool open = false;
  bool check_given = false;
  KernelFlags kernel_flags;  // how the file runs, for --check and for the window's Guide alike
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "tilescope exercise: %s\n", message.c_str());
  return kExitUsage;
}

// Writes the starter into DIR; with --open a file already there is the student's work, opened
// as it is. The file to open, or the exit status of a failure.
std::variant<std::string, int> WriteStarter(const ExerciseOptions& o) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(o.dir, error) && !fs::is_directory(o.dir, error)) return Fail(o.dir + " is not a folder");
  fs::create_directories(o.dir, error);
  if (error) return Fail("cannot create the folder " + o.dir + ": " + error.message());
  const std::string path = (fs::path(o.dir) / sim::kTiledStarterFileName).string();
  if (fs::exists(fs::symlink_status(path, error)) && !o.force) {
    if (!o.open) return Fail(path + " exists: pass --force to overwrite it with the starter, or --open to open it");
    std::printf("opening %s as it is (--force writes the starter over it)\n", path.c_str());
    return path;
  }
  if (const std::optional<std::string> problem = sim::WriteFileAtomically(path, sim::TiledStarterSource())) return Fail(*problem);
  if (o.open) {
    std::printf("wrote %s: fill in its TODOs in your editor; the window's Guide checks each milestone as you save\n",
                path.c_str());
  } else {
    std::printf("wrote %s: fill in its TODOs, then open it in the window (its Guide checks each milestone as you save):\n"
                "  tilescope exercise tiled %s --open\nor check it here: tilescope exercise tiled --check %s\n",
                path.c_str(), o.dir.c_str(), path.c_str());
  }
  return path;
}

int CheckMilestones(const ExerciseOptions& o, const sim::KernelLessonOptions& kernel_options) {
  const sim::InputFile input = sim::ReadInputFile(o.check, sim::kMaxKernelFileBytes);
  if (!input.ok()) return Fail(input.error);
  int reached = 0;
  const std::vector<sim::MilestoneState> states = sim::CheckTiledExercise(input.bytes, o.check, kernel_options);
  for (const sim::MilestoneState& m : states) {
    reached += m.reached;
    std::printf("[%s] %s: %s\n", m.reached ? "x" : " ", sim::Describe(m.milestone), m.why.c_str());
  }
  std::printf("%s: %d of %zu milestones\n", o.check.c_str(), reached, states.size());
  return reached == static_cast<int>(states.size()) ? 0 : kExitNotYet;
}

int Run(const ExerciseOptions& o, const GuiLauncher& launch_gui, GuiOptions window) {
  if (o.name != kTiled) return Fail("no exercise " + o.name + " (there is: tiled)");
  sim::KernelLessonOptions kernel_options;
  if (const std::string problem = ReadKernelFlags(o.kernel_flags, kernel_options); !problem.empty()) return Fail(problem);
  if (o.check_given) {
    if (o.check.empty()) return Fail("--check needs the student's file");
    if (!o.dir.empty()) return Fail("give a folder to write the starter into, or --check FILE, not both");
    if (o.open) return Fail("--open goes with the folder (exercise tiled DIR --open), not --check");
    return CheckMilestones(o, kernel_options);
  }
  if (o.dir.empty()) return Fail("name the folder to write the starter into: tilescope exercise tiled DIR");
  if (!o.open && AnyKernelFlagGiven(o.kernel_flags)) {
    return Fail("--kernel, --block, --grid, --sizes and --define go with --check FILE or --open");
  }
  if (o.open && (!window.lesson.empty() || !window.kernel.empty())) {
    return Fail("--open opens the exercise's file, not --lesson or --kernel");
  }
  const std::variant<std::string, int> written = WriteStarter(o);
  if (const int* status = std::get_if<int>(&written)) return *status;
  if (!o.open) return 0;
  window.kernel = std::get<std::string>(written);
  window.kernel_options = kernel_options;
  std::fflush(stdout);
  return launch_gui(window);
}

}  // namespace

void AddExerciseCommand(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui, const GuiOptions& window) {
  auto options = std::make_shared<ExerciseOptions>();
  CLI::App* command = app.add_subcommand(
      "exercise",
      "An exercise: `exercise tiled DIR` writes the tiled kernel's starter file (its tile loads, barriers and k-loop left "
      "as TODOs) into DIR; `exercise tiled --check FILE` says which milestones the file has reached: compiles, loads both "
      "tiles, C right at a multiple of the tile and at a non-multiple, no race, no more global reads than the textbook "
      "kernel. Exit 0: written, or all reached; 1: not yet; 2: usage or a file problem");
  command->add_option("EXERCISE", options->name, "The exercise: tiled")->required();
  command->add_option("DIR", options->dir, "The folder to write the starter file (" + std::string(sim::kTiledStarterFileName) + ") into");
  CLI::Option* check = command->add_option("--check", options->check, "The student's file: print the milestones it has reached");
  command->add_flag("--force", options->force, "Overwrite the folder's starter file where it exists");
  AddKernelNameFlag(*command, options->kernel_flags, "--kernel", "Which __global__ function of the file, where it has several");
  AddKernelFlags(*command, options->kernel_flags,
                 "The sizes to check, N or MxNxK (default: a multiple of the block and a non-multiple); with --open, "
                 "the window runs the first");
  command->add_flag("--open", options->open,
                    "Then open the window on the folder's file (the starter, or your work already there): its Guide checks "
                    "each milestone as you save");
  command->callback([options, check, &action, launch_gui, &window] {
    options->check_given = check->count() > 0;
    action = [options, launch_gui, &window] { return Run(*options, launch_gui, window); };
  });
}

}  // namespace cli
