#include "app/pages/sweep_run.h"

#include <utility>

#include "sim/lesson/teaching.h"

namespace gui {
namespace {

// "; your kernel not timed at 1024: tiled.cu(12): error: …": the first size the student's
// kernel did not run at, with the line of the message that names the source ("NVRTC could not
// compile it:" comes first, the compiler's file(line) next); "" when it ran everywhere.
std::string StudentProblem(const std::vector<kernels::BenchResult>& results) {
  for (const kernels::BenchResult& r : results) {
    if (!kernels::IsStudentResult(r) || r.ok()) continue;
    std::string text = r.error;
    const std::size_t first = text.find('\n');
    if (first != std::string::npos) text = text.substr(0, first) + " " + text.substr(first + 1, text.find('\n', first + 1) - first - 1);
    return "; your kernel not timed at " + kernels::ToString(r.shape) + ": " + text;
  }
  return "";
}

}  // namespace

std::optional<std::string> SweepRun::Start(const kernels::BenchRequest& request, const kernels::DeviceInfo& device,
                                           const std::string& save_to, kernels::SweepResults& sweep) {
  if (auto error = runner_.Start(request)) return error;
  sweep.BeginRun(device);
  in_flight_ = true;
  frames_ = {};
  save_when_done_ = save_to;
  progress_ = {true, false, 0, static_cast<int>(request.kernels.size() * request.shapes.size()), "starting\u2026"};
  return std::nullopt;
}

std::optional<std::string> SweepRun::Cancel() {
  if (!in_flight_) return "no sweep is running";
  runner_.Cancel();
  progress_.cancelling = true;
  return std::nullopt;
}

std::optional<SweepRun::Outcome> SweepRun::Collect(double frame_seconds, kernels::SweepResults& sweep) {
  if (!in_flight_) return std::nullopt;
  frames_.Add(frame_seconds);
  // Read before taking: a runner that has stopped has handed over every result by then.
  const bool still_running = runner_.Running();
  sweep.Add(runner_.TakeResults());
  sweep.SetMeasuredL2Bandwidth(runner_.MeasuredL2Bandwidth());
  if (!still_running) return Finish(sweep);
  const kernels::Progress p = runner_.LastProgress();
  if (p.total > 0) {
    progress_.done = p.done;
    progress_.total = p.total;
    progress_.text = p.Describe();
  }
  return std::nullopt;
}

SweepRun::Outcome SweepRun::Finish(kernels::SweepResults& sweep) {
  runner_.Wait();
  in_flight_ = false;
  const bool cancelled = runner_.WasCancelled();
  progress_ = {};
  std::size_t wrong = 0;
  for (const kernels::BenchResult& r : sweep.results()) wrong += r.ok() && !r.verified ? 1 : 0;
  std::string outcome = (cancelled ? "cancelled after " : "finished: ") + sim::CountOf(sweep.results().size(), "result", "results");
  if (wrong > 0) outcome += ", " + sim::CountOf(wrong, "wrong C", "wrong Cs") + " (\u2717, not plotted)";
  const std::string student = StudentProblem(sweep.results());
  outcome += student;
  if (save_when_done_.empty()) return {outcome, !student.empty()};
  const std::string path = std::exchange(save_when_done_, {});
  if (auto error = sweep.Save(path)) return {outcome + "; not saved: " + *error, true};
  return {outcome + "; saved to " + path, !student.empty()};
}

void SweepRun::DumpState(nlohmann::json& live) const {
  live["running"] = progress_.running;
  live["progress"] = {{"done", progress_.done}, {"total", progress_.total}, {"text", progress_.text}};
  // The window keeps drawing while the runner works: frames drawn during the last sweep.
  live["sweep_frames"] = {{"frames", frames_.frames},
                          {"seconds", frames_.seconds},
                          {"longest_frame_ms", 1000.0 * frames_.longest}};
}

}  // namespace gui
