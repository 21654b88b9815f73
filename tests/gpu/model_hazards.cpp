// model_hazards — the hazards TileScope's model finds in one registry kernel at one size,
// as "KIND SEVERITY COUNT" lines (e.g. "RAW warning 24"), for racecheck_test.sh to hold
// against compute-sanitizer racecheck's report on the real kernel.
//
//   model_hazards KERNEL SIZE      (M = N = K = SIZE; exit 2 on bad arguments)
//
// The model judges hazards from the accesses, not from the schedule (hazard_detector.h),
// so the realistic scheduler and seeded inputs give the verdict of every schedule.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/simulation.h"

namespace {

constexpr std::size_t kNoHistory = 0;
constexpr std::uint64_t kSeed = 1;

int Usage(const char* message) {
  std::fprintf(stderr, "model_hazards: %s\nusage: model_hazards KERNEL SIZE\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Usage("expected a kernel name and a size");
  const kernels::KernelSpec* kernel = kernels::FindKernel(argv[1]);
  if (kernel == nullptr || kernels::IsCublas(*kernel)) return Usage("not a kernel the model runs");
  const int size = std::atoi(argv[2]);
  if (size < 1) return Usage("the size must be a whole number of at least 1");

  const kernels::Shape shape = kernels::Shape::Square(size);
  const sim::LessonConfig lesson =
      kernels::ModelLessonFor(*kernel, shape, kernels::SeededInput(kSeed, 0, size, size),
                              kernels::SeededInput(kSeed, 1, size, size));
  if (auto error = sim::Validate(lesson)) return Usage(error->message.c_str());
  sim::Simulation simulation(lesson, kNoHistory);
  simulation.RunToEnd();

  std::map<std::pair<std::string, std::string>, long long> counts;
  for (const sim::Hazard& hazard : simulation.hazards()) {
    ++counts[{sim::Name(hazard.kind), sim::Name(hazard.severity)}];
  }
  for (const auto& [kind, count] : counts) std::printf("%s %s %lld\n", kind.first.c_str(), kind.second.c_str(), count);
  return 0;
}
