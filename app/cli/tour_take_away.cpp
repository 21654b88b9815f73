#include "app/cli/tour_take_away.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/slide_files.h"
#include "sim/model/simulation.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

// The most frames a recording takes: a whole run of a large lesson would be thousands.
constexpr long long kMaxRecordedFrames = 400;
// Frames for a tour's preparation and a stop's layout to settle before a screenshot.
constexpr int kSettleFrames = 8;

// A folder of its own for the window's settings and the frames, removed afterwards.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (fs::temp_directory_path() / "tilescope-take-away-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string Numbered(const fs::path& folder, const char* stem, long long n, int digits) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%0*lld.png", stem, digits, n);
  return (folder / name).string();
}

// Runs the window on `script` with settings of its own (XDG_CONFIG_HOME in the scratch
// folder: the user's lecturer switch and layout stay as they are).
int RunWindow(const std::string& lesson, const TakeAwayOptions& options, const std::string& script,
              const ScratchFolder& scratch, const GuiLauncher& launch_gui) {
  setenv("XDG_CONFIG_HOME", (scratch.path() / "config").c_str(), 1);
  GuiOptions gui;
  gui.lesson = lesson;
  gui.width = options.width;
  gui.height = options.height;
  gui.presentation = true;
  gui.frames = 1;
  gui.actions = script;
  return launch_gui(gui);
}

bool AllThere(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      std::fprintf(stderr, "tilescope tour: the window did not save %s\n", file.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int WriteSlides(const std::string& lesson, const sim::Tour& tour, const TakeAwayOptions& options,
                const GuiLauncher& launch_gui) {
  std::error_code ec;
  fs::create_directories(options.slides, ec);
  if (ec || !fs::is_directory(options.slides, ec)) {
    std::fprintf(stderr, "tilescope tour: --slides %s is not a folder that can be made\n", options.slides.c_str());
    return kExitUsage;
  }
  ScratchFolder scratch;
  if (scratch.path().empty()) {
    std::fprintf(stderr, "tilescope tour: cannot make a scratch folder in %s\n", fs::temp_directory_path().c_str());
    return 1;
  }
  // Lecturer mode asks each question of the room; the slide is the stop once revealed.
  std::string script = "wait " + std::to_string(kSettleFrames) + "; guide-lecturer";
  std::vector<std::string> slides;
  for (std::size_t i = 0; i < tour.stops.size(); ++i) {
    slides.push_back(Numbered(options.slides, "stop", static_cast<long long>(i + 1), 2));
    script += "; guide-stop " + std::to_string(i + 1) + "; wait " + std::to_string(kSettleFrames);
    if (tour.stops[i].question) script += "; guide-reveal; wait 3";
    script += "; screenshot " + slides.back() + "; wait 2";
  }
  if (const int status = RunWindow(lesson, options, script, scratch, launch_gui); status != 0) return status;
  if (!AllThere(slides)) return 1;
  const std::string pdf = (fs::path(options.slides) / (fs::path(lesson).stem().string() + ".pdf")).string();
  if (auto error = WriteSlidesPdf(slides, pdf)) {
    std::fprintf(stderr, "tilescope tour: %s\n", error->c_str());
    return 1;
  }
  std::printf("wrote %zu slides (%d\u00D7%d) and %s\n", slides.size(), options.width, options.height, pdf.c_str());
  return 0;
}

int RecordSteps(const std::string& lesson, const sim::LessonConfig& config, const TakeAwayOptions& options,
                const GuiLauncher& launch_gui) {
  if (!IsAnimationName(options.record)) {
    std::fprintf(stderr, "tilescope tour: --record %s: an animation is a .gif or a .webp\n", options.record.c_str());
    return kExitUsage;
  }
  sim::Simulation run(config);
  run.RunToEnd();
  const long long end = run.step();
  long long first = 0;
  long long last = end;
  if (!options.steps.empty()) {
    char* after = nullptr;
    first = std::strtoll(options.steps.c_str(), &after, 10);
    if (*after != ':' || (last = std::strtoll(after + 1, &after, 10), *after != '\0') || first < 0 || last < first) {
      std::fprintf(stderr, "tilescope tour: --steps wants FIRST:LAST such as 0:20, got \"%s\"\n", options.steps.c_str());
      return kExitUsage;
    }
  }
  if (last > end) {
    std::fprintf(stderr, "tilescope tour: --steps %s goes past the end: the lesson ends at step %lld\n",
                 options.steps.c_str(), end);
    return kExitUsage;
  }
  if (last - first + 1 > kMaxRecordedFrames) {
    std::fprintf(stderr, "tilescope tour: %lld steps are too many frames (at most %lld): choose some with --steps\n",
                 last - first + 1, kMaxRecordedFrames);
    return kExitUsage;
  }
  ScratchFolder scratch;
  if (scratch.path().empty()) {
    std::fprintf(stderr, "tilescope tour: cannot make a scratch folder in %s\n", fs::temp_directory_path().c_str());
    return 1;
  }
  std::string script = "wait " + std::to_string(kSettleFrames) + "; jump-to " + std::to_string(first) + "; wait 3";
  std::vector<std::string> frames;
  for (long long step = first; step <= last; ++step) {
    if (step > first) script += "; step; wait 2";
    frames.push_back(Numbered(scratch.path(), "frame", step, 6));
    script += "; screenshot " + frames.back() + "; wait 1";
  }
  if (const int status = RunWindow(lesson, options, script, scratch, launch_gui); status != 0) return status;
  if (!AllThere(frames)) return 1;
  if (auto error = WriteAnimation(frames, options.record, options.frame_ms)) {
    std::fprintf(stderr, "tilescope tour: %s\n", error->c_str());
    return 1;
  }
  std::printf("wrote %s: steps %lld to %lld, %zu frames of %d ms\n", options.record.c_str(), first, last, frames.size(),
              options.frame_ms);
  return 0;
}

}  // namespace cli
