#include "app/pages/live_student.h"

#include <utility>

namespace gui {

LiveStudent::LiveStudent(std::string kernel_path, sim::KernelLessonOptions kernel_options, panels::StudentSweepRow& row)
    : kernel_path_(std::move(kernel_path)), kernel_options_(std::move(kernel_options)) {
  row.path = kernel_path_;
}

std::optional<std::string> LiveStudent::Add(const std::string& path, const kernels::GpuStatus& gpu,
                                            panels::StudentSweepRow& row) {
  if (path == "none") {
    row.included = false;
    row.problem.clear();
    return std::nullopt;
  }
  const std::string file = path.empty() ? row.path : path;
  if (file.empty()) {
    return std::string("live-student needs a kernel file (.cu): the window opened none with --kernel (choose one with Choose .cu\u2026)");
  }
  row.path = file;
  row.included = false;
  row.choosing = false;
  // The window's flags belong to its --kernel file; another file runs as its own launch says.
  const sim::KernelLessonOptions options = file == kernel_path_ ? kernel_options_ : sim::KernelLessonOptions{};
  std::string problem;
  std::shared_ptr<const kernels::SweepStudent> student = kernels::LoadSweepStudent(file, options, problem);
  if (!student) {
    row.problem = problem;
    return "your kernel is not in the sweep: " + problem;
  }
  if (!gpu.available) {
    row.problem = "no GPU here to time it on: " + gpu.reason;
    return "your kernel compiled, but it joins a sweep only on a GPU: " + gpu.reason;
  }
  row.problem.clear();
  row.label = student->label;
  row.included = true;
  loaded_ = std::move(student);
  return std::nullopt;
}

std::optional<std::string> LiveStudent::Browse(const std::string& folder, panels::StudentSweepRow& row) const {
  if (folder == "none") {
    row.choosing = false;
    return std::nullopt;
  }
  row.choice = sim::ListFolder(folder, {".cu"});
  row.choosing = true;
  return row.choice.error.empty() ? std::nullopt : std::optional<std::string>(row.choice.error);
}

std::shared_ptr<const kernels::SweepStudent> LiveStudent::Included(const panels::StudentSweepRow& row) const {
  return row.included ? loaded_ : nullptr;
}

}  // namespace gui
