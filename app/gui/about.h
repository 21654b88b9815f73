// about.h — the versions the About box shows (and --dump-state reports).
#pragma once
#include <string>
#include <vector>

#include "app/gui/window.h"

namespace gui {

struct AboutLine {
  std::string name;
  std::string value;
};

std::vector<AboutLine> CollectAboutLines(const Window& window);

}  // namespace gui
