#include "sim/lesson/lesson_edit.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/io/number_text.h"


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

std::optional<ValidationError> ReadInt(const std::string& key, const std::string& value, const std::string& shown_as,
                                       int& number) {
  const bool negative = !value.empty() && value[0] == '-';
  if (!AllDigits(negative ? value.substr(1) : value)) return Bad(key, shown_as, value, "is not a whole number");
  errno = 0;
  const long long read = std::strtoll(value.c_str(), nullptr, 10);
  // Out-of-range ints stay visible to Validate(), which names the limit; only what cannot be
  // an int at all is refused here, quoting it as given.
  if (errno == ERANGE || read < INT_MIN || read > INT_MAX) {
    return Bad(key, shown_as, value, "is out of range: the limit is " + std::to_string(LimitOf(key)));
  }
  number = static_cast<int>(read);
  return std::nullopt;
}

template <typename Enum>
std::optional<ValidationError> ReadName(const std::string& key, const std::string& value, const std::string& shown_as,
                                        Enum& field, std::optional<Enum> (*parse)(const std::string&),
                                        const std::string& allowed) {
  const std::optional<Enum> parsed = parse(value);
  if (!parsed) return Bad(key, shown_as, value, "is not one of " + allowed);
  field = *parsed;
  return std::nullopt;
}

std::optional<ValidationError> ReadFill(const std::string& key, const std::string& value, const std::string& shown_as,
                                        FillEdit& fill) {
  if (value == "sequence") {
    fill.kind = FillKind::kSequence;
  } else if (value == "identity") {
    fill.kind = FillKind::kIdentity;
  } else if (value == "random") {
    fill.kind = FillKind::kRandom;
  } else if (value.rfind("random:", 0) == 0) {
    fill.seed = ParseSeed(value.substr(7));
    if (!fill.seed) return Bad(key, shown_as, value, "needs a whole-number seed from 0 to 2^64-1 after random:");
    fill.kind = FillKind::kRandom;
  } else {
    return Bad(key, shown_as, value, std::string("is not one of ") + kFillForms);
  }
  return std::nullopt;
}

std::optional<ValidationError> ReadSwitch(const std::string& key, const std::string& value,
                                          const std::string& shown_as, bool& on) {
  if (value == "on" || value == "true") {
    on = true;
  } else if (value == "off" || value == "false") {
    on = false;
  } else {
    return Bad(key, shown_as, value, "is not one of on, off");
  }
  return std::nullopt;
}

std::optional<SyncKind> ParseBarrier(const std::string& text) { return ParseSyncKind(text == "none" ? "off" : text); }

// Each kind of field read into its edit; the key picks the field where one kind has several.
template <typename Edit, typename Read>
std::optional<ValidationError> ReadInto(LessonEdit& edit, Edit typed, Read read) {
  if (auto error = read(typed)) return error;
  edit = typed;
  return std::nullopt;
}

// ---- Applying ---------------------------------------------------------------------------

// A rectangular lesson made from a square one starts from its tile on every side.
void MakeRect(LessonConfig& lesson) {
  if (lesson.kernel == KernelKind::kTiledRect) return;
  lesson.kernel = KernelKind::kTiledRect;
  lesson.rect = {lesson.tile, lesson.tile, lesson.tile};
}

void ApplyEdit(const SizeEdit& edit, LessonConfig& lesson) {
  switch (edit.field) {
    case SizeField::kM:
      lesson.m = edit.value;
      return;
    case SizeField::kN:
      lesson.n = edit.value;
      return;
    case SizeField::kK:
      lesson.k = edit.value;
      return;
    case SizeField::kTile:
      lesson.tile = edit.value;
      // On a rectangular lesson, a square tile sets every side.
      if (lesson.kernel == KernelKind::kTiledRect) lesson.rect = {lesson.tile, lesson.tile, lesson.tile};
      return;
    case SizeField::kTm:
    case SizeField::kTn:
    case SizeField::kTk:
      MakeRect(lesson);
      (edit.field == SizeField::kTm ? lesson.rect.tm : edit.field == SizeField::kTn ? lesson.rect.tn : lesson.rect.tk) =
          edit.value;
      return;
  }
}

void ApplyEdit(const KernelEdit& edit, LessonConfig& lesson) {
  if (edit.kernel == KernelKind::kTiledRect) {
    MakeRect(lesson);
  } else {
    lesson.kernel = edit.kernel;
  }
}

