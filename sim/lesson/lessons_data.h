// lessons_data.h — the shipped lessons (assets/lessons/*.json) as they are in the tree,
// generated into the build tree by sim/CMakeLists.txt so the GUI, the CLI and the installed
// package read one source. Read them through lesson_file.h (Presets(), LoadPreset()).
#pragma once
#include <vector>

namespace sim::embedded {

struct LessonAsset {
  const char* name;  // the file's name without ".json"
  const char* text;  // the file's bytes
};

// By file name.
const std::vector<LessonAsset>& LessonAssets();

}  // namespace sim::embedded
