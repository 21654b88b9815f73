#include "sim/lesson_file.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/atomic_file.h"
#include "sim/input_file.h"
#include "sim/json_input.h"

namespace sim {
namespace {

using nlohmann::json;

const std::set<std::string> kKnownKeys{
    "version", "name",     "description", "m",     "n",     "k",         "kernel", "tile",   "tm",    "tn",
    "tk",      "barrier1", "barrier2",    "guard", "tiles", "scheduler", "seed",   "fill_a", "fill_b"};

// A bad value: thrown inside the parser, turned into LessonLoad::error.
struct BadValue {
  std::string message;
};

std::string Quote(const char* key, const json& value) { return std::string(key) + " = " + DescribeJsonValue(value); }

int ReadInt(const json& doc, const char* key, int fallback) {
  if (!doc.contains(key)) return fallback;
  const json& value = doc.at(key);
  if (!value.is_number_integer()) throw BadValue{Quote(key, value) + " is not an integer"};
  // Integers above 2^63 - 1 are stored unsigned: read as signed they would turn negative
  // (18446744073709551615 became "m = -1"), so they are compared as they were given.
  const bool fits = value.is_number_unsigned()
                        ? value.get<std::uint64_t>() <= std::uint64_t{std::numeric_limits<int>::max()}
                        : value.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                              value.get<std::int64_t>() <= std::numeric_limits<int>::max();
  if (!fits) throw BadValue{Quote(key, value) + " is out of range"};
  return value.get<int>();
}

// A matrix value: a JSON number that float can hold. 1e39 would become inf, and a lesson
// holding inf saves as null and cannot be opened again.
float ReadFloat(const json& value, const std::string& where) {
  if (!value.is_number()) throw BadValue{where + " = " + DescribeJsonValue(value) + " is not a number"};
  const double number = value.get<double>();
  if (std::fabs(number) > std::numeric_limits<float>::max()) {
    throw BadValue{where + " = " + DescribeJsonValue(value) + " is beyond the float range (largest 3.40282e+38)"};
  }
  return static_cast<float>(number);
}

template <typename Enum>
Enum ReadName(const json& doc, const char* key, Enum fallback, std::optional<Enum> (*parse)(const std::string&),
              const char* allowed) {
  if (!doc.contains(key)) return fallback;
  const json& value = doc.at(key);
  if (value.is_string()) {
    if (auto parsed = parse(value.get<std::string>())) return *parsed;
  }
  throw BadValue{Quote(key, value) + " is not one of " + allowed};
}

MatrixFill ReadFill(const json& doc, const char* key, std::vector<std::string>& warnings) {
  if (!doc.contains(key)) return MatrixFill::Sequence();
  const json& value = doc.at(key);
  if (!value.is_object()) throw BadValue{Quote(key, value) + " is not an object"};
  MatrixFill fill;
  fill.kind = ReadName(value, "kind", FillKind::kSequence, ParseFillKind, "sequence, random, identity, values");
  if (value.contains("seed")) {
    if (!value.at("seed").is_number_unsigned())
      throw BadValue{std::string(key) + ".seed must be a non-negative integer"};
    fill.seed = value.at("seed").get<std::uint64_t>();
  }
  if (fill.kind == FillKind::kExplicit) {
    if (!value.contains("values") || !value.at("values").is_array()) {
      throw BadValue{std::string(key) + " of kind values needs a \"values\" array"};
    }
    const json& values = value.at("values");
    for (std::size_t i = 0; i < values.size(); ++i) {
      fill.values.push_back(ReadFloat(values[i], std::string(key) + ".values[" + std::to_string(i) + "]"));
    }
  }
  for (const auto& item : value.items()) {
    if (item.key() != "kind" && item.key() != "seed" && item.key() != "values") {
      warnings.push_back("unknown key '" + std::string(key) + "." + item.key() + "' ignored");
    }
  }
  return fill;
}

LessonConfig ReadLesson(const json& doc, std::vector<std::string>& warnings) {
  if (!doc.is_object()) throw BadValue{"a lesson file holds one JSON object"};
  const int version = ReadInt(doc, "version", kLessonFileVersion);
  if (version < 1 || version > kLessonFileVersion) {
    throw BadValue{"version = " + std::to_string(version) + " is not supported: this TileScope reads version " +
                   std::to_string(kLessonFileVersion)};
  }
  for (const auto& item : doc.items()) {
    if (kKnownKeys.count(item.key()) == 0) warnings.push_back("unknown key '" + item.key() + "' ignored");
  }
  LessonConfig lesson;
  if (doc.contains("name")) lesson.name = doc.at("name").is_string() ? doc.at("name").get<std::string>() : lesson.name;
  if (doc.contains("description") && doc.at("description").is_string()) {
    lesson.description = doc.at("description").get<std::string>();
  }
  lesson.m = ReadInt(doc, "m", lesson.m);
  lesson.n = ReadInt(doc, "n", lesson.n);
  lesson.k = ReadInt(doc, "k", lesson.k);
  lesson.kernel = ReadName(doc, "kernel", lesson.kernel, ParseKernelKind, "tiled, rect, naive");
  lesson.tile = ReadInt(doc, "tile", lesson.tile);
  lesson.rect = {ReadInt(doc, "tm", lesson.tile), ReadInt(doc, "tn", lesson.tile), ReadInt(doc, "tk", lesson.tile)};
  lesson.barrier1 = ReadName(doc, "barrier1", lesson.barrier1, ParseSyncKind, "syncthreads, syncwarp, off");
  lesson.barrier2 = ReadName(doc, "barrier2", lesson.barrier2, ParseSyncKind, "syncthreads, syncwarp, off");
  if (doc.contains("guard")) {
    if (!doc.at("guard").is_boolean()) throw BadValue{Quote("guard", doc.at("guard")) + " is not true or false"};
    lesson.guard = doc.at("guard").get<bool>();
  }
  lesson.tile_count = ReadName(doc, "tiles", lesson.tile_count, ParseTileCount, "ceil, floor");
  lesson.scheduler =
      ReadName(doc, "scheduler", lesson.scheduler, ParseSchedulerKind, "realistic, thread, random, race");
  if (doc.contains("seed")) {
    if (!doc.at("seed").is_number_unsigned()) {
      throw BadValue{Quote("seed", doc.at("seed")) + " is not a non-negative integer"};
    }
    lesson.seed = doc.at("seed").get<std::uint64_t>();
  }
  lesson.fill_a = ReadFill(doc, "fill_a", warnings);
  lesson.fill_b = ReadFill(doc, "fill_b", warnings);
  return lesson;
}

json FillToJson(const MatrixFill& fill) {
  json out{{"kind", Name(fill.kind)}};
  if (fill.kind == FillKind::kRandom) out["seed"] = fill.seed;
  if (fill.kind == FillKind::kExplicit) out["values"] = fill.values;
  return out;
}

LessonConfig Preset(const char* name, const char* description, int m, int n, int k, int tile) {
  LessonConfig lesson;
  lesson.name = name;
  lesson.description = description;
  lesson.m = m;
  lesson.n = n;
  lesson.k = k;
  lesson.tile = tile;
  return lesson;
}

}  // namespace

LessonLoad ParseLesson(const std::string& json_text) {
  LessonLoad load;
  const JsonDocument document = ParseJsonText(json_text);
  if (!document.ok()) {
    load.error = document.error;
    return load;
  }
  try {
    LessonConfig lesson = ReadLesson(document.value, load.warnings);
    if (auto error = Validate(lesson)) {
      load.error = error->message;
      return load;
    }
    load.lesson = std::move(lesson);
  } catch (const BadValue& bad) {
    load.error = bad.message;
  } catch (const json::exception& error) {
    // Every read above checks the type first; this is the boundary should one not, so a
    // lesson can never take the app down.
    load.error = std::string("unexpected value: ") + error.what();
  }
  return load;
}

LessonLoad ReadLessonFile(const std::string& path) {
  LessonLoad load;
  const InputFile file = ReadInputFile(path, kMaxLessonFileBytes);
  if (!file.ok()) {
    load.error = "lesson file " + file.error;
    return load;
  }
  load = ParseLesson(file.bytes);
  if (!load.error.empty()) load.error = path + ": " + load.error;
  return load;
}

std::string LessonToJson(const LessonConfig& lesson) {
  json out;
  out["version"] = kLessonFileVersion;
  out["name"] = lesson.name;
  if (!lesson.description.empty()) out["description"] = lesson.description;
  out["m"] = lesson.m;
  out["n"] = lesson.n;
  out["k"] = lesson.k;
  out["kernel"] = Name(lesson.kernel);
  if (lesson.kernel == KernelKind::kTiledRect) {
    out["tm"] = lesson.rect.tm;
    out["tn"] = lesson.rect.tn;
    out["tk"] = lesson.rect.tk;
  } else {
    out["tile"] = lesson.tile;
  }
  out["barrier1"] = Name(lesson.barrier1);
  out["barrier2"] = Name(lesson.barrier2);
  out["guard"] = lesson.guard;
  out["tiles"] = Name(lesson.tile_count);
  out["scheduler"] = Name(lesson.scheduler);
  out["seed"] = lesson.seed;
  out["fill_a"] = FillToJson(lesson.fill_a);
  out["fill_b"] = FillToJson(lesson.fill_b);
  return out.dump(2) + "\n";
}

std::string WriteLessonFile(const std::string& path, const LessonConfig& lesson) {
  // A lesson that would not load again (an inf value saves as null) is not saved at all.
  if (auto error = Validate(lesson)) return "not saved to " + path + ": " + error->message;
  return WriteFileAtomically(path, LessonToJson(lesson)).value_or("");
}

LessonConfig DefaultLesson() {
  return Preset("default", "A·B with A = B = 1..16 as 4×4, TILE 2: two phases, four one-warp blocks", 4, 4, 4, 2);
}

std::vector<LessonConfig> Presets() {
  std::vector<LessonConfig> presets{DefaultLesson()};
  presets.push_back(
      Preset("tile4_8x8x8", "M = N = K = 8 with TILE 4: four blocks of 16 threads, two phases", 8, 8, 8, 4));
  presets.push_back(
      Preset("padded_6x5x7", "M = 6, N = 5, K = 7 with TILE 4: edge tiles padded with zeros", 6, 5, 7, 4));
  LessonConfig rect =
      Preset("rect_4x2x4", "Rectangular tiles TM = 4, TN = 2, TK = 4: strided loads, two per thread", 8, 8, 8, 2);
  rect.kernel = KernelKind::kTiledRect;
  rect.rect = {4, 2, 4};
  presets.push_back(rect);
  LessonConfig naive =
      Preset("naive", "The naive kernel on the default lesson: 128 global reads instead of 64", 4, 4, 4, 2);
  naive.kernel = KernelKind::kNaive;
  presets.push_back(naive);
  LessonConfig race =
      Preset("race_tile16", "TILE 16 without the first barrier: eight warps per block, C goes wrong", 32, 32, 64, 16);
  race.barrier1 = SyncKind::kNone;
  race.fill_a = MatrixFill::Random(1);
  race.fill_b = MatrixFill::Random(2);
  presets.push_back(race);
  return presets;
}

}  // namespace sim
