// test_vector_lesson.h — one case of a test-vector file as a lesson: its shape, and
// its A and B as explicit fills. The GUI's "A and B from a file" and `tilescope trace --fill
// file:PATH` both go through here. Cases count from 1, in every view and message.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"

namespace kernels {

struct TestVectorLesson {
  int cases = 0;                 // how many cases the file holds
  std::vector<float> expected_c;  // the file's C for the case taken (m×n)
};

// Sets `lesson`'s shape and fills from case `number` (1-based) of the file at `path`; the
// error's field is "fill_file". `lesson` is changed only on success.
std::optional<sim::ValidationError> ApplyTestVectorCase(const std::string& path, long long number,
                                                        sim::LessonConfig& lesson, TestVectorLesson* taken = nullptr);

}  // namespace kernels
