// trace_lesson.h — the lesson `tilescope trace` runs: a preset or lesson file (--lesson),
// then every flag given on top of it. Each lesson flag is a field of the lesson grammar
// (sim/lesson/lesson_edit.h) spelled --field, applied in the grammar's order; a bad value gets the
// grammar's one line, naming the flag and quoting the value, and a lesson that cannot run
// gets sim::Validate()'s message.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"

namespace cli {

// The flags as typed: only those given change the starting lesson.
struct TraceFlags {
  std::string lesson;
  std::vector<std::string> values;      // one per sim::LessonFields() row
  std::vector<CLI::Option*> options;    // the same rows' options, to tell which were given
  long long vector_case = 1;
};

// Registers the lesson flags on the `trace` subcommand.
void AddLessonFlags(CLI::App& trace, TraceFlags& flags);

struct TraceLesson {
  sim::LessonConfig config;
  std::vector<std::string> warnings;  // e.g. unknown keys of a lesson file
  std::vector<float> expected_c;      // --fill file:PATH: the file's C, else empty
  std::string source;                 // where the lesson came from, for the header
};

// The lesson, or the one-line message saying why there is none.
struct TraceLessonResult {
  std::optional<TraceLesson> lesson;
  std::string error;
};

TraceLessonResult BuildTraceLesson(const TraceFlags& flags);

}  // namespace cli
