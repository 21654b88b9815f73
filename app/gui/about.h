// about.h — the About box: what TileScope is and the versions it runs with (which
// --dump-state reports too).
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

// A modal over the page while open; Close or its title bar's button closes it.
struct AboutBox {
  bool open = false;
  void Draw(const Window& window);
};

}  // namespace gui
