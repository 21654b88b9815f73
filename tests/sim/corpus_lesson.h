// corpus_lesson.h — the student-kernel files of tests/corpus opened as lessons, for the suites
// that step them (kernel_lesson_test, kernel_narration_test).
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "sim/lesson/kernel_lesson.h"

namespace sim {

inline std::string Corpus(const std::string& name) {
  return std::string(TILESCOPE_SOURCE_DIR) + "/tests/corpus/" + name;
}

// A file the front end must accept: a refusal fails the calling test with the front end's message.
inline KernelLesson LoadCorpusLesson(const std::string& name, const KernelLessonOptions& options = {}) {
  KernelLessonLoad load = LoadKernelLesson(Corpus(name), options);
  EXPECT_TRUE(load.lesson.has_value()) << load.error;
  return std::move(*load.lesson);
}

}  // namespace sim
