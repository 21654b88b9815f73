// lesson_edit.h — changes to a lesson by field name, as the Controls fields, the keys and
// --actions scripts make them: "m=8", "barrier1=syncwarp", "fill_a=random:7". The names
// are the lesson file's keys, so a script, a saved lesson and a field say the same thing.
// A value that cannot be read is reported the way Validate() reports one out of range:
// the field it concerns and one line naming the problem.
#pragma once
#include <optional>
#include <string>

#include "sim/lesson_config.h"

namespace gui {

// Applies "key=value" pairs, separated by spaces or commas, to `lesson`. Returns the first
// value that cannot be read (the earlier pairs are applied); range checks are Validate()'s.
std::optional<sim::ValidationError> ApplyLessonEdits(const std::string& edits, sim::LessonConfig& lesson);

// How a fill reads in a field and in "fill_a=...": "sequence", "identity", "random:7",
// "values" (explicit values, from a test-vector file or a lesson file).
std::string FillText(const sim::MatrixFill& fill);

// The shape and the A and B of case `index` (0-based) of a seed-003 test-vector file
// (kernels/test_vector_file.h), as explicit fills. The field of an error is "fill_file".
std::optional<sim::ValidationError> LoadTestVectorCase(const std::string& path, int index, sim::LessonConfig& lesson);

}  // namespace gui
