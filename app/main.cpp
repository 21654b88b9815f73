// main.cpp — `tilescope`: the command line, or with no subcommand the GUI with its pages.
#include <memory>
#include <utility>

#include "app/cli/command_line.h"
#include "app/gui/application.h"
#include "app/pages/lesson_page.h"
#include "app/pages/live_page.h"

namespace {

int RunGui(const cli::GuiOptions& options) {
  gui::SettingsStore store(gui::SettingsStore::DefaultDirectory());
  gui::LoadedSettings loaded = store.Load();
  gui::Application application(options, std::move(store), std::move(loaded));
  application.AddPage("lesson", "Lesson",
                      std::make_unique<gui::LessonPage>(options.lesson, application.settings().last_lesson,
                                                        application.notifications()));
  application.AddPage("live", "Live GPU", std::make_unique<gui::LivePage>());
  return application.Run();
}

}  // namespace

int main(int argc, char** argv) { return cli::RunCommandLine(argc, argv, RunGui); }
