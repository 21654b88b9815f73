// Lesson files as a user might hand them over: any bytes load or are refused with a
// message, never a crash; what loads saves to JSON that loads again to the same lesson, and
// its tour (if any) saves and loads again to the same prepared stops.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "sim/lesson_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sim::LessonLoad load = sim::ParseLesson(std::string(reinterpret_cast<const char*>(data), size));
  FUZZ_CHECK(load.lesson.has_value() != !load.error.empty(), "a lesson or an error, exactly one");
  if (!load.lesson) return 0;
  const std::string saved = sim::LessonToJson(*load.lesson);
  const sim::LessonLoad reloaded = sim::ParseLesson(saved);
  FUZZ_CHECK(reloaded.lesson.has_value(), "a lesson that loaded loads again once saved");
  FUZZ_CHECK(reloaded.warnings.empty(), "a saved lesson holds no unknown key");
  FUZZ_CHECK(sim::LessonToJson(*reloaded.lesson) == saved, "saving the reloaded lesson gives the same file");
  if (load.tour.empty()) return 0;
  FUZZ_CHECK(load.prepared.stops.size() == load.tour.stops.size(), "a loaded tour is prepared, every stop");
  const sim::LessonLoad toured = sim::ParseLesson(sim::LessonToJson(*load.lesson, load.tour));
  FUZZ_CHECK(toured.lesson.has_value(), "a lesson with its tour loads again once saved");
  FUZZ_CHECK(toured.prepared.stops.size() == load.prepared.stops.size(), "the saved tour keeps every stop");
  for (std::size_t i = 0; i < toured.prepared.stops.size(); ++i) {
    FUZZ_CHECK(toured.prepared.stops[i].text == load.prepared.stops[i].text, "a saved stop fills the same text");
  }
  return 0;
}
