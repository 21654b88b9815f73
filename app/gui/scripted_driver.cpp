#include "app/gui/scripted_driver.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <utility>

#include "app/gui/browser_page.h"
#include "app/gui/screenshot.h"
#include "sim/io/cpu_time.h"
#include "sim/io/atomic_file.h"
#include "sim/io/number_text.h"

namespace gui {
namespace {

constexpr int kMinFramesForScreenshot = 3;
// Frames a change needs to be laid out before an automated run ends on it: a window a scripted
// step opens, or text in a new font size, is measured in its first frame (ImGui's auto-size),
// sized in the next and its wrapped text final in the third. A step held back by a page (a
// tour still being prepared) can come on a run's last frame otherwise.
constexpr long kFramesToSettle = 3;
// Exit statuses, as the command line's: a bad option or script is a usage error; an output
// the run was asked for (a screenshot, a state dump) that could not be written is a failure,
// and so is a scripted step its action refused.
constexpr int kExitOutputFailed = 1;
constexpr int kExitActionRefused = 1;
constexpr int kExitUsage = 2;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;

std::string TimestampedName(const char* prefix, const char* extension) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return std::string(prefix) + stamp + extension;
}

}  // namespace

ScriptedDriver::ScriptedDriver(const cli::GuiOptions& options, Shell shell)
    : options_(options), shell_(std::move(shell)) {}

void ScriptedDriver::RegisterActions() {
  shell_.registry.Add({"dump-state", "Write the state dump",
                       "Write what the panels show as JSON to the path given, once this frame is drawn (as "
                       "--dump-state does on exit): one scripted run can record several states.",
                       {},
                       [this](const std::string& path) -> std::optional<std::string> {
                         if (path.empty()) return std::string("dump-state wants a file path");
                         pending_dump_ = path;
                         return std::nullopt;
                       }});
  shell_.registry.Add({"screenshot", "Save screenshot",
                       "Save the window as a PNG: in the pictures folder (XDG_PICTURES_DIR, else ~/Pictures, else "
                       "home) unless a path is given; the status bar names the file.",
                       {{GLFW_KEY_P, GLFW_MOD_CONTROL}},
                       [this](const std::string& path) -> std::optional<std::string> {
                         pending_screenshot_ =
                             path.empty() ? ScreenshotFolder() + "/" + TimestampedName("tilescope-", ".png") : path;
                         return std::nullopt;
                       }});
}

std::optional<int> ScriptedDriver::Start() {
  if (auto script_error = ParseActionScript(options_.actions, script_.steps)) {
    std::cerr << "tilescope: " << *script_error << std::endl;
    return kExitUsage;
  }
  // A misspelt name is found before the first frame: a scripted run that would skip it and
  // still exit 0 would report success for work it never did.
  for (const ScriptStep& step : script_.steps) {
    if (step.name != "wait" && !shell_.registry.Find(step.name)) {
      std::cerr << "tilescope: --actions: unknown action \"" << step.name << "\" (F1 in the app lists them)"
                << std::endl;
      return kExitUsage;
    }
  }
  // A soak ends at the end of a pass: a script without a step would never end one.
  if (Soaking() && script_.steps.empty()) {
    std::cerr << "tilescope: --soak: the --actions script has no step to repeat" << std::endl;
    return kExitUsage;
  }
  bench_start_ = std::chrono::steady_clock::now();
  bench_cpu_start_ = sim::ThreadCpuSeconds();
  return std::nullopt;
}

void ScriptedDriver::AdvanceScript(long frame) {
  // A soak plays its script again once a pass has ended and its background work is done, so
  // each pass starts from the same state.
  if (Soaking() && !soak_.finished && script_.Done() && !script_.steps.empty() && !shell_.busy()) EndSoakPass(frame);
  if (script_.wait_frames > 0) {
    --script_.wait_frames;
  } else {
    while (script_.next < script_.steps.size()) {
      const ScriptStep& step = script_.steps[script_.next];
      if (step.name == "wait") {
        ++script_.next;
        std::string unused;  // ParseScript refused every wait it cannot read
        script_.wait_frames = static_cast<int>(sim::ReadWhole(step.argument, 0, kMaxWaitFrames, unused).value_or(0));
        break;
      }
      if (shell_.holds_script(step.name)) break;  // again next frame; the window draws meanwhile
      ++script_.next;
      layout_changed_at_frame_ = frame;
      // Applied here, one by one, so the hold above sees what each step started (a lesson
      // opening) before the next one runs.
      shell_.apply({step.name, step.argument, true});
    }
  }
  if (options_.bench_frames > 0 && shell_.registry.Find("bench-step")) shell_.queue.Push("bench-step");
}

