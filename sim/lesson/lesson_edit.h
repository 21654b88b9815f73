// lesson_edit.h — the lesson's one grammar: a change to a lesson by field name and the text
// of its value ("m" "8", "barrier1" "syncwarp", "fill_a" "random:7"). The Controls fields,
// the keys, --actions scripts, `tilescope trace`'s flags and lesson files all change a
// lesson through ApplyLessonEdit, so each field is read by one set of rules everywhere. The
// field names are the lesson file's keys.
//
// A value that cannot be read is refused the way Validate() refuses one out of range: the
// field it concerns and one line that quotes what was given. Ranges are Validate()'s.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"

namespace sim {

struct LessonField {
  const char* key;    // "fill_a": the lesson file's key, the GUI's field=value name
  const char* value;  // what it takes, for help: "syncthreads, syncwarp or off"
  const char* help;   // one line
};

// Every field, in the order edits are applied when several arrive at once (the kernel before
// its tiles, the tiles before the barriers, one fill for both before either alone).
const std::vector<LessonField>& LessonFields();

// Sets one field. `shown_as` is how the caller's user names the field ("m" in the GUI, "--m"
// on the command line); messages quote it and the value as given.
std::optional<ValidationError> ApplyLessonEdit(const std::string& key, const std::string& value, LessonConfig& lesson,
                                               const std::string& shown_as);

// Applies "key=value" pairs, separated by spaces or commas, in the order given. Returns the
// first that cannot be read (the earlier pairs are applied).
std::optional<ValidationError> ApplyLessonEdits(const std::string& edits, LessonConfig& lesson);

// A seed as every input gives it (a lesson's "seed", `random:SEED`, `bench --seed`): a whole
// number from 0 to 2^64-1, digits only, so "-1" is refused rather than wrapped to 2^64-1.
std::optional<std::uint64_t> ParseSeed(const std::string& text);
// What is wrong with a seed ParseSeed refuses: "--seed '-1' is not a whole number from 0 to 2^64-1".
std::string SeedProblem(const std::string& shown_as, const std::string& value);

// How a fill reads as a value: "sequence", "identity", "random:7", "values" (explicit values,
// from a test-vector file or a lesson file).
std::string FillText(const MatrixFill& fill);

// "A 2 1 10.5": sets A[2][1] to 10.5 in `lesson` (A and B become explicit fills holding the
// values `a` and `b` the lesson ran on). Returns what is wrong with the argument.
std::optional<std::string> ApplyCellEdit(const std::string& argument, const std::vector<float>& a,
                                         const std::vector<float>& b, LessonConfig& lesson);

}  // namespace sim