void ApplyEdit(const BarrierEdit& edit, LessonConfig& lesson) {
  (edit.slot == BarrierSlot::kFirst ? lesson.barrier1 : lesson.barrier2) = edit.kind;
}

void ApplyEdit(const GuardEdit& edit, LessonConfig& lesson) { lesson.guard = edit.on; }
void ApplyEdit(const LayoutEdit& edit, LessonConfig& lesson) { lesson.bs_layout = edit.layout; }
void ApplyEdit(const TileCountEdit& edit, LessonConfig& lesson) { lesson.tile_count = edit.count; }
void ApplyEdit(const SchedulerEdit& edit, LessonConfig& lesson) { lesson.scheduler = edit.scheduler; }
void ApplyEdit(const SeedEdit& edit, LessonConfig& lesson) { lesson.seed = edit.seed; }

MatrixFill FillOf(const FillEdit& edit, const MatrixFill& before) {
  switch (edit.kind) {
    case FillKind::kIdentity:
      return MatrixFill::Identity();
    case FillKind::kRandom:
      return MatrixFill::Random(edit.seed ? *edit.seed : before.kind == FillKind::kRandom ? before.seed : 1);
    case FillKind::kSequence:
    case FillKind::kExplicit:  // not readable from text; a lesson file's values are its own
      break;
  }
  return MatrixFill::Sequence();
}

void ApplyEdit(const FillEdit& edit, LessonConfig& lesson) {
  if (edit.target == FillTarget::kB) {
    lesson.fill_b = FillOf(edit, lesson.fill_b);
    return;
  }
  lesson.fill_a = FillOf(edit, lesson.fill_a);
  if (edit.target == FillTarget::kA) return;
  // One fill for both: B repeats A's kind, and a seeded random B takes the next seed, or it
  // would repeat A's numbers.
  lesson.fill_b = lesson.fill_a;
  if (lesson.fill_b.kind == FillKind::kRandom) ++lesson.fill_b.seed;
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

void Apply(const LessonEdit& edit, LessonConfig& lesson) {
  std::visit([&lesson](const auto& typed) { ApplyEdit(typed, lesson); }, edit);
}

std::optional<ValidationError> ReadLessonEdit(const std::string& key, const std::string& value,
                                              const std::string& shown_as, LessonEdit& edit) {
  const auto size = [&](SizeField field) {
    return ReadInto(edit, SizeEdit{field, 0},
                    [&](SizeEdit& typed) { return ReadInt(key, value, shown_as, typed.value); });
  };
  const auto barrier = [&](BarrierSlot slot) {
    return ReadInto(edit, BarrierEdit{slot, SyncKind::kSyncthreads}, [&](BarrierEdit& typed) {
      return ReadName(key, value, shown_as, typed.kind, ParseBarrier, SyncKindNames());
    });
  };
  const auto fill = [&](FillTarget target) {
    return ReadInto(edit, FillEdit{target, FillKind::kSequence, std::nullopt},
                    [&](FillEdit& typed) { return ReadFill(key, value, shown_as, typed); });
  };
  if (key == "m") return size(SizeField::kM);
  if (key == "n") return size(SizeField::kN);
  if (key == "k") return size(SizeField::kK);
  if (key == "kernel") {
    return ReadInto(edit, KernelEdit{}, [&](KernelEdit& typed) {
      return ReadName(key, value, shown_as, typed.kernel, ParseKernelKind, KernelKindNames());
    });
  }
  if (key == "tile") return size(SizeField::kTile);
  if (key == "tm") return size(SizeField::kTm);
  if (key == "tn") return size(SizeField::kTn);
  if (key == "tk") return size(SizeField::kTk);
  if (key == "barrier1") return barrier(BarrierSlot::kFirst);
  if (key == "barrier2") return barrier(BarrierSlot::kSecond);
  if (key == "guard") {
    return ReadInto(edit, GuardEdit{}, [&](GuardEdit& typed) { return ReadSwitch(key, value, shown_as, typed.on); });
  }
  if (key == "bs_layout") {
    return ReadInto(edit, LayoutEdit{}, [&](LayoutEdit& typed) {
      return ReadName(key, value, shown_as, typed.layout, ParseSharedLayout, SharedLayoutNames());
    });
  }
  if (key == "tiles") {
    return ReadInto(edit, TileCountEdit{}, [&](TileCountEdit& typed) {
      return ReadName(key, value, shown_as, typed.count, ParseTileCount, TileCountNames());
    });
  }
  if (key == "scheduler") {
    return ReadInto(edit, SchedulerEdit{}, [&](SchedulerEdit& typed) {
      return ReadName(key, value, shown_as, typed.scheduler, ParseSchedulerKind, SchedulerKindNames());
    });
  }
  if (key == "seed") {
    return ReadInto(edit, SeedEdit{}, [&](SeedEdit& typed) -> std::optional<ValidationError> {
      const std::optional<std::uint64_t> seed = ParseSeed(value);
      if (!seed) return ValidationError{key, SeedProblem(shown_as, value)};
      typed.seed = *seed;
      return std::nullopt;
    });
  }
  if (key == "fill") return fill(FillTarget::kBoth);
  if (key == "fill_a") return fill(FillTarget::kA);
  if (key == "fill_b") return fill(FillTarget::kB);
  return ValidationError{key, "unknown lesson field \"" + key + "\": the fields are " + FieldList()};
}

std::optional<ValidationError> ReadLessonEdits(const std::string& text, std::vector<LessonEdit>& edits) {
  edits.clear();
  std::string spaced = text;
  for (char& c : spaced) {
    if (c == ',') c = ' ';
  }
  std::istringstream in(spaced);
  std::string pair;
  while (in >> pair) {
    const std::size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      edits.clear();
      return ValidationError{"", "\"" + pair + "\" is not of the form field=value (e.g. m=8)"};
    }
    const std::string key = pair.substr(0, equals);
    LessonEdit edit;
    if (auto error = ReadLessonEdit(key, pair.substr(equals + 1), key, edit)) {
      edits.clear();
      return error;
    }
    edits.push_back(edit);
  }
  if (edits.empty()) return ValidationError{"", "no change given: write field=value, e.g. m=8"};
  return std::nullopt;
}

