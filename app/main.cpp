// main.cpp — `tilescope`: the command line, or with no subcommand the GUI with its pages.
#include <iostream>
#include <memory>
#include <utility>

#include "app/cli/command_line.h"
#include "app/gui/application.h"
#include "app/pages/lesson_page.h"
#include "app/pages/live_page.h"
#include "app/pages/tensor_core_page.h"

namespace {

int RunGui(const cli::GuiOptions& options) {
  gui::SettingsStore store(gui::SettingsStore::DefaultDirectory());
  gui::LoadedSettings loaded = store.Load();
  const bool new_install = !loaded.from_file;
  auto application = std::make_unique<gui::Application>(options, std::move(store), std::move(loaded));
  const gui::Settings& settings = application->settings();
  auto lesson = std::make_unique<gui::LessonPage>(options.lesson, settings.last_lesson,
                                                  settings.panels.is_object() ? settings.panels.value("guide", nlohmann::json())
                                                                              : nlohmann::json(),
                                                  application->notifications());
  // A scripted run of a lesson that did not open would show, save and exit 0 with the default
  // lesson instead: it fails before any window opens. A user is told, and goes on with it.
  if (const std::optional<std::string>& error = lesson->StartError()) {
    if (options.Scripted()) {
      std::cerr << "tilescope: error: " << *error << "\ntilescope: --lesson " << options.lesson
                << " did not open: a scripted run stops here" << std::endl;
      return 1;
    }
    application->notifications().Add(gui::Severity::kError, *error + " (the default lesson is open)");
  }
  // --kernel as --lesson: a scripted run stops at a file that does not open; a user is told in
  // the window and goes on with the lesson on show.
  if (!options.kernel.empty()) {
    if (auto error = lesson->OpenKernel(options.kernel, options.kernel_options)) {
      if (options.Scripted()) {
        std::cerr << "tilescope: --kernel " << *error << std::endl;
        return 1;
      }
      application->notifications().Add(gui::Severity::kError, "--kernel: " + *error);
    }
  }
  // A bad --stop or --step is refused before any window opens, as a bad option is.
  if (auto error = lesson->OpenAt(options.stop, options.step)) {
    std::cerr << "tilescope: " << *error << std::endl;
    return cli::kExitUsage;
  }
  // A new install (no settings yet) opened without a lesson starts from the lessons by name.
  if (new_install && options.lesson.empty() && options.kernel.empty()) lesson->ShowLessonList();
  application->AddPage("lesson", "Lesson", std::move(lesson));
  application->AddPage("live", "Live GPU", std::make_unique<gui::LivePage>(options.kernel, options.kernel_options));
  application->AddPage("tensor", "Tensor cores", std::make_unique<gui::TensorCorePage>());
  return gui::Application::Run(std::move(application));
}

}  // namespace

int main(int argc, char** argv) { return cli::RunCommandLine(argc, argv, RunGui); }