void ScriptedDriver::NoteRefusal(const ActionRequest& request) {
  if (request.scripted && scripted_refusals_++ == 0) {
    first_refused_ = request.argument.empty() ? request.name : request.name + " " + request.argument;
  }
}

void ScriptedDriver::WriteFrameOutputs(const Window& window) {
  SaveRegionScreenshots(window);
  if (!pending_screenshot_.empty()) {
    SaveScreenshot(window, pending_screenshot_);
    pending_screenshot_.clear();
  }
  if (!pending_dump_.empty()) {
    WriteStateDump(pending_dump_);
    pending_dump_.clear();
  }
}

bool ScriptedDriver::FinishesWith(const Window& window, long frame) {
  bool finished = false;
  if (options_.bench_frames > 0) {
    finished = frame >= options_.bench_frames;
  } else if (Soaking()) {
    finished = soak_.finished;
  } else if (options_.frames > 0 || !options_.screenshot.empty()) {
    const long min_frames = std::max<long>(options_.frames, kMinFramesForScreenshot);
    // An action a page queued this frame (a tour's stop that ends on the Live GPU page) is still
    // to be applied: the run ends after it, not before.
    finished = frame >= min_frames && script_.Done() && frame >= layout_changed_at_frame_ + kFramesToSettle &&
               !shell_.busy() && shell_.queue.Empty();
  }
  if (finished && !options_.screenshot.empty() && !SaveScreenshot(window, options_.screenshot)) output_failed_ = true;
  return finished;
}

void ScriptedDriver::FramePresented(long frame) {
  if (frame == 1 && Soaking()) {
    soak_.start = std::chrono::steady_clock::now();
    soak_.first_frame = MeasureMemory();
  }
  if (options_.dump_state_every > 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_periodic_dump_) return;
    next_periodic_dump_ = now + std::chrono::seconds(options_.dump_state_every);
    WriteStateDump(options_.dump_state);
  }
}

void ScriptedDriver::WriteFinalOutputs(const Window& window, long frames) {
  bench_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - bench_start_).count();
  bench_cpu_seconds_ = sim::ThreadCpuSeconds() - bench_cpu_start_;
  if (!options_.dump_state.empty()) WriteStateDump(options_.dump_state);
  if (options_.bench_frames > 0) PrintBenchFigures(window, frames);
  if (Soaking()) PrintSoakFigures(frames);
}

int ScriptedDriver::ExitStatus() const {
  // The window shows a refusal and goes on, as for a user; a script's run still must not
  // report success for a step it did not do.
  if (scripted_refusals_ > 0) {
    std::cerr << "tilescope: --actions: " << scripted_refusals_ << " scripted action"
              << (scripted_refusals_ == 1 ? " was" : "s were") << " refused, the first \"" << first_refused_ << "\""
              << std::endl;
    return kExitActionRefused;
  }
  return output_failed_ ? kExitOutputFailed : 0;
}

bool ScriptedDriver::SaveScreenshot(const Window& window, const std::string& path) {
  if (auto error = WritePng(window.ReadFramebuffer(), path)) {
    shell_.notifications.Add(Severity::kError, *error);
    return false;
  }
  shell_.notifications.Add(Severity::kInfo, "saved " + path);
  browser_page::OfferDownload(path);
  return true;
}

void ScriptedDriver::SaveRegionScreenshots(const Window& window) {
  if (region_screenshots_.empty()) return;
  const FramebufferPixels frame = window.ReadFramebuffer();
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;  // ImGui's units → framebuffer pixels.
  for (const RegionScreenshot& region : region_screenshots_) {
    const FramebufferPixels crop =
        Crop(frame, static_cast<int>(region.min.x * scale.x), static_cast<int>(region.min.y * scale.y),
             static_cast<int>(region.max.x * scale.x), static_cast<int>(region.max.y * scale.y));
    if (auto error = WritePng(crop, region.path)) {
      shell_.notifications.Add(Severity::kError, *error);
    } else {
      shell_.notifications.Add(Severity::kInfo, "saved " + region.path);
      browser_page::OfferDownload(region.path);
    }
  }
  region_screenshots_.clear();
}