std::optional<ValidationError> ApplyLessonEdit(const std::string& key, const std::string& value, LessonConfig& lesson,
                                               const std::string& shown_as) {
  LessonEdit edit;
  if (auto error = ReadLessonEdit(key, value, shown_as, edit)) return error;
  Apply(edit, lesson);
  return std::nullopt;
}

std::optional<ValidationError> ApplyLessonEdits(const std::string& edits, LessonConfig& lesson) {
  std::vector<LessonEdit> read;
  if (auto error = ReadLessonEdits(edits, read)) return error;
  for (const LessonEdit& edit : read) Apply(edit, lesson);
  return std::nullopt;
}

std::string FillText(const MatrixFill& fill) {
  if (fill.kind == FillKind::kRandom) return "random:" + std::to_string(fill.seed);
  return Name(fill.kind);
}

std::optional<std::string> ApplyCellEdit(const std::string& argument, const std::vector<float>& a,
                                         const std::vector<float>& b, LessonConfig& lesson) {
  std::istringstream in(argument);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (words.size() != 4 || (words[0] != "A" && words[0] != "B")) {
    return "edit-cell wants \"A|B ROW COL VALUE\", e.g. \"A 2 1 10.5\"; got \"" + argument + "\"";
  }
  const std::string& matrix = words[0];
  std::string problem;
  const std::optional<long long> row = ReadWhole(words[1], 0, kMaxDimension, problem);
  const std::optional<long long> col = row ? ReadWhole(words[2], 0, kMaxDimension, problem) : std::nullopt;
  if (!row || !col) return "edit-cell: the row and column are whole numbers from 0: " + problem;
  const std::optional<float> value = ReadFloat(words[3], problem);
  if (!value) return "edit-cell: the value " + problem;
  const bool is_a = matrix == "A";
  const int rows = is_a ? lesson.m : lesson.k;
  const int cols = is_a ? lesson.k : lesson.n;
  if (*row >= rows || *col >= cols) {
    return "edit-cell: " + matrix + "[" + std::to_string(*row) + "][" + std::to_string(*col) + "] is outside " + matrix +
           " (" + std::to_string(rows) + "\u00D7" + std::to_string(cols) + ")";
  }
  std::vector<float> values = is_a ? a : b;
  values[static_cast<std::size_t>(*row * cols + *col)] = *value;
  lesson.fill_a = MatrixFill::Explicit(is_a ? values : a);
  lesson.fill_b = MatrixFill::Explicit(is_a ? b : values);
  return std::nullopt;
}

}  // namespace sim
