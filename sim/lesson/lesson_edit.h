// lesson_edit.h — the lesson's one grammar: a change to a lesson by field name and the text
// of its value ("m" "8", "barrier1" "syncwarp", "fill_a" "random:7"). `tilescope trace`'s
// flags, lesson files, tours and --actions scripts write edits as text, and ReadLessonEdit
// is the one reader of that text, so each field is read by one set of rules everywhere. The
// field names are the lesson file's keys.
//
// What it reads is a LessonEdit: the field and its value as the lesson holds it (a SyncKind,
// an int, a fill). The GUI's fields and keys build LessonEdits directly, and Apply() is the
// one place an edit changes a lesson, whoever made it.
//
// A value that cannot be read is refused the way Validate() refuses one out of range: the
// field it concerns and one line that quotes what was given. Ranges are Validate()'s.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/lesson/lesson_config.h"

namespace sim {

// The lesson's whole-number fields that an edit sets as given ("tile" also resizes a
// rectangular lesson's tiles; "tm", "tn" and "tk" make the kernel rectangular).
enum class SizeField : std::uint8_t { kM, kN, kK, kTile, kTm, kTn, kTk };
struct SizeEdit {
  SizeField field = SizeField::kM;
  int value = 0;
};
struct KernelEdit {
  KernelKind kernel = KernelKind::kTiled;
};
// The two sync points of the tiled kernels: after the loads, and after the products.
enum class BarrierSlot : std::uint8_t { kFirst, kSecond };
struct BarrierEdit {
  BarrierSlot slot = BarrierSlot::kFirst;
  SyncKind kind = SyncKind::kSyncthreads;
};
struct GuardEdit {
  bool on = true;
};
struct LayoutEdit {
  SharedLayout layout = SharedLayout::kRowMajor;
};
struct TileCountEdit {
  TileCount count = TileCount::kCeil;
};
struct SchedulerEdit {
  SchedulerKind scheduler = SchedulerKind::kRealistic;
};
struct SeedEdit {
  std::uint64_t seed = 1;
};
// "fill" sets both matrices, "fill_a" and "fill_b" one each.
enum class FillTarget : std::uint8_t { kBoth, kA, kB };
struct FillEdit {
  FillTarget target = FillTarget::kBoth;
  FillKind kind = FillKind::kSequence;  // sequence, identity or random: explicit values come from files
  // kRandom: the seed; nullopt ("random" alone) keeps the matrix's seed if it is random already, else 1.
  std::optional<std::uint64_t> seed;
};
using LessonEdit = std::variant<SizeEdit, KernelEdit, BarrierEdit, GuardEdit, LayoutEdit, TileCountEdit,
                                SchedulerEdit, SeedEdit, FillEdit>;

// Changes `lesson` as `edit` says. Never refuses: whether the result can run is Validate()'s
// to say, as for a lesson typed in a file.
void Apply(const LessonEdit& edit, LessonConfig& lesson);

struct LessonField {
  const char* key;    // "fill_a": the lesson file's key, the GUI's field=value name
  const char* value;  // what it takes, for help: "syncthreads, syncwarp or off"
  const char* help;   // one line
};

// Every field, in the order edits are applied when several arrive at once (the kernel before
// its tiles, the tiles before the barriers, one fill for both before either alone).
const std::vector<LessonField>& LessonFields();

// Reads one field's value. `shown_as` is how the caller's user names the field ("m" in the
// GUI, "--m" on the command line); messages quote it and the value as given.
std::optional<ValidationError> ReadLessonEdit(const std::string& key, const std::string& value,
                                              const std::string& shown_as, LessonEdit& edit);

// Reads "key=value" pairs, separated by spaces or commas, in the order given (the order they
// are to be applied in). Returns the first that cannot be read, and then `edits` is empty.
std::optional<ValidationError> ReadLessonEdits(const std::string& text, std::vector<LessonEdit>& edits);

// Reads and applies one field, or "key=value" pairs: `lesson` is changed only when all of it
// can be read.
std::optional<ValidationError> ApplyLessonEdit(const std::string& key, const std::string& value, LessonConfig& lesson,
                                               const std::string& shown_as);
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
