// Lesson files as a user might hand them over, read the way the app reads them before a tour
// is prepared (sim::ParseLessonUnchecked: syntax, types, names, ranges): any bytes load or are
// refused with a message, never a crash; what loads, its tour included, saves to JSON that
// loads again to the same lesson and tour. No model runs here, so the reader gets thousands
// of inputs a second: preparing a tour against the model is fuzz_lesson_tour's.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "sim/lesson/lesson_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sim::LessonLoad load = sim::ParseLessonUnchecked(std::string(reinterpret_cast<const char*>(data), size));
  FUZZ_CHECK(load.lesson.has_value() != !load.error.empty(), "a lesson or an error, exactly one");
  if (!load.lesson) return 0;
  const std::string saved = sim::LessonToJson(*load.lesson, load.tour);
  const sim::LessonLoad reloaded = sim::ParseLessonUnchecked(saved);
  FUZZ_CHECK(reloaded.lesson.has_value(), "a lesson that loaded loads again once saved");
  FUZZ_CHECK(reloaded.warnings.empty(), "a saved lesson holds no unknown key");
  FUZZ_CHECK(reloaded.tour.stops.size() == load.tour.stops.size(), "the saved tour keeps every stop");
  FUZZ_CHECK(sim::LessonToJson(*reloaded.lesson, reloaded.tour) == saved, "saving the reloaded lesson gives the same file");
  return 0;
}
