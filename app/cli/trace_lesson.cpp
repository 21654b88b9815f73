#include "app/cli/trace_lesson.h"

#include <algorithm>
#include <limits>

#include "app/cli/number_option.h"
#include "kernels/test_vector_lesson.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/io/input_file.h"

namespace cli {
namespace {

constexpr const char* kFileFill = "file:";

// "fill_a" → "--fill-a": how the command line spells a lesson field.
std::string FlagOf(const std::string& key) {
  std::string flag = "--" + key;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

bool Given(const TraceFlags& flags, std::size_t field) { return flags.options[field]->count() > 0; }

std::optional<std::string> GivenValue(const TraceFlags& flags, const char* key) {
  const std::vector<sim::LessonField>& fields = sim::LessonFields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].key == std::string(key) && Given(flags, i)) return flags.values[i];
  }
  return std::nullopt;
}

// --lesson NAME|FILE: a preset of that name, otherwise the file (sim::LoadLessonOrPreset).
TraceLessonResult StartingLesson(const std::string& lesson) {
  TraceLessonResult result;
  if (lesson.empty()) {
    result.lesson = TraceLesson{sim::DefaultLesson(), {}, {}, "the default lesson"};
    return result;
  }
  sim::LessonLoad load = sim::LoadLessonOrPreset(lesson);
  if (!load.lesson) {
    // A file's own error names the file; a name that is neither is named as the flag's value.
    result.error = load.source.empty() ? "--lesson " + load.error : load.error;
    return result;
  }
  result.lesson = TraceLesson{*load.lesson, load.warnings, {}, load.source};
  return result;
}

// --tm, --tn or --tk make the kernel rect; beside an explicit --kernel of another kind they contradict it.
std::string RectFlagsNeedRect(const TraceFlags& flags) {
  const std::optional<std::string> kernel = GivenValue(flags, "kernel");
  if (!kernel || *kernel == "rect") return "";
  for (const char* side : {"tm", "tn", "tk"}) {
    if (GivenValue(flags, side)) {
      return std::string("--") + side + " sets rectangular tiles: it needs --kernel rect, not --kernel " + *kernel;
    }
  }
  return "";
}

// --fill file:PATH: A, B and the expected C of one case of a test-vector file; the sizes come
// from the file, so size flags that disagree with it are an error.
std::string ApplyVectorFile(const TraceFlags& flags, const std::string& path, TraceLesson& lesson) {
  kernels::TestVectorLesson taken;
  if (auto error = kernels::ApplyTestVectorCase(path, flags.vector_case, lesson.config, &taken)) {
    return error->message;
  }
  const sim::LessonConfig& config = lesson.config;
  for (const auto& [key, from_file] : {std::pair{"m", config.m}, std::pair{"n", config.n}, std::pair{"k", config.k}}) {
    const std::optional<std::string> given = GivenValue(flags, key);
    if (given && *given != std::to_string(from_file)) {
      return FlagOf(key) + " " + *given + " disagrees with case " + std::to_string(flags.vector_case) + " of " +
             path + ", which has " + key + " = " + std::to_string(from_file);
    }
  }
  lesson.expected_c = std::move(taken.expected_c);
  lesson.source += ", A and B from case " + std::to_string(flags.vector_case) + " of " + path;
  return "";
}

std::string ApplyFlags(const TraceFlags& flags, TraceLesson& lesson) {
  if (std::string error = RectFlagsNeedRect(flags); !error.empty()) return error;
  const std::vector<sim::LessonField>& fields = sim::LessonFields();
  const sim::LessonConfig started_as = lesson.config;
  std::string changes;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!Given(flags, i)) continue;
    changes += " " + FlagOf(fields[i].key) + " " + flags.values[i];
    const std::string key = fields[i].key;
    const std::string& value = flags.values[i];
    if (key == "fill" && value.rfind(kFileFill, 0) == 0) {
      if (std::string error = ApplyVectorFile(flags, value.substr(5), lesson); !error.empty()) return error;
      continue;
    }
    if (auto error = sim::ApplyLessonEdit(key, value, lesson.config, FlagOf(key))) return error->message;
  }
  sim::NoteEdited(lesson.config, started_as);
  if (lesson.config.name != started_as.name) lesson.source += ", changed by" + changes;
  return "";
}

}  // namespace

void AddLessonFlags(CLI::App& trace, TraceFlags& flags) {
  trace.add_option("--lesson", flags.lesson,
                   "Start from a preset (" + sim::PresetNames() + ") or a lesson JSON file");
  const std::vector<sim::LessonField>& fields = sim::LessonFields();
  flags.values.resize(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string key = fields[i].key;
    const std::string names = (key.size() == 1 ? "-" + key + "," : std::string()) + FlagOf(key);
    std::string help = fields[i].help;
    if (key == "fill") help += ", or file:PATH (the test-vector harness's binary format; the sizes come from the file)";
    flags.options.push_back(trace.add_option(names, flags.values[i], help));
  }
  trace.add_option("--case", flags.vector_case, "With --fill file:PATH, the case to take, counting from 1 (default 1)")
      ->check(WholeNumberIn(1, std::numeric_limits<int>::max()));
}

TraceLessonResult BuildTraceLesson(const TraceFlags& flags) {
  TraceLessonResult result = StartingLesson(flags.lesson);
  if (!result.lesson) return result;
  if (std::string error = ApplyFlags(flags, *result.lesson); !error.empty()) return {std::nullopt, error};
  if (auto invalid = sim::Validate(result.lesson->config)) return {std::nullopt, invalid->message};
  return result;
}

}  // namespace cli
