// gui_main.h — opens the window: settings in, workspaces added, main loop run.
#pragma once
#include "app/gui/gui_options.h"

namespace gui {

int RunGui(const GuiOptions& options);

}  // namespace gui
