#include "sim/lesson/validation.h"
#include "sim/lesson/lesson_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <system_error>

#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/io/json_input.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lessons_data.h"

#include <nlohmann/json.hpp>

namespace sim {
namespace {

using nlohmann::json;

// A bad value: thrown inside the parser, turned into LessonLoad::error.
struct BadValue {
  std::string message;
};

// The file's keys beyond the lesson grammar's fields (sim/lesson/lesson_edit.h).
const std::set<std::string> kFileKeys{"version", "name", "title", "description", "tour"};
// The first file version that may carry a tour.
constexpr int kTourVersion = 2;
// Grammar fields a file may not hold: "fill" sets both fills, which a file names one by one.
const std::set<std::string> kNotInFiles{"fill"};

bool IsWholeNumberField(const std::string& key) {
  return key == "m" || key == "n" || key == "k" || key == "tile" || key == "tm" || key == "tn" || key == "tk";
}

// JSON's -0 is zero (the parser reads it as a signed 0, which dumps as "0"): refusing it as
// "0 is not a non-negative integer" would contradict itself.
bool IsNonNegativeInteger(const json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() == 0);
}

// The JSON type each grammar field takes in a file, or what to say when it is another.
std::optional<std::string> TypeProblem(const std::string& key, const json& value) {
  if (key == "guard") return value.is_boolean() ? std::nullopt : std::optional<std::string>("is not true or false");
  if (key == "seed") {
    return IsNonNegativeInteger(value) ? std::nullopt : std::optional<std::string>("is not a non-negative integer");
  }
  if (IsWholeNumberField(key)) {
    return value.is_number_integer() ? std::nullopt : std::optional<std::string>("is not an integer");
  }
  return std::nullopt;  // a name: the grammar says what is allowed
}

// A JSON value as the grammar reads it: a string's text, a number's digits, true or false.
std::string GrammarText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_structured() ? DescribeJsonValue(value) : value.dump();  // a scalar dumps without recursing
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

MatrixFill ReadFill(const json& doc, const char* key, LessonConfig& lesson, std::vector<std::string>& warnings) {
  const json& value = doc.at(key);
  if (!value.is_object()) throw BadValue{std::string(key) + " = " + DescribeJsonValue(value) + " is not an object"};
  // No "kind" is a sequence; a kind that is not a name is an error, never read as a sequence.
  if (value.contains("kind") && !value.at("kind").is_string()) {
    throw BadValue{std::string(key) + ".kind = " + DescribeJsonValue(value.at("kind")) +
                   " is not a name (sequence, identity, random or values)"};
  }
  const std::string kind = value.value("kind", std::string("sequence"));
  MatrixFill fill;
  if (kind == "values") {
    if (!value.contains("values") || !value.at("values").is_array()) {
      throw BadValue{std::string(key) + " of kind values needs a \"values\" array"};
    }
    const json& values = value.at("values");
    for (std::size_t i = 0; i < values.size(); ++i) {
      fill.values.push_back(ReadFloat(values[i], std::string(key) + ".values[" + std::to_string(i) + "]"));
    }
    fill.kind = FillKind::kExplicit;
  } else {
    std::string text = kind;
    if (value.contains("seed")) {
      if (!IsNonNegativeInteger(value.at("seed"))) {
        throw BadValue{std::string(key) + ".seed must be a non-negative integer"};
      }
      text += ":" + value.at("seed").dump();
    }
    LessonConfig scratch = lesson;
    if (auto error = ApplyLessonEdit(key, text, scratch, std::string(key) + ".kind")) throw BadValue{error->message};
    fill = std::string(key) == "fill_a" ? scratch.fill_a : scratch.fill_b;
  }
  for (const auto& item : value.items()) {
    if (item.key() != "kind" && item.key() != "seed" && item.key() != "values") {
      warnings.push_back("unknown key '" + std::string(key) + "." + item.key() + "' ignored");
    }
  }
  return fill;
}

int ReadVersion(const json& doc) {
  if (!doc.contains("version")) return kLessonFileVersion;
  const json& value = doc.at("version");
  if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > kLessonFileVersion) {
    throw BadValue{"version = " + DescribeJsonValue(value) + " is not supported: this TileScope reads version " +
                   std::to_string(kLessonFileVersion)};
  }
  return static_cast<int>(value.get<long long>());
}

// A text the window draws, refused when longer than `limit` bytes (never cut: a cut name would
// be saved back as if it were the file's).
std::string BoundedText(const json& value, const std::string& key, std::size_t limit) {
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() > limit) {
    throw BadValue{key + " is " + std::to_string(text.size()) + " bytes long; a lesson's " + key + " is at most " +
                   std::to_string(limit)};
  }
  return text;
}

