// scripted_driver.h — what drives the window besides a user: an --actions script played step
// by step (held while a page is not ready for the next), --soak repeating it while memory is
// watched, --bench-frames timing frames, and the files a run asks for: screenshots and state
// dumps written once a frame is drawn, --screenshot and --dump-state at the end. It also
// says when an automated run is done and what its exit status is. The frame loop
// (Application::Run) calls it at fixed points of each frame; a user's session never notices it.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/gui_options.h"
#include "app/gui/actions.h"
#include "app/gui/frame_context.h"
#include "app/gui/notifications.h"
#include "app/gui/window.h"

namespace gui {

class ScriptedDriver {
 public:
  // What the driver asks of the shell.
  struct Shell {
    ActionRegistry& registry;
    ActionQueue& queue;
    Notifications& notifications;
    std::function<void(const ActionRequest&)> apply;            // runs an action now
    std::function<bool(const std::string& action)> holds_script;  // a page is not ready for it
    std::function<bool()> busy;                                  // a page's background work runs
    std::function<nlohmann::json()> state_dump;                  // what --dump-state writes
  };
  ScriptedDriver(const cli::GuiOptions& options, Shell shell);

  // Adds "dump-state" and "screenshot": files written once the frame is drawn.
  void RegisterActions();
  // Before the first frame, once every action is registered: reads the script. Returns the exit
  // status of a usage error (a bad script, an unknown action), which ends the run at once.
  std::optional<int> Start();
  // Once a frame, before the queued actions run: the script's next steps, then bench-step.
  void AdvanceScript(long frame);
  // A step changed what is laid out in `frame` (or the fonts did): the run does not end until
  // that has settled.
  void NoteLayoutChanged(long frame) { layout_changed_at_frame_ = frame; }
  // An action refused: a scripted one fails the run.
  void NoteRefusal(const ActionRequest& request);
  // Any frame may be the last of a run that dumps its state: panels keep their text for it.
  bool Dumping() const { return !pending_dump_.empty() || !options_.dump_state.empty(); }
  // Regions of the frame to save as PNG, asked for by panels while they draw.
  std::vector<RegionScreenshot>* region_screenshots() { return &region_screenshots_; }
  // After the frame is rendered, before it is presented: the files it asked for.
  void WriteFrameOutputs(const Window& window);
  // Whether an automated run (--frames, --screenshot, --bench-frames, --soak) ends with `frame`;
  // if so, --screenshot is saved from it (before the swap: after it, a driver may hand back an
  // older buffer, as NVIDIA's does).
  bool FinishesWith(const Window& window, long frame);
  // After the frame is presented.
  void FramePresented(long frame);
  // Where the swap does not wait for the display the frame loop holds each frame to its share
  // of a display's rate; a benchmark measures the unpaced rate.
  bool Paced() const { return options_.bench_frames == 0; }
  // After the last frame: --dump-state, and the benchmark's and the soak's figures.
  void WriteFinalOutputs(const Window& window, long frames);
  // The run's exit status: a refused scripted step or a file not written fails it.
  int ExitStatus() const;

 private:
  struct Script {
    std::vector<ScriptStep> steps;
    size_t next = 0;
    int wait_frames = 0;
    bool Done() const { return next >= steps.size() && wait_frames == 0; }
  };
  // --soak: the script runs again each time it ends, until the time is up; the pass under way
  // then finishes, so every figure is taken at the same point of the script: its end, with
  // background work done. A pass's end prints resident memory and what malloc holds in use,
  // which tells a leak (in use grows pass after pass) from the allocator keeping freed pages.
  struct Memory {
    std::uint64_t resident = 0;
    std::uint64_t resident_files = 0;  // of it, pages of mapped files (code, fonts, drivers)
    std::uint64_t heap_in_use = 0;
    std::uint64_t heap_held = 0;
  };
  static Memory MeasureMemory();
  struct Soak {
    std::chrono::steady_clock::time_point start;
    long passes = 0;
    bool finished = false;
    Memory first_frame;
    Memory first_pass;
    Memory last_pass;
  };

  bool Soaking() const { return options_.soak_seconds > 0; }
  double SoakSeconds(long frames) const;
  void EndSoakPass(long frame);
  void PrintSoakFigures(long frames) const;
  void PrintBenchFigures(const Window& window, long frames) const;
  bool SaveScreenshot(const Window& window, const std::string& path);  // false (and a message) when it failed
  void SaveRegionScreenshots(const Window& window);
  void WriteStateDump(const std::string& path);

  cli::GuiOptions options_;
  Shell shell_;
  Script script_;
  Soak soak_;
  long layout_changed_at_frame_ = 0;  // a scripted step or a new font size last changed what is laid out
  std::string pending_dump_;          // written once this frame is drawn
  std::string pending_screenshot_;
  std::chrono::steady_clock::time_point next_periodic_dump_;  // --dump-state-every
  std::vector<RegionScreenshot> region_screenshots_;
  std::chrono::steady_clock::time_point bench_start_;
  double bench_seconds_ = 0.0;
  // CPU seconds of the window's thread over the same frames: the frame rate depends on what
  // else the cores run, this much less (--bench-frames prints both).
  double bench_cpu_start_ = 0.0;
  double bench_cpu_seconds_ = 0.0;
  long scripted_refusals_ = 0;  // --actions steps whose action refused its argument or could not run
  std::string first_refused_;
  bool output_failed_ = false;  // a --screenshot or state dump could not be written
};

}  // namespace gui
