// lesson_config.h — one lesson: the kernel the model runs (sim/model/kernel_config.h) under
// a name the lesson picker, the files and the settings know it by.
#pragma once
#include <string>

#include "sim/model/kernel_config.h"

namespace sim {

struct LessonConfig : KernelConfig {
  std::string name = "default";
  std::string title;        // a curriculum lesson's name for people: "Tiles and phases"; "" for the others
  std::string description;  // one line for the lesson picker
};

}  // namespace sim
