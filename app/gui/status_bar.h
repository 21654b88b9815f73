// status_bar.h — the line under the pages: the latest message (a problem in orange with a
// warning glyph, not by colour alone), or the F1 hint; hovered, the last messages newest first,
// so one that has left the bar can still be read.
#pragma once

#include "app/gui/notifications.h"

namespace gui {

void DrawStatusBar(const Notifications& notifications);

}  // namespace gui
