#include "app/gui/gui_main.h"

#include "app/gui/application.h"

namespace gui {

int RunGui(const GuiOptions& options) {
  SettingsStore store(SettingsStore::DefaultDirectory());
  LoadedSettings loaded = store.Load();
  Application application(options, std::move(store), std::move(loaded));
  return application.Run();
}

}  // namespace gui