// A dump that cannot be written fails the run: a script reading it must not go on with an
// old file or none.
void ScriptedDriver::WriteStateDump(const std::string& path) {
  if (auto error = sim::WriteFileAtomically(path, shell_.state_dump().dump(2) + "\n")) {
    shell_.notifications.Add(Severity::kError, "the state dump: " + *error);
    output_failed_ = true;
  }
}

// Resident memory from /proc/self/statm (pages: total, resident, file-backed resident), and
// malloc's own figures over every arena: bytes handed out and not had back (in use), and
// bytes it holds from the system, freed or not. In use growing pass after pass is a leak;
// resident moving while in use stays put is the allocator or a library keeping pages.
ScriptedDriver::Memory ScriptedDriver::MeasureMemory() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t total_pages = 0;
  std::uint64_t resident_pages = 0;
  std::uint64_t file_pages = 0;
  statm >> total_pages >> resident_pages >> file_pages;
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
#ifdef __EMSCRIPTEN__
  const struct mallinfo info = mallinfo();  // the browser's dlmalloc has only the older call
#else
  const struct mallinfo2 info = mallinfo2();
#endif
  return {resident_pages * page, file_pages * page, static_cast<std::uint64_t>(info.uordblks + info.hblkhd),
          static_cast<std::uint64_t>(info.arena + info.hblkhd)};
}

double ScriptedDriver::SoakSeconds(long frames) const {
  if (frames < 1) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - soak_.start).count();
}

void ScriptedDriver::EndSoakPass(long frame) {
  const Memory now = MeasureMemory();
  if (++soak_.passes == 1) soak_.first_pass = now;
  soak_.last_pass = now;
  char line[240];
  std::snprintf(line, sizeof line,
                "soak: pass %ld ended at %.0f s: resident %.1f MiB (%.1f of it files), malloc in use %.1f MiB, "
                "held %.1f MiB",
                soak_.passes, SoakSeconds(frame), now.resident / kBytesPerMiB, now.resident_files / kBytesPerMiB,
                now.heap_in_use / kBytesPerMiB, now.heap_held / kBytesPerMiB);
  std::cout << line << std::endl;
  if (SoakSeconds(frame) < options_.soak_seconds) {
    script_.next = 0;
  } else {
    soak_.finished = true;
  }
}

// The growth is measured from the end of the first pass to the end of the last: the first pass
// fills what is built once and kept (the font atlas at each size, ImGui's windows, the presets
// it opened), and every figure is taken at the same point of the script.
void ScriptedDriver::PrintSoakFigures(long frames) const {
  const auto growth = [](std::uint64_t from, std::uint64_t to) {
    return from > 0 ? 100.0 * (static_cast<double>(to) - static_cast<double>(from)) / from : 0.0;
  };
  char line[400];
  std::snprintf(line, sizeof line,
                "soak: %ld passes of the script in %.0f s; resident memory %.1f MiB after the first frame, %.1f MiB "
                "at the end of pass 1, %.1f MiB at the end of pass %ld (%+.1f%%); malloc in use %.1f MiB, %.1f MiB, "
                "%.1f MiB (%+.1f%%)",
                soak_.passes, SoakSeconds(frames), soak_.first_frame.resident / kBytesPerMiB,
                soak_.first_pass.resident / kBytesPerMiB, soak_.last_pass.resident / kBytesPerMiB, soak_.passes,
                growth(soak_.first_pass.resident, soak_.last_pass.resident), soak_.first_frame.heap_in_use / kBytesPerMiB,
                soak_.first_pass.heap_in_use / kBytesPerMiB, soak_.last_pass.heap_in_use / kBytesPerMiB,
                growth(soak_.first_pass.heap_in_use, soak_.last_pass.heap_in_use));
  std::cout << line << std::endl;
}

void ScriptedDriver::PrintBenchFigures(const Window& window, long frames) const {
  const double fps = bench_seconds_ > 0.0 ? static_cast<double>(frames) / bench_seconds_ : 0.0;
  int width = 0;
  int height = 0;
  window.Size(width, height);
  std::cout << "bench-frames: " << frames << " frames in " << bench_seconds_ << " s = " << fps << " frames/s at "
            << width << "x" << height << " (renderer: " << window.GlRenderer() << "); ";
  // A browser's C library has no thread CPU clock: the figure would read 0.
  if (bench_cpu_seconds_ > 0.0) {
    std::cout << "the window's thread used " << 1e3 * bench_cpu_seconds_ / std::max(frames, 1L) << " ms of CPU a frame";
  } else {
    std::cout << "the window's thread's CPU time is not known here";
  }
  std::cout << std::endl;
}

}  // namespace gui
