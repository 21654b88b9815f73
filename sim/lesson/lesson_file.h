// lesson_file.h — lessons as JSON files (assets/lessons/*.json), versioned.
//
// Unknown keys are reported as warnings and skipped, so a newer file still opens; a bad
// value stops the load with a message naming the key, the value and what is allowed.
// Reading goes through sim::ReadInputFile (size limit, folders refused) and
// sim::ParseJsonText (depth limit, no exception escapes); writing through sim::AtomicFile,
// so a crash never leaves half a file.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"

namespace sim {

// Version 2 may carry a "tour" (sim/lesson/tour.h); version 1 files still load (no tour).
constexpr int kLessonFileVersion = 2;
// The largest lesson file read: the presets take about 600 bytes; a lesson with explicit
// 1024×1024 A and B values takes about 20 MiB.
constexpr std::uint64_t kMaxLessonFileBytes = 64ull << 20;
// The texts a lesson shows are bounded by themselves, not only by the file: a 60 MB "name"
// took 16 s to start and 0.56 s a frame, and came back at every start from the settings.
constexpr std::size_t kMaxLessonNameBytes = 200;    // titles a window and a panel: one line
constexpr std::size_t kMaxLessonTextBytes = 16384;  // a description or a tour's text: a page

struct LessonLoad {
  std::optional<LessonConfig> lesson;  // set when it loaded
  std::vector<std::string> warnings;   // e.g. "unknown key 'colour' ignored"
  std::string error;                   // why it did not load
  Tour tour;                           // the file's "tour"; empty when it has none
  PreparedTour prepared;               // the tour run against the model (loading checks it)
  // LoadLessonOrPreset only: "lesson file PATH" or "the preset lesson NAME"; empty when it
  // found neither.
  std::string source;
};

// Whether loading runs a file's tour against the model (PrepareTour) at once, or leaves that
// to the caller: the app prepares it on a worker, and takes the lesson only once it passed.
enum class TourCheck { kPrepare, kLater };

// A file with a tour loads only when PrepareTour() prepares every stop (`prepared` holds them).
LessonLoad ParseLesson(const std::string& json_text);
// The same without running the model for the tour (syntax, types and names only).
LessonLoad ParseLessonUnchecked(const std::string& json_text);
LessonLoad ReadLessonFile(const std::string& path, TourCheck check = TourCheck::kPrepare);
// A lesson that edits changed is no longer the preset or file it started as: it takes the
// name "custom" and says what it was edited from, so no view calls a TILE 16 lesson
// "default, TILE 2". Unchanged lessons (the same
// file, whatever their name) keep their name.
void NoteEdited(LessonConfig& lesson, const LessonConfig& started_as);

std::string LessonToJson(const LessonConfig& lesson);
std::string LessonToJson(const LessonConfig& lesson, const Tour& tour);
// Returns an empty string on success, otherwise what went wrong. A lesson Validate()
// refuses is not written (it could not be opened again).
std::string WriteLessonFile(const std::string& path, const LessonConfig& lesson);

// The built-in lessons: the files assets/lessons/<name>.json, embedded at build time. The
// curriculum (CurriculumNames()) first, in teaching order, then the others by name.
const std::vector<LessonConfig>& Presets();
LessonConfig DefaultLesson();
// The preset of that name, or nothing.
std::optional<LessonConfig> FindPreset(const std::string& name);
// "default, tile4_8x8x8, ...": for help and messages.
std::string PresetNames();
// The preset of that name with its tour, as a file of that name loads; error when none.
LessonLoad LoadPreset(const std::string& name, TourCheck check = TourCheck::kPrepare);
// A lesson named where a user types one (--lesson, `tilescope tour LESSON`, the GUI's --lesson):
// the preset of that name, otherwise the file at that path; neither gives the error "'NAME' is
// neither a lesson file nor a preset (the presets)". Presets first: the app names presets
// itself (a tour's lesson, the default after a failure), which a file of that name in the
// working folder must not replace; such a file is still read as ./NAME.
LessonLoad LoadLessonOrPreset(const std::string& name_or_path, TourCheck check = TourCheck::kPrepare);
// The guided lessons in teaching order (issue 15's curriculum): "default" first.
std::vector<std::string> CurriculumNames();
// How a lesson list names a lesson: "2 · Two barriers" for the curriculum (its place in the
// teaching order and the file's title), the title or else the name for any other.
std::string LessonHeading(const LessonConfig& lesson);

}  // namespace sim
