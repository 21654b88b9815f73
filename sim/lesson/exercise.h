// exercise.h — "now write the tiled kernel": the starter file a student fills in, and the
// milestones a check run of their file has reached. `tilescope exercise tiled` writes the
// starter and prints the milestones; the window's Guide reads the same list as they save.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check.h"
#include "sim/lesson/kernel_lesson.h"

namespace sim {

// The handout's tiled kernel with its tile loads, its barriers and its k-loop left for the
// student (TODO comments say what each needs); it compiles and runs, and C stays zero.
const std::string& TiledStarterSource();
constexpr const char* kTiledStarterFileName = "tiled.cu";

enum class Milestone {
  kCompiles,            // the front end reads the file
  kLoadsBothTiles,      // it stores A's and B's elements into two __shared__ arrays
  kRightAtMultiple,     // C right at a size that is a multiple of the tile
  kRightAtNonMultiple,  // C right at a size that is not
  kNoRace,              // tiles loaded and no race (a kernel without shared tiles cannot race there)
  kTextbookReads,       // C right, and no more global reads than the textbook tiled kernel
};
constexpr int kMilestoneCount = 6;
const char* Describe(Milestone milestone);

struct MilestoneState {
  Milestone milestone = Milestone::kCompiles;
  bool reached = false;
  std::string why;  // what it saw: "C wrong at 50x37x29", "4096 reads, the textbook kernel 2048"
};

// The milestones of a check run: `front` the front end's result for the file, `check` the
// check of its kernel (ignored where the file did not compile).
std::vector<MilestoneState> EvaluateTiledMilestones(const cuda::FrontEndResult& front, const KernelCheckResult& check);

// Compiles `text` and checks it as `tilescope check` does under `options` (its kernel, --define,
// --block, --grid, --sizes and scheduler: the window's, so the Guide judges the run on show),
// then evaluates: the Guide's one call. `cancel` (may be null) stops the check between steps
// (the Guide's worker, at a new save).
std::vector<MilestoneState> CheckTiledExercise(const std::string& text, const std::string& file_name,
                                               const KernelLessonOptions& options,
                                               const std::atomic<bool>* cancel = nullptr);

}  // namespace sim
