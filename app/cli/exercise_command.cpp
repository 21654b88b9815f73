#include "app/cli/exercise_command.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/lesson/exercise.h"
#include "sim/lesson/kernel_lesson.h"

namespace cli {
namespace {

constexpr int kExitNotYet = 1;
constexpr int kExitUsage = 2;
constexpr const char* kTiled = "tiled";

struct ExerciseOptions {
  std::string name;
  std::string dir;
  std::string check;
  bool force = false;
  bool check_given = false;
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "tilescope exercise: %s\n", message.c_str());
  return kExitUsage;
}

int WriteStarter(const ExerciseOptions& o) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(o.dir, error) && !fs::is_directory(o.dir, error)) return Fail(o.dir + " is not a folder");
  fs::create_directories(o.dir, error);
  if (error) return Fail("cannot create the folder " + o.dir + ": " + error.message());
  const std::string path = (fs::path(o.dir) / sim::kTiledStarterFileName).string();
  if (fs::exists(fs::symlink_status(path, error)) && !o.force) {
    return Fail(path + " exists: pass --force to overwrite it with the starter");
  }
  if (const std::optional<std::string> problem = sim::WriteFileAtomically(path, sim::TiledStarterSource())) return Fail(*problem);
  std::printf("wrote %s: fill in its TODOs, then run: tilescope exercise tiled --check %s\n", path.c_str(), path.c_str());
  return 0;
}

int CheckMilestones(const ExerciseOptions& o) {
  const sim::InputFile input = sim::ReadInputFile(o.check, sim::kMaxKernelFileBytes);
  if (!input.ok()) return Fail(input.error);
  int reached = 0;
  const std::vector<sim::MilestoneState> states = sim::CheckTiledExercise(input.bytes, o.check);
  for (const sim::MilestoneState& m : states) {
    reached += m.reached;
    std::printf("[%s] %s: %s\n", m.reached ? "x" : " ", sim::Describe(m.milestone), m.why.c_str());
  }
  std::printf("%s: %d of %zu milestones\n", o.check.c_str(), reached, states.size());
  return reached == static_cast<int>(states.size()) ? 0 : kExitNotYet;
}

int Run(const ExerciseOptions& o) {
  if (o.name != kTiled) return Fail("no exercise " + o.name + " (there is: tiled)");
  if (o.check_given) {
    if (o.check.empty()) return Fail("--check needs the student's file");
    if (!o.dir.empty()) return Fail("give a folder to write the starter into, or --check FILE, not both");
    return CheckMilestones(o);
  }
  if (o.dir.empty()) return Fail("name the folder to write the starter into: tilescope exercise tiled DIR");
  return WriteStarter(o);
}

}  // namespace

void AddExerciseCommand(CLI::App& app, std::function<int()>& action) {
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
  command->callback([options, check, &action] {
    options->check_given = check->count() > 0;
    action = [options] { return Run(*options); };
  });
}

}  // namespace cli
