// trace_lesson.h — the lesson `tilescope trace` runs: a preset or lesson file (--lesson),
// then every flag given on top of it. A bad flag value becomes one line naming the value
// and what is allowed; a lesson that cannot run gets sim::Validate()'s message.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson_config.h"

namespace cli {

// The flags as typed. Numbers stay unset unless given, so a lesson file's values survive.
struct TraceFlags {
  std::string lesson;
  std::optional<long long> m, n, k, tile, tm, tn, tk;
  std::string kernel, barrier1, barrier2, guard, tiles, scheduler;
  std::optional<std::uint64_t> seed;
  std::string fill, fill_a, fill_b;
  int vector_case = 0;
};

// Accepts 0, 1, 2, ...: says so instead of CLI11's range of doubles.
extern const CLI::Validator kWholeNumber;

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
