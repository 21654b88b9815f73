#include "sim/lesson/lesson_edit.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>


namespace sim {
namespace {

constexpr const char* kFillForms = "sequence, identity, random, random:SEED";

// A value as a message quotes it: whole when short, its start when long (a 100,000-character
// name once went into the message whole).
std::string Quoted(const std::string& value) {
  constexpr std::size_t kLongest = 40;
  return "'" + (value.size() <= kLongest ? value : value.substr(0, kLongest) + "\u2026") + "'";
}

ValidationError Bad(const std::string& key, const std::string& shown_as, const std::string& value,
                    const std::string& problem) {
  return {key, shown_as + " " + Quoted(value) + " " + problem};
}

bool AllDigits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// The largest value a whole-number field can hold, for the message when one cannot fit an int.
long long LimitOf(const std::string& key) {
  return key == "m" || key == "n" || key == "k" ? kMaxDimension : kMaxThreadsPerBlock;
}

std::optional<ValidationError> SetInt(const std::string& key, const std::string& value, const std::string& shown_as,
                                      int& field) {
  const bool negative = !value.empty() && value[0] == '-';
  if (!AllDigits(negative ? value.substr(1) : value)) return Bad(key, shown_as, value, "is not a whole number");
  errno = 0;
  const long long number = std::strtoll(value.c_str(), nullptr, 10);
  // Out-of-range ints stay visible to Validate(), which names the limit; only what cannot be
  // an int at all is refused here, quoting it as given.
  if (errno == ERANGE || number < INT_MIN || number > INT_MAX) {
    return Bad(key, shown_as, value, "is out of range: the limit is " + std::to_string(LimitOf(key)));
  }
  field = static_cast<int>(number);
  return std::nullopt;
}

std::optional<ValidationError> SetSeed(const std::string& key, const std::string& value, const std::string& shown_as,
                                       std::uint64_t& seed) {
  const std::optional<std::uint64_t> number = ParseSeed(value);
  if (!number) return ValidationError{key, SeedProblem(shown_as, value)};
  seed = *number;
  return std::nullopt;
}

template <typename Enum>
std::optional<ValidationError> SetName(const std::string& key, const std::string& value, const std::string& shown_as,
                                       Enum& field, std::optional<Enum> (*parse)(const std::string&),
                                       const std::string& allowed) {
  const std::optional<Enum> parsed = parse(value);
  if (!parsed) return Bad(key, shown_as, value, "is not one of " + allowed);
  field = *parsed;
  return std::nullopt;
}

std::optional<ValidationError> SetFill(const std::string& key, const std::string& value, const std::string& shown_as,
                                       MatrixFill& fill) {
  if (value == "sequence") {
    fill = MatrixFill::Sequence();
  } else if (value == "identity") {
    fill = MatrixFill::Identity();
  } else if (value == "random") {
    fill = MatrixFill::Random(fill.kind == FillKind::kRandom ? fill.seed : 1);
  } else if (value.rfind("random:", 0) == 0) {
    const std::optional<std::uint64_t> seed = ParseSeed(value.substr(7));
    if (!seed) return Bad(key, shown_as, value, "needs a whole-number seed from 0 to 2^64-1 after random:");
    fill = MatrixFill::Random(*seed);
  } else {
    return Bad(key, shown_as, value, std::string("is not one of ") + kFillForms);
  }
  return std::nullopt;
}

std::optional<ValidationError> SetSwitch(const std::string& key, const std::string& value, const std::string& shown_as,
                                         bool& field) {
  if (value == "on" || value == "true") {
    field = true;
  } else if (value == "off" || value == "false") {
    field = false;
  } else {
    return Bad(key, shown_as, value, "is not one of on, off");
  }
  return std::nullopt;
}

// A rectangular lesson made from a square one starts from its tile on every side.
void MakeRect(LessonConfig& lesson) {
  if (lesson.kernel == KernelKind::kTiledRect) return;
  lesson.kernel = KernelKind::kTiledRect;
  lesson.rect = {lesson.tile, lesson.tile, lesson.tile};
}

std::optional<SyncKind> ParseBarrier(const std::string& text) { return ParseSyncKind(text == "none" ? "off" : text); }

std::optional<ValidationError> SetTile(const std::string& key, const std::string& value, const std::string& shown_as,
                                       LessonConfig& lesson) {
  if (auto error = SetInt(key, value, shown_as, lesson.tile)) return error;
  // On a rectangular lesson, a square tile sets every side.
  if (lesson.kernel == KernelKind::kTiledRect) lesson.rect = {lesson.tile, lesson.tile, lesson.tile};
  return std::nullopt;
}

std::optional<ValidationError> SetRectSide(const std::string& key, const std::string& value,
                                           const std::string& shown_as, LessonConfig& lesson, int TileShape::*side) {
  int number = 0;
  if (auto error = SetInt(key, value, shown_as, number)) return error;
  MakeRect(lesson);
  lesson.rect.*side = number;
  return std::nullopt;
}

std::optional<ValidationError> SetKernel(const std::string& key, const std::string& value, const std::string& shown_as,
                                         LessonConfig& lesson) {
  KernelKind kernel = lesson.kernel;
  if (auto error = SetName(key, value, shown_as, kernel, ParseKernelKind, KernelKindNames())) return error;
  if (kernel == KernelKind::kTiledRect) {
    MakeRect(lesson);
  } else {
    lesson.kernel = kernel;
  }
  return std::nullopt;
}

// One fill for both: B repeats A's kind, and a seeded random B takes the next seed, or it
// would repeat A's numbers.
std::optional<ValidationError> SetBothFills(const std::string& key, const std::string& value,
                                            const std::string& shown_as, LessonConfig& lesson) {
  if (auto error = SetFill(key, value, shown_as, lesson.fill_a)) return error;
  lesson.fill_b = lesson.fill_a;
  if (lesson.fill_b.kind == FillKind::kRandom) ++lesson.fill_b.seed;
  return std::nullopt;
}

std::string FieldList() {
  std::string list;
  for (const LessonField& field : LessonFields()) list += (list.empty() ? "" : ", ") + std::string(field.key);
  return list;
}

}  // namespace

std::optional<std::uint64_t> ParseSeed(const std::string& text) {
  if (!AllDigits(text)) return std::nullopt;
  errno = 0;
  const unsigned long long number = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return number;
}

std::string SeedProblem(const std::string& shown_as, const std::string& value) {
  return shown_as + " " + Quoted(value) + " is not a whole number from 0 to 2^64-1";
}

const std::vector<LessonField>& LessonFields() {
  static const std::vector<LessonField> fields{
      {"m", "N", "Rows of A and C (default 4)"},
      {"n", "N", "Columns of B and C (default 4)"},
      {"k", "N", "Columns of A, rows of B: the inner dimension (default 4)"},
      {"kernel", "tiled, rect or naive", "tiled (02_tiled.cu), rect (03_tiled_rect.cu) or naive (01_naive.cu)"},
      {"tile", "T", "Square tile T: blocks of T×T threads (default 2)"},
      {"tm", "N", "Rectangular tiles: rows of C per block (block height); makes the kernel rect"},
      {"tn", "N", "Rectangular tiles: columns of C per block (block width); makes the kernel rect"},
      {"tk", "N", "Rectangular tiles: slice of K per phase; makes the kernel rect"},
      {"barrier1", "syncthreads, syncwarp or off", "1st barrier (after the loads): syncthreads, syncwarp or off"},
      {"barrier2", "syncthreads, syncwarp or off", "2nd barrier (after the products): syncthreads, syncwarp or off"},
      {"guard", "on or off", "Bounds guard: on (default) or off (out-of-bounds accesses are flagged)"},
      {"bs_layout", "row-major or transposed",
       "Layout of the B tile: row-major (Bs[k][tx], default) or transposed (Bs[tx][k]: bank conflicts)"},
      {"tiles", "ceil or floor", "Tile count: ceil (ceil(K/T), default) or floor (K/T: skips the tail)"},
      {"scheduler", "realistic, thread, random or race", "realistic (default), thread, random or race (race-exposing)"},
      {"seed", "N", "Scheduler seed (default 1)"},
      {"fill", kFillForms, "Fill of A and B: sequence (1..n, default), identity or random[:SEED]"},
      {"fill_a", kFillForms, "Fill of A alone: sequence, identity or random[:SEED]"},
      {"fill_b", kFillForms, "Fill of B alone: sequence, identity or random[:SEED]"},
  };
  return fields;
}

std::optional<ValidationError> ApplyLessonEdit(const std::string& key, const std::string& value, LessonConfig& lesson,
                                               const std::string& shown_as) {
  if (key == "m") return SetInt(key, value, shown_as, lesson.m);
  if (key == "n") return SetInt(key, value, shown_as, lesson.n);
  if (key == "k") return SetInt(key, value, shown_as, lesson.k);
  if (key == "kernel") return SetKernel(key, value, shown_as, lesson);
  if (key == "tile") return SetTile(key, value, shown_as, lesson);
  if (key == "tm") return SetRectSide(key, value, shown_as, lesson, &TileShape::tm);
  if (key == "tn") return SetRectSide(key, value, shown_as, lesson, &TileShape::tn);
  if (key == "tk") return SetRectSide(key, value, shown_as, lesson, &TileShape::tk);
  if (key == "barrier1") return SetName(key, value, shown_as, lesson.barrier1, ParseBarrier, SyncKindNames());
  if (key == "barrier2") return SetName(key, value, shown_as, lesson.barrier2, ParseBarrier, SyncKindNames());
  if (key == "guard") return SetSwitch(key, value, shown_as, lesson.guard);
  if (key == "bs_layout") {
    return SetName(key, value, shown_as, lesson.bs_layout, ParseSharedLayout, SharedLayoutNames());
  }
  if (key == "tiles") return SetName(key, value, shown_as, lesson.tile_count, ParseTileCount, TileCountNames());
  if (key == "scheduler") {
    return SetName(key, value, shown_as, lesson.scheduler, ParseSchedulerKind, SchedulerKindNames());
  }
  if (key == "seed") return SetSeed(key, value, shown_as, lesson.seed);
  if (key == "fill") return SetBothFills(key, value, shown_as, lesson);
  if (key == "fill_a") return SetFill(key, value, shown_as, lesson.fill_a);
  if (key == "fill_b") return SetFill(key, value, shown_as, lesson.fill_b);
  return ValidationError{key, "unknown lesson field \"" + key + "\": the fields are " + FieldList()};
}

std::optional<ValidationError> ApplyLessonEdits(const std::string& edits, LessonConfig& lesson) {
  std::string spaced = edits;
  for (char& c : spaced) {
    if (c == ',') c = ' ';
  }
  std::istringstream in(spaced);
  std::string pair;
  bool any = false;
  while (in >> pair) {
    const std::size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      return ValidationError{"", "\"" + pair + "\" is not of the form field=value (e.g. m=8)"};
    }
    const std::string key = pair.substr(0, equals);
    if (auto error = ApplyLessonEdit(key, pair.substr(equals + 1), lesson, key)) return error;
    any = true;
  }
  if (!any) return ValidationError{"", "no change given: write field=value, e.g. m=8"};
  return std::nullopt;
}

