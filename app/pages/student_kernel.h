// student_kernel.h — a student's kernel file open as the lesson: the last version that compiled
// (sim::KernelLesson), the problem of the last read while it stands, the file watched for the
// saves the student makes in their own editor, and the findings of the whole run, checked on a
// worker as `tilescope check` checks it at the lesson's size. Nothing here draws.
//
// Reading and compiling a file of at most sim::kMaxKernelFileBytes is fast: it is done between
// frames, as a lesson file is read. Running the kernel to its end is the worker's.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/panels/your_kernel_view.h"
#include "kernels/background_job.h"
#include "sim/lesson/exercise.h"
#include "sim/lesson/kernel_lesson.h"

namespace gui {

// What an action about a student's kernel says while none is open.
constexpr const char* kNoKernelOpen = "no kernel of yours is open (File \u2192 Open kernel\u2026)";

class StudentKernel {
 public:
  // Reads and compiles `path`: on success it is the lesson on show; on failure nothing changes
  // and the error says why ("file:line:col: what" for the source).
  std::optional<std::string> Open(const std::string& path, const sim::KernelLessonOptions& options);
  // The open file again under other options (another kernel of it, another scheduler): on
  // success that run is on show; on failure nothing changes and the error says why.
  std::optional<std::string> Rerun(const sim::KernelLessonOptions& options);
  const sim::KernelLessonOptions& options() const { return options_; }
  void Close();
  bool IsOpen() const { return lesson_.has_value(); }
  const sim::KernelLesson& lesson() const { return *lesson_; }

  // Once a frame (`seconds` since the last): looks at the file's time and size twice a second
  // and re-reads it when they changed. True when a new version compiled (the caller runs it);
  // a version that does not compile is kept as problem() beside the last good one.
  bool Poll(double seconds);

  // The last read's problem while it stands: where the source went wrong (if it did), the
  // message, and the file's lines as read then (the source view shows those with the line marked).
  struct Problem {
    std::string message;
    std::optional<sim::cuda::SourceProblem> at;
    std::vector<std::string> lines;
  };
  const std::optional<Problem>& problem() const { return problem_; }
  // How many times a save was read since the file was opened.
  int reloads() const { return reloads_; }

  // The whole run's findings at the lesson's size; nothing while they are being checked.
  const std::optional<sim::KernelCheckReport>& Findings() const { return findings_; }
  bool Checking() const { return check_.Running(); }
  // The tiled-kernel exercise's milestones for the file as last saved (also a save that does not
  // compile) under options(), as `tilescope exercise tiled --check` gives them with the same
  // flags; nothing while they are checked.
  const std::optional<std::vector<sim::MilestoneState>>& Milestones() const { return milestones_; }
  bool Busy() const { return Checking() || milestone_check_.Running(); }

  // What the panels draw of it.
  YourKernelView View() const;
  void DumpState(nlohmann::json& state) const;

 private:
  struct Stamp {
    std::filesystem::file_time_type time{};
    std::uintmax_t size = 0;
    bool operator==(const Stamp& o) const { return time == o.time && size == o.size; }
  };
  static std::optional<Stamp> StampOf(const std::string& path);
  void Take(sim::KernelLesson lesson);
  // The milestones of `lines` (the file as read) under options_, checked on their own worker.
  void CheckMilestones(const std::vector<std::string>& lines);
  void Reread();

  std::string path_;
  sim::KernelLessonOptions options_;
  std::optional<sim::KernelLesson> lesson_;
  std::optional<Problem> problem_;
  std::optional<Stamp> stamp_;
  double since_look_ = 0.0;
  int reloads_ = 0;
  std::uint64_t generation_ = 0;  // of the lesson on show: a check of an older one is dropped
  std::optional<sim::KernelCheckReport> findings_;
  using Checked = std::pair<std::uint64_t, sim::KernelCheckResult>;
  std::uint64_t milestone_generation_ = 0;  // of the file as last read
  std::optional<std::vector<sim::MilestoneState>> milestones_;
  using MilestonesChecked = std::pair<std::uint64_t, std::vector<sim::MilestoneState>>;
  // Last: destroyed first, they stop their workers.
  kernels::BackgroundJob<MilestonesChecked> milestone_check_;
  kernels::BackgroundJob<Checked> check_;
};

}  // namespace gui
