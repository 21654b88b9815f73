#include "app/cli/trace_lesson.h"

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <limits>
#include <tuple>

#include "kernels/test_vector_file.h"
#include "sim/lesson_file.h"

namespace cli {
namespace {

constexpr const char* kFillForms = "sequence, identity, random, random:SEED, file:PATH";

// Sizes arrive as long long so that 0, negatives and huge values reach sim::Validate()
// (which names the limit) instead of wrapping around in an int.
int Narrowed(long long value) {
  constexpr long long kLow = std::numeric_limits<int>::min();
  constexpr long long kHigh = std::numeric_limits<int>::max();
  return static_cast<int>(value < kLow ? kLow : (value > kHigh ? kHigh : value));
}

std::string NotOneOf(const char* flag, const std::string& value, const char* allowed) {
  return std::string(flag) + " '" + value + "' is not one of " + allowed;
}

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// --lesson NAME|FILE: an existing file is read; otherwise a preset of that name.
TraceLessonResult StartingLesson(const std::string& lesson) {
  TraceLessonResult result;
  if (lesson.empty()) {
    result.lesson = TraceLesson{sim::DefaultLesson(), {}, {}, "the default lesson"};
    return result;
  }
  if (std::filesystem::exists(lesson)) {
    sim::LessonLoad load = sim::ReadLessonFile(lesson);
    if (!load.lesson) {
      result.error = load.error;
      return result;
    }
    result.lesson = TraceLesson{*load.lesson, load.warnings, {}, "lesson file " + lesson};
    return result;
  }
  std::string names;
  for (const sim::LessonConfig& preset : sim::Presets()) {
    if (preset.name == lesson) {
      result.lesson = TraceLesson{preset, {}, {}, "the preset lesson " + preset.name};
      return result;
    }
    names += (names.empty() ? "" : ", ") + preset.name;
  }
  result.error = "--lesson '" + lesson + "' is neither a lesson file nor a preset (" + names + ")";
  return result;
}

template <typename Enum>
std::string ApplyName(const char* flag, const std::string& text, Enum& target,
                      std::optional<Enum> (*parse)(const std::string&), const char* allowed) {
  if (text.empty()) return "";
  if (auto value = parse(text)) {
    target = *value;
    return "";
  }
  return NotOneOf(flag, text, allowed);
}

std::string ApplyBarrier(const char* flag, const std::string& text, sim::SyncKind& target) {
  // "none" reads as the lesson files' "off".
  return ApplyName(flag, text == "none" ? std::string("off") : text, target, sim::ParseSyncKind,
                   "syncthreads, syncwarp, off (or none)");
}

// sequence | identity | random | random:SEED (file:PATH is handled by ApplyVectorFile).
std::string ParseFill(const char* flag, const std::string& text, sim::MatrixFill& fill) {
  if (text == "sequence") {
    fill = sim::MatrixFill::Sequence();
  } else if (text == "identity") {
    fill = sim::MatrixFill::Identity();
  } else if (text == "random") {
    fill = sim::MatrixFill::Random(fill.kind == sim::FillKind::kRandom ? fill.seed : 1);
  } else if (StartsWith(text, "random:")) {
    const std::string digits = text.substr(7);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 19) {
      return std::string(flag) + " '" + text + "': the seed after random: must be a whole number from 0 to 10^19-1";
    }
    fill = sim::MatrixFill::Random(std::stoull(digits));
  } else {
    return NotOneOf(flag, text, kFillForms);
  }
  return "";
}

// --fill file:PATH: A, B and the expected C of one case of a seed-003 file; the sizes come
// from the file, so size flags that disagree with it are an error.
std::string ApplyVectorFile(const TraceFlags& flags, const std::string& path, TraceLesson& lesson) {
  const kernels::TestVectorRead read = kernels::ReadTestVectors(path);
  if (flags.vector_case < 0 || flags.vector_case >= static_cast<int>(read.cases.size())) {
    if (!read.ok()) return path + ": " + read.error;
    if (read.cases.empty()) return path + " holds no test-vector cases";
    return "--case " + std::to_string(flags.vector_case) + " is out of range: " + path + " holds cases 0 to " +
           std::to_string(read.cases.size() - 1);
  }
  const kernels::TestVectorCase& entry = read.cases[static_cast<std::size_t>(flags.vector_case)];
  // The seed names the inner dimension N; --m/--n/--k are TileScope's (C M×N = A M×K · B K×N).
  for (const auto& [flag, given, from_file] :
       {std::tuple{"--m", flags.m, entry.shape.m}, std::tuple{"--n", flags.n, entry.shape.n},
        std::tuple{"--k", flags.k, entry.shape.k}}) {
    if (given && *given != from_file) {
      return std::string(flag) + " " + std::to_string(*given) + " disagrees with case " +
             std::to_string(flags.vector_case) + " of " + path + ", which has " + (flag + 2) + " = " +
             std::to_string(from_file);
    }
  }
  lesson.config.m = Narrowed(entry.shape.m);
  lesson.config.n = Narrowed(entry.shape.n);
  lesson.config.k = Narrowed(entry.shape.k);
  lesson.config.fill_a = sim::MatrixFill::Explicit(entry.a);
  lesson.config.fill_b = sim::MatrixFill::Explicit(entry.b);
  lesson.expected_c = entry.c;
  lesson.source += ", A and B from case " + std::to_string(flags.vector_case) + " of " + path;
  return "";
}

std::string ApplyFills(const TraceFlags& flags, TraceLesson& lesson) {
  if (StartsWith(flags.fill, "file:")) return ApplyVectorFile(flags, flags.fill.substr(5), lesson);
  sim::LessonConfig& config = lesson.config;
  if (!flags.fill.empty()) {
    if (auto error = ParseFill("--fill", flags.fill, config.fill_a); !error.empty()) return error;
    config.fill_b = config.fill_a;
    // Seeded random fills of A and B must differ, or B would repeat A's numbers.
    if (config.fill_b.kind == sim::FillKind::kRandom) ++config.fill_b.seed;
  }
  if (!flags.fill_a.empty()) {
    if (auto error = ParseFill("--fill-a", flags.fill_a, config.fill_a); !error.empty()) return error;
  }
  if (!flags.fill_b.empty()) return ParseFill("--fill-b", flags.fill_b, config.fill_b);
  return "";
}

std::string ApplyTiles(const TraceFlags& flags, bool started_rect, sim::LessonConfig& config) {
  const bool rect_flags = flags.tm || flags.tn || flags.tk;
  if (rect_flags && flags.kernel.empty()) config.kernel = sim::KernelKind::kTiledRect;
  if (rect_flags && config.kernel != sim::KernelKind::kTiledRect) {
    return "--tm, --tn and --tk set rectangular tiles: they need --kernel rect, not --kernel " +
           std::string(sim::Name(config.kernel));
  }
  if (flags.tile) config.tile = Narrowed(*flags.tile);
  // A rect lesson made from a square one starts from its tile on every side not given.
  if (config.kernel == sim::KernelKind::kTiledRect && !started_rect) {
    config.rect = {config.tile, config.tile, config.tile};
  }
  if (flags.tm) config.rect.tm = Narrowed(*flags.tm);
  if (flags.tn) config.rect.tn = Narrowed(*flags.tn);
  if (flags.tk) config.rect.tk = Narrowed(*flags.tk);
  return "";
}

std::string NaiveHasNoBarriers(const TraceFlags& flags, sim::KernelKind kernel) {
  if (kernel != sim::KernelKind::kNaive) return "";
  const char* flag = !flags.barrier1.empty() ? "--barrier1" : !flags.barrier2.empty() ? "--barrier2" : nullptr;
  if (!flag) return "";
  return std::string(flag) + " switches a __syncthreads() of the tiled kernels; the naive kernel has none";
}

std::string ApplyGuard(const std::string& text, bool& guard) {
  if (text.empty()) return "";
  if (text != "on" && text != "off") return NotOneOf("--guard", text, "on, off");
  guard = text == "on";
  return "";
}

std::string ApplyFlags(const TraceFlags& flags, TraceLesson& lesson) {
  sim::LessonConfig& config = lesson.config;
  if (flags.m) config.m = Narrowed(*flags.m);
  if (flags.n) config.n = Narrowed(*flags.n);
  if (flags.k) config.k = Narrowed(*flags.k);
  if (flags.seed) config.seed = *flags.seed;
  const bool started_rect = config.kernel == sim::KernelKind::kTiledRect;
  for (const auto& apply : std::initializer_list<std::function<std::string()>>{
           [&] {
             return ApplyName("--kernel", flags.kernel, config.kernel, sim::ParseKernelKind, "tiled, rect, naive");
           },
           [&] { return ApplyTiles(flags, started_rect, config); },
           [&] { return NaiveHasNoBarriers(flags, config.kernel); },
           [&] { return ApplyBarrier("--barrier1", flags.barrier1, config.barrier1); },
           [&] { return ApplyBarrier("--barrier2", flags.barrier2, config.barrier2); },
           [&] { return ApplyGuard(flags.guard, config.guard); },
           [&] { return ApplyName("--tiles", flags.tiles, config.tile_count, sim::ParseTileCount, "ceil, floor"); },
           [&] {
             return ApplyName("--scheduler", flags.scheduler, config.scheduler, sim::ParseSchedulerKind,
                              "realistic, thread, random, race");
           },
           [&] { return ApplyFills(flags, lesson); }}) {
    if (std::string error = apply(); !error.empty()) return error;
  }
  return "";
}

}  // namespace