std::string FillText(const MatrixFill& fill) {
  if (fill.kind == FillKind::kRandom) return "random:" + std::to_string(fill.seed);
  return Name(fill.kind);
}

std::optional<std::string> ApplyCellEdit(const std::string& argument, const std::vector<float>& a,
                                         const std::vector<float>& b, LessonConfig& lesson) {
  std::istringstream in(argument);
  std::string matrix;
  long long row = -1;
  long long col = -1;
  float value = 0.0f;
  if (!(in >> matrix >> row >> col >> value) || (matrix != "A" && matrix != "B")) {
    return "edit-cell wants \"A|B ROW COL VALUE\", e.g. \"A 2 1 10.5\"; got \"" + argument + "\"";
  }
  const bool is_a = matrix == "A";
  const int rows = is_a ? lesson.m : lesson.k;
  const int cols = is_a ? lesson.k : lesson.n;
  if (row < 0 || col < 0 || row >= rows || col >= cols) {
    return "edit-cell: " + matrix + "[" + std::to_string(row) + "][" + std::to_string(col) + "] is outside " + matrix +
           " (" + std::to_string(rows) + "\u00D7" + std::to_string(cols) + ")";
  }
  if (!std::isfinite(value)) return "edit-cell: the value must be a finite number";
  std::vector<float> values = is_a ? a : b;
  values[static_cast<std::size_t>(row * cols + col)] = value;
  lesson.fill_a = MatrixFill::Explicit(is_a ? values : a);
  lesson.fill_b = MatrixFill::Explicit(is_a ? b : values);
  return std::nullopt;
}

}  // namespace sim
