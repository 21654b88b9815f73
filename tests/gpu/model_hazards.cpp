// model_hazards — the hazards TileScope's model finds in one registry kernel at one size,
// as "KIND SEVERITY LINES COUNT" lines, for racecheck_test.sh to hold against
// compute-sanitizer racecheck's report on the real kernel. KIND is the model's (program
// order: the order the missing barrier would have imposed), LINES the two accesses'
// source lines, lower first ("34-40": As's store and the inner product), COUNT the
// hazards (the model counts per 4-byte cell; racecheck per byte).
//
//   model_hazards KERNEL SIZE      (M = N = K = SIZE; exit 2 on bad arguments)
//
// The model judges hazards from the accesses, not from the schedule (hazard_detector.h),
// so the realistic scheduler and seeded inputs give the verdict of every schedule.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/model/kernel_source.h"
#include "sim/model/simulation.h"

namespace {

constexpr std::size_t kNoHistory = 0;
constexpr std::uint64_t kSeed = 1;

int Usage(const char* message) {
  std::fprintf(stderr, "model_hazards: %s\nusage: model_hazards KERNEL SIZE\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("usage: model_hazards KERNEL SIZE\n(the hazards the model finds for a registry kernel at SIZE³, "
                "one line each, for tests/gpu/racecheck_test.sh)\n");
    return 0;
  }
  if (argc == 2 && argv[1][0] == '-') return Usage(("unknown option " + std::string(argv[1])).c_str());
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

  std::map<std::string, long long> counts;
  for (const sim::Hazard& hazard : simulation.hazards()) {
    const int first = sim::LineOf(lesson.kernel, hazard.first.op);
    const int second = sim::LineOf(lesson.kernel, hazard.second.op);
    const std::string key = std::string(sim::Name(hazard.kind)) + " " + sim::Name(hazard.severity) + " " +
                            std::to_string(std::min(first, second)) + "-" + std::to_string(std::max(first, second));
    ++counts[key];
  }
  for (const auto& [key, count] : counts) std::printf("%s %lld\n", key.c_str(), count);
  return 0;
}