const CLI::Validator kWholeNumber(
    [](std::string& text) {
      const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
      return digits ? std::string() : "'" + text + "' is not a whole number (0, 1, 2, ...)";
    },
    "N");

void AddLessonFlags(CLI::App& trace, TraceFlags& flags) {
  trace.add_option("--lesson", flags.lesson,
                   "Start from a preset (default, naive, race_tile16, ...) or a lesson JSON file");
  trace.add_option("-m,--m", flags.m, "Rows of A and C (default 4)");
  trace.add_option("-n,--n", flags.n, "Columns of B and C (default 4)");
  trace.add_option("-k,--k", flags.k, "Columns of A, rows of B: the inner dimension (default 4)");
  trace.add_option("--kernel", flags.kernel, "tiled (02_tiled.cu), rect (03_tiled_rect.cu) or naive (01_naive.cu)");
  trace.add_option("--tile", flags.tile, "Square tile T: blocks of T×T threads (default 2)");
  trace.add_option("--tm", flags.tm, "Rect kernel: rows of C per block (block height)");
  trace.add_option("--tn", flags.tn, "Rect kernel: columns of C per block (block width)");
  trace.add_option("--tk", flags.tk, "Rect kernel: slice of K per phase");
  trace.add_option("--barrier1", flags.barrier1, "1st barrier (after the loads): syncthreads, syncwarp or off");
  trace.add_option("--barrier2", flags.barrier2, "2nd barrier (after the products): syncthreads, syncwarp or off");
  trace.add_option("--guard", flags.guard, "Bounds guard: on (default) or off (out-of-bounds accesses are flagged)");
  trace.add_option("--tiles", flags.tiles, "Tile count: ceil (ceil(K/T), default) or floor (K/T: skips the tail)");
  trace.add_option("--scheduler", flags.scheduler, "realistic (default), thread, random or race (race-exposing)");
  trace.add_option("--seed", flags.seed, "Scheduler seed (default 1)")->check(kWholeNumber);
  trace.add_option("--fill", flags.fill,
                   "Fill of A and B: sequence (1..n, default), identity, random[:SEED], or file:PATH (seed 003's "
                   "test-vector format; the sizes come from the file)");
  trace.add_option("--fill-a", flags.fill_a, "Fill of A alone: sequence, identity, random[:SEED]");
  trace.add_option("--fill-b", flags.fill_b, "Fill of B alone: sequence, identity, random[:SEED]");
  trace.add_option("--case", flags.vector_case, "With --fill file:PATH, the case to take (default 0)");
}

TraceLessonResult BuildTraceLesson(const TraceFlags& flags) {
  TraceLessonResult result = StartingLesson(flags.lesson);
  if (!result.lesson) return result;
  if (std::string error = ApplyFlags(flags, *result.lesson); !error.empty()) {
    return {std::nullopt, error};
  }
  if (auto invalid = sim::Validate(result.lesson->config)) return {std::nullopt, invalid->message};
  return result;
}

}  // namespace cli