// Every field goes through the lesson grammar in the grammar's order, as the GUI's fields and
// the CLI's flags do; only the JSON type of each value is checked here.
LessonConfig ReadLesson(const json& doc, std::vector<std::string>& warnings) {
  if (!doc.is_object()) throw BadValue{"a lesson file holds one JSON object"};
  const int version = ReadVersion(doc);
  if (doc.contains("tour") && version < kTourVersion) {
    throw BadValue{"\"tour\" needs \"version\": " + std::to_string(kTourVersion) + " (this file says " +
                   std::to_string(version) + ")"};
  }
  std::set<std::string> known = kFileKeys;
  for (const LessonField& field : LessonFields()) {
    if (kNotInFiles.count(field.key) == 0) known.insert(field.key);
  }
  for (const auto& item : doc.items()) {
    if (known.count(item.key()) == 0) warnings.push_back("unknown key '" + item.key() + "' ignored");
  }
  LessonConfig lesson;
  if (doc.contains("name") && doc.at("name").is_string()) {
    lesson.name = BoundedText(doc.at("name"), "name", kMaxLessonNameBytes);
  }
  if (doc.contains("title") && doc.at("title").is_string()) {
    lesson.title = BoundedText(doc.at("title"), "title", kMaxLessonNameBytes);
  }
  if (doc.contains("description") && doc.at("description").is_string()) {
    lesson.description = BoundedText(doc.at("description"), "description", kMaxLessonTextBytes);
  }
  for (const LessonField& field : LessonFields()) {
    const std::string key = field.key;
    if (known.count(key) == 0 || !doc.contains(key)) continue;
    if (key == "fill_a" || key == "fill_b") {
      (key == "fill_a" ? lesson.fill_a : lesson.fill_b) = ReadFill(doc, field.key, lesson, warnings);
      continue;
    }
    const json& value = doc.at(key);
    if (auto problem = TypeProblem(key, value)) throw BadValue{key + " = " + DescribeJsonValue(value) + " " + *problem};
    if (auto error = ApplyLessonEdit(key, GrammarText(value), lesson, key)) throw BadValue{error->message};
  }
  return lesson;
}

json FillToJson(const MatrixFill& fill) {
  json out{{"kind", Name(fill.kind)}};
  if (fill.kind == FillKind::kRandom) out["seed"] = fill.seed;
  if (fill.kind == FillKind::kExplicit) out["values"] = fill.values;
  return out;
}

}  // namespace

LessonLoad ParseLesson(const std::string& json_text) {
  LessonLoad load = ParseLessonUnchecked(json_text);
  if (!load.lesson || load.tour.empty()) return load;
  // A tour is checked against the model before the lesson counts as loaded: a stop past the
  // end or an answer no choice holds refuses the whole file.
  load.prepared = PrepareTour(*load.lesson, load.tour);
  if (!load.prepared.ok()) {
    load.error = load.prepared.error;
    load.lesson.reset();
    load.tour = {};
  }
  return load;
}

