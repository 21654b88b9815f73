#include "app/gui/lesson_edit.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "kernels/test_vector_file.h"

namespace gui {
namespace {

sim::ValidationError Bad(const std::string& field, const std::string& message) { return {field, message}; }

std::optional<long long> ParseInteger(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

std::optional<sim::ValidationError> SetInt(const std::string& key, const std::string& value, int& field) {
  const std::optional<long long> number = ParseInteger(value);
  if (!number) return Bad(key, key + " = \"" + value + "\" is not a whole number");
  // Out-of-range values stay visible to Validate(), which names the limit; only what
  // cannot be an int at all is refused here.
  if (*number < -(1ll << 31) || *number > (1ll << 31) - 1) return Bad(key, key + " = " + value + " is out of range");
  field = static_cast<int>(*number);
  return std::nullopt;
}

std::optional<sim::ValidationError> SetSeed(const std::string& key, const std::string& value, std::uint64_t& seed) {
  const std::optional<long long> number = ParseInteger(value);
  if (!number || *number < 0) return Bad(key, key + " = \"" + value + "\" is not a non-negative whole number");
  seed = static_cast<std::uint64_t>(*number);
  return std::nullopt;
}

template <typename Enum>
std::optional<sim::ValidationError> SetName(const std::string& key, const std::string& value, Enum& field,
                                            std::optional<Enum> (*parse)(const std::string&), const char* allowed) {
  const std::optional<Enum> parsed = parse(value);
  if (!parsed) return Bad(key, key + " = \"" + value + "\" is not one of " + allowed);
  field = *parsed;
  return std::nullopt;
}

std::optional<sim::ValidationError> SetFill(const std::string& key, const std::string& value, sim::MatrixFill& fill) {
  const std::string kind = value.substr(0, value.find(':'));
  if (kind == "sequence" && kind == value) {
    fill = sim::MatrixFill::Sequence();
  } else if (kind == "identity" && kind == value) {
    fill = sim::MatrixFill::Identity();
  } else if (kind == "random") {
    std::uint64_t seed = fill.kind == sim::FillKind::kRandom ? fill.seed : 1;
    if (kind != value) {
      if (auto error = SetSeed(key, value.substr(kind.size() + 1), seed)) return error;
    }
    fill = sim::MatrixFill::Random(seed);
  } else {
    return Bad(key, key + " = \"" + value + "\" is not one of sequence, identity, random:SEED");
  }
  return std::nullopt;
}

std::optional<sim::ValidationError> SetBool(const std::string& key, const std::string& value, bool& field) {
  if (value == "on" || value == "true") {
    field = true;
  } else if (value == "off" || value == "false") {
    field = false;
  } else {
    return Bad(key, key + " = \"" + value + "\" is not on or off");
  }
  return std::nullopt;
}

std::optional<sim::ValidationError> ApplyOne(const std::string& key, const std::string& value,
                                             sim::LessonConfig& lesson) {
  if (key == "m") return SetInt(key, value, lesson.m);
  if (key == "n") return SetInt(key, value, lesson.n);
  if (key == "k") return SetInt(key, value, lesson.k);
  if (key == "tile") return SetInt(key, value, lesson.tile);
  if (key == "tm") return SetInt(key, value, lesson.rect.tm);
  if (key == "tn") return SetInt(key, value, lesson.rect.tn);
  if (key == "tk") return SetInt(key, value, lesson.rect.tk);
  if (key == "seed") return SetSeed(key, value, lesson.seed);
  if (key == "guard") return SetBool(key, value, lesson.guard);
  if (key == "fill_a") return SetFill(key, value, lesson.fill_a);
  if (key == "fill_b") return SetFill(key, value, lesson.fill_b);
  if (key == "kernel") return SetName(key, value, lesson.kernel, sim::ParseKernelKind, "tiled, rect, naive");
  if (key == "barrier1") return SetName(key, value, lesson.barrier1, sim::ParseSyncKind, "syncthreads, syncwarp, off");
  if (key == "barrier2") return SetName(key, value, lesson.barrier2, sim::ParseSyncKind, "syncthreads, syncwarp, off");
  if (key == "tiles") return SetName(key, value, lesson.tile_count, sim::ParseTileCount, "ceil, floor");
  if (key == "scheduler") {
    return SetName(key, value, lesson.scheduler, sim::ParseSchedulerKind, "realistic, thread, random, race");
  }
  return Bad(key, "unknown lesson field \"" + key +
                      "\": the fields are m, n, k, tile, tm, tn, tk, kernel, barrier1, barrier2, guard, tiles, "
                      "scheduler, seed, fill_a, fill_b");
}

}  // namespace

std::optional<sim::ValidationError> ApplyLessonEdits(const std::string& edits, sim::LessonConfig& lesson) {
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
      return Bad("", "\"" + pair + "\" is not of the form field=value (e.g. m=8)");
    }
    if (auto error = ApplyOne(pair.substr(0, equals), pair.substr(equals + 1), lesson)) return error;
    any = true;
  }
  if (!any) return Bad("", "no change given: write field=value, e.g. m=8");
  return std::nullopt;
}

std::string FillText(const sim::MatrixFill& fill) {
  if (fill.kind == sim::FillKind::kRandom) return "random:" + std::to_string(fill.seed);
  return sim::Name(fill.kind);
}

std::optional<sim::ValidationError> LoadTestVectorCase(const std::string& path, int index, sim::LessonConfig& lesson) {
  if (path.empty()) return Bad("fill_file", "give the path of a test-vector file (seed 003's binary format)");
  const kernels::TestVectorRead read = kernels::ReadTestVectors(path);
  if (index < 0 || index >= static_cast<int>(read.cases.size())) {
    const std::string why = read.ok() ? "it holds " + std::to_string(read.cases.size()) + " cases" : read.error;
    return Bad("fill_file", path + ": no case " + std::to_string(index + 1) + " (" + why + ")");
  }
  const kernels::TestVectorCase& chosen = read.cases[static_cast<std::size_t>(index)];
  constexpr long long kLargest = sim::kMaxDimension;
  if (chosen.shape.m > kLargest || chosen.shape.n > kLargest || chosen.shape.k > kLargest) {
    return Bad("fill_file", path + ": case " + std::to_string(index + 1) + " is " + kernels::ToString(chosen.shape) +
                                ", larger than the model's limit of " + std::to_string(kLargest));
  }
  lesson.m = static_cast<int>(chosen.shape.m);
  lesson.n = static_cast<int>(chosen.shape.n);
  lesson.k = static_cast<int>(chosen.shape.k);
  lesson.fill_a = sim::MatrixFill::Explicit(chosen.a);
  lesson.fill_b = sim::MatrixFill::Explicit(chosen.b);
  return std::nullopt;
}

}  // namespace gui
