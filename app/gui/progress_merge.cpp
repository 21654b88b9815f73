#include "app/gui/progress_merge.h"

#include <set>

namespace gui {
namespace {

using nlohmann::json;

const json& Member(const json& object, const std::string& key) {
  static const json kNone;
  if (!object.is_object()) return kNone;
  const auto found = object.find(key);
  return found == object.end() ? kNone : *found;
}

std::set<std::string> Keys(std::initializer_list<const json*> objects) {
  std::set<std::string> keys;
  for (const json* object : objects) {
    if (!object->is_object()) continue;
    for (const auto& [key, value] : object->items()) keys.insert(key);
  }
  return keys;
}

// One lesson's record: each answer and every other field (the stop), this window's where it
// changed them.
json MergeLesson(const std::string& lesson, const json& disk, const json& base, const json& mine,
                 MergedProgress& merged) {
  json record = disk.is_object() ? disk : json::object();
  if (mine.is_object()) {
    for (const auto& [key, value] : mine.items()) {
      if (key != "answers" && (value != Member(base, key) || record.find(key) == record.end())) record[key] = value;
    }
  }
  const json& my_answers = Member(mine, "answers");
  const json& base_answers = Member(base, "answers");
  json answers = Member(disk, "answers").is_object() ? Member(disk, "answers") : json::object();
  if (my_answers.is_object()) {
    for (const auto& [stop, given] : my_answers.items()) {
      const json& theirs = Member(answers, stop);
      if (given == Member(base_answers, stop) && !theirs.is_null()) continue;  // not changed here
      if (!theirs.is_null() && theirs != given && theirs != Member(base_answers, stop)) {
        merged.overruled.push_back(lesson + ", stop " + stop);
      }
      answers[stop] = given;
    }
  }
  record["answers"] = answers;
  return record;
}

std::string List(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
  return text;
}

}  // namespace

MergedProgress MergeLessonProgress(const json& on_disk, const json& base, const json& mine) {
  MergedProgress merged;
  for (const std::string& lesson : Keys({&on_disk, &base, &mine})) {
    const json& disk = Member(on_disk, lesson);
    const json& was = Member(base, lesson);
    const json& now = Member(mine, lesson);
    if (disk != was && !disk.is_null()) merged.from_elsewhere.push_back(lesson);
    if (now.is_object() || disk.is_object()) merged.lessons[lesson] = MergeLesson(lesson, disk, was, now, merged);
  }
  return merged;
}

std::string DescribeMerge(const MergedProgress& merged) {
  if (merged.from_elsewhere.empty()) return "";
  std::string text = "another TileScope window saved tour progress in this settings folder (" +
                     List(merged.from_elsewhere) + "): its answers are kept beside this window's";
  if (!merged.overruled.empty()) {
    text += ", except where both answered the same stop differently, which keeps this window's (" +
            List(merged.overruled) + ")";
  }
  return text;
}

}  // namespace gui