LessonLoad ParseLessonUnchecked(const std::string& json_text) {
  LessonLoad load;
  const JsonDocument document = ParseJsonText(json_text);
  if (!document.ok()) {
    load.error = document.error;
    return load;
  }
  try {
    LessonConfig lesson = ReadLesson(document.value, load.warnings);
    // One too big for step back loads: the window shows it without (sim::OpeningMode); what
    // steps it (a tour, trace) judges it again.
    if (auto error = Validate(lesson, ModelUse::kLessonWithoutStepBack)) {
      load.error = error->message;
      return load;
    }
    if (document.value.contains("tour")) {
      const std::string error = ReadTour(document.value.at("tour"), load.tour, load.warnings);
      if (!error.empty()) {
        load.error = error;
        return load;
      }
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

LessonLoad ReadLessonFile(const std::string& path, TourCheck check) {
  LessonLoad load;
  const InputFile file = ReadInputFile(path, kMaxLessonFileBytes);
  if (!file.ok()) {
    load.error = "lesson file " + file.error;
    return load;
  }
  load = check == TourCheck::kPrepare ? ParseLesson(file.bytes) : ParseLessonUnchecked(file.bytes);
  if (!load.error.empty()) load.error = path + ": " + load.error;
  return load;
}

std::string LessonToJson(const LessonConfig& lesson) { return LessonToJson(lesson, Tour{}); }

std::string LessonToJson(const LessonConfig& lesson, const Tour& tour) {
  json out;
  out["version"] = kLessonFileVersion;
  out["name"] = lesson.name;
  if (!lesson.title.empty()) out["title"] = lesson.title;
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
  if (lesson.bs_layout != SharedLayout::kRowMajor) out["bs_layout"] = Name(lesson.bs_layout);
  out["tiles"] = Name(lesson.tile_count);
  out["scheduler"] = Name(lesson.scheduler);
  out["seed"] = lesson.seed;
  out["fill_a"] = FillToJson(lesson.fill_a);
  out["fill_b"] = FillToJson(lesson.fill_b);
  if (!tour.empty()) out["tour"] = TourToJson(tour);
  return out.dump(2) + "\n";
}

std::string WriteLessonFile(const std::string& path, const LessonConfig& lesson) {
  // A lesson that would not load again (an inf value saves as null) is not saved at all.
  if (auto error = Validate(lesson, ModelUse::kLessonWithoutStepBack)) return "not saved to " + path + ": " + error->message;
  return WriteFileAtomically(path, LessonToJson(lesson)).value_or("");
}

LessonConfig DefaultLesson() {
  // default.json is embedded and a test loads it; should it ever fail, the built-in default
  // fields are the same lesson.
  std::optional<LessonConfig> preset = FindPreset("default");
  return preset ? *preset : LessonConfig{};
}

std::optional<LessonConfig> FindPreset(const std::string& name) {
  for (const LessonConfig& preset : Presets()) {
    if (preset.name == name) return preset;
  }
  return std::nullopt;
}

std::string PresetNames() {
  std::string names;
  for (const LessonConfig& preset : Presets()) names += (names.empty() ? "" : ", ") + preset.name;
  return names;
}

std::vector<std::string> CurriculumNames() {
  return {"default", "two_barriers", "edges", "tile_size", "rect_tiles", "banks", "cublas"};
}

std::string LessonHeading(const LessonConfig& lesson) {
  const std::vector<std::string> curriculum = CurriculumNames();
  const auto at = std::find(curriculum.begin(), curriculum.end(), lesson.name);
  const std::string title = lesson.title.empty() ? lesson.name : lesson.title;
  if (at == curriculum.end()) return title;
  return std::to_string(at - curriculum.begin() + 1) + " \u00B7 " + title;
}

const std::vector<LessonConfig>& Presets() {
  // assets/lessons/*.json, embedded at build time: one source for the GUI, the CLI and the
  // installed package. The curriculum first, in teaching order, then the rest by name.
  static const std::vector<LessonConfig> presets = [] {
    std::vector<std::pair<std::string, LessonConfig>> loaded;
    for (const embedded::LessonAsset& asset : embedded::LessonAssets()) {
      LessonLoad load = ParseLessonUnchecked(asset.text);
      if (load.lesson) loaded.emplace_back(asset.name, std::move(*load.lesson));
    }
    const std::vector<std::string> order = CurriculumNames();
    const auto rank = [&order](const std::string& name) {
      return static_cast<std::size_t>(std::find(order.begin(), order.end(), name) - order.begin());
    };
    std::stable_sort(loaded.begin(), loaded.end(), [&rank](const auto& x, const auto& y) {
      return rank(x.first) != rank(y.first) ? rank(x.first) < rank(y.first) : x.first < y.first;
    });
    std::vector<LessonConfig> out;
    for (auto& item : loaded) out.push_back(std::move(item.second));
    return out;
  }();
  return presets;
}

LessonLoad LoadPreset(const std::string& name, TourCheck check) {
  for (const embedded::LessonAsset& asset : embedded::LessonAssets()) {
    if (asset.name == name) return check == TourCheck::kPrepare ? ParseLesson(asset.text) : ParseLessonUnchecked(asset.text);
  }
  LessonLoad load;
  load.error = "no lesson named '" + name + "' (the presets are " + PresetNames() + ")";
  return load;
}

LessonLoad LoadLessonOrPreset(const std::string& name_or_path, TourCheck check) {
  LessonLoad load;
  if (FindPreset(name_or_path)) {
    load = LoadPreset(name_or_path, check);
    load.source = "the preset lesson " + name_or_path;
  } else if (NamesAFile(name_or_path)) {  // a path it cannot check goes to the reader, which says why
    load = ReadLessonFile(name_or_path, check);
    load.source = "lesson file " + name_or_path;
  } else {
    load.error = "'" + name_or_path + "' is neither a lesson file nor a preset (" + PresetNames() + ")";
  }
  return load;
}

// The name an edited lesson takes.
constexpr const char* kEditedName = "custom";

void NoteEdited(LessonConfig& lesson, const LessonConfig& started_as) {
  LessonConfig unnamed = lesson;
  LessonConfig original = started_as;
  unnamed.name = original.name = "";
  unnamed.description = original.description = "";
  if (LessonToJson(unnamed) == LessonToJson(original)) return;
  if (started_as.name != kEditedName) lesson.description = "edited from " + started_as.name;
  lesson.name = kEditedName;
}

}  // namespace sim
