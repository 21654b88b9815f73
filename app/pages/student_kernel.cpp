#include "app/pages/student_kernel.h"

#include <system_error>

#include "sim/io/input_file.h"
#include "sim/lesson/kernel_check_json.h"

namespace gui {
namespace {

// A save is seen within this long: often enough to feel at once, rare enough to cost nothing.
constexpr double kLookEverySeconds = 0.5;

}  // namespace

std::optional<StudentKernel::Stamp> StudentKernel::StampOf(const std::string& path) {
  std::error_code error;
  Stamp stamp;
  stamp.time = std::filesystem::last_write_time(path, error);
  if (error) return std::nullopt;
  stamp.size = std::filesystem::file_size(path, error);
  if (error) return std::nullopt;
  return stamp;
}

std::optional<std::string> StudentKernel::Open(const std::string& path, const sim::KernelLessonOptions& options) {
  const std::optional<Stamp> stamp = StampOf(path);
  sim::KernelLessonLoad load = sim::LoadKernelLesson(path, options);
  if (!load.lesson) return load.error;
  path_ = path;
  options_ = options;
  stamp_ = stamp;
  reloads_ = 0;
  problem_.reset();
  Take(std::move(*load.lesson));
  CheckMilestones(lesson_->lines);
  return std::nullopt;
}

void StudentKernel::CheckMilestones(const std::vector<std::string>& lines) {
  milestones_.reset();
  ++milestone_generation_;
  // A check of an older save is stopped between two steps: it ends at once.
  milestone_check_.Cancel();
  milestone_check_.Wait();
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  milestone_check_.Start([generation = milestone_generation_, text = std::move(text), path = path_, options = options_](
                             const std::atomic<bool>& cancel, kernels::JobProgress&) {
    return MilestonesChecked{generation, sim::CheckTiledExercise(text, path, options, &cancel)};
  });
}

std::optional<std::string> StudentKernel::Rerun(const sim::KernelLessonOptions& options) {
  if (!IsOpen()) return std::string(kNoKernelOpen);
  sim::KernelLessonLoad load = sim::LoadKernelLesson(path_, options);
  if (!load.lesson) return load.error;
  options_ = options;
  stamp_ = StampOf(path_);
  problem_.reset();
  Take(std::move(*load.lesson));
  CheckMilestones(lesson_->lines);  // judged as the run on show is: its kernel, its scheduler
  return std::nullopt;
}

void StudentKernel::Close() {
  check_.Cancel();
  milestone_check_.Cancel();
  milestones_.reset();
  lesson_.reset();
  problem_.reset();
  findings_.reset();
  ++generation_;
}

void StudentKernel::Take(sim::KernelLesson lesson) {
  lesson_ = std::move(lesson);
  findings_.reset();
  ++generation_;
  // The check in flight is for an older version: stopped between two steps, it ends at once.
  check_.Cancel();
  check_.Wait();
  check_.Start([generation = generation_, file = lesson_->file, check = lesson_->check](const std::atomic<bool>& cancel,
                                                                                       kernels::JobProgress&) {
    return Checked{generation, sim::CheckKernel(file, check, &cancel)};
  });
}

bool StudentKernel::Poll(double seconds) {
  if (!IsOpen()) return false;
  if (!findings_ && !check_.Running()) {
    std::optional<Checked> done = check_.LastResult();
    if (done && done->first == generation_ && done->second.report) findings_ = std::move(done->second.report);
  }
  if (!milestones_ && !milestone_check_.Running()) {
    std::optional<MilestonesChecked> done = milestone_check_.LastResult();
    if (done && done->first == milestone_generation_) milestones_ = std::move(done->second);
  }
  since_look_ += seconds;
  if (since_look_ < kLookEverySeconds) return false;
  since_look_ = 0.0;
  const std::optional<Stamp> stamp = StampOf(path_);
  if (stamp == stamp_) return false;
  stamp_ = stamp;
  ++reloads_;
  sim::KernelLessonLoad load = sim::LoadKernelLesson(path_, options_);
  CheckMilestones(load.lines);  // also a save that does not compile: its first milestone
  if (!load.lesson) {
    problem_ = Problem{load.error, std::move(load.problem), std::move(load.lines)};
    return false;
  }
  problem_.reset();
  Take(std::move(*load.lesson));
  return true;
}

YourKernelView StudentKernel::View() const {
  YourKernelView view;
  if (!IsOpen()) return view;
  view.lesson = &*lesson_;
  if (problem_) {
    view.problem = &problem_->message;
    view.problem_line = problem_->at ? problem_->at->pos.line : 0;
    view.problem_lines = &problem_->lines;
  }
  view.findings = findings_ ? &*findings_ : nullptr;
  view.checking = Checking();
  return view;
}

void StudentKernel::DumpState(nlohmann::json& state) const {
  if (!IsOpen()) return;
  nlohmann::json& out = state["your_kernel"];
  out["file"] = lesson_->path;
  out["kernel"] = lesson_->file.kernel.name;
  out["kernel_names"] = lesson_->file.kernel_names;
  out["scheduler"] = sim::Name(lesson_->run.launch.scheduler);
  out["launch"] = sim::LaunchText(*lesson_);
  out["shared_arrays"] = sim::SharedArraysJson(lesson_->file.kernel);
  out["reloads"] = reloads_;
  out["problem"] = problem_ ? nlohmann::json{{"message", problem_->message},
                                             {"line", problem_->at ? nlohmann::json(problem_->at->pos.line) : nlohmann::json(nullptr)}}
                            : nlohmann::json(nullptr);
  out["checking"] = Checking();
  nlohmann::json findings = nullptr;
  if (findings_) {
    findings = nlohmann::json::array();
    for (const sim::CheckFinding& f : findings_->findings) findings.push_back(sim::FindingJson(f));
    const sim::CheckRun& run = findings_->runs.front();
    out["c_wrong_elements"] = run.wrong_elements;
    out["c_elements"] = run.elements;
  }
  out["findings"] = findings;
  nlohmann::json milestones = nullptr;
  if (milestones_) {
    milestones = nlohmann::json::array();
    for (const sim::MilestoneState& m : *milestones_) {
      milestones.push_back({{"milestone", sim::Describe(m.milestone)}, {"reached", m.reached}, {"why", m.why}});
    }
  }
  out["milestones"] = milestones;
}

}  // namespace gui
