#include "app/gui/gui_main.h"

#include "app/gui/application.h"
#include "app/gui/lesson_workspace.h"
#include "app/gui/live_workspace.h"

namespace gui {

int RunGui(const GuiOptions& options) {
  SettingsStore store(SettingsStore::DefaultDirectory());
  LoadedSettings loaded = store.Load();
  Application application(options, std::move(store), std::move(loaded));
  application.AddWorkspace("lesson", "Lesson",
                           std::make_unique<LessonWorkspace>(options.lesson, application.settings().last_lesson,
                                                             application.notifications()));
  application.AddWorkspace("live", "Live GPU", std::make_unique<LiveWorkspace>());
  return application.Run();
}

}  // namespace gui
