// live_student.h — the live page's side of the "your kernel" row: the student's kernel file
// read and compiled for a sweep (kernels::LoadSweepStudent) when it is added, between frames
// (a kernel file is small: sim::kMaxKernelFileBytes), and handed to the next sweep's request.
// It updates the row the panel draws (panels::StudentSweepRow).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "app/panels/student_sweep_row.h"
#include "kernels/device.h"
#include "kernels/student_sweep.h"
#include "sim/lesson/kernel_lesson.h"

namespace gui {

class LiveStudent {
 public:
  // The window's --kernel file (offered in the row, not yet added) and the flags it came with
  // (--kernel-name, --block, --grid, --define), which apply to that file alone.
  LiveStudent(std::string kernel_path, sim::KernelLessonOptions kernel_options, panels::StudentSweepRow& row);

  // live-student: `path` added to the sweep ("" the file on offer, "none" taken out). A file
  // that does not load, or no GPU to time it on, is refused with the reason, also in the row.
  std::optional<std::string> Add(const std::string& path, const kernels::GpuStatus& gpu, panels::StudentSweepRow& row);
  // live-student-choose: lists `folder`'s sub-folders and .cu files in the row's dialog ("none" closes it).
  std::optional<std::string> Browse(const std::string& folder, panels::StudentSweepRow& row) const;
  // What the next sweep times, or null.
  std::shared_ptr<const kernels::SweepStudent> Included(const panels::StudentSweepRow& row) const;

 private:
  std::string kernel_path_;
  sim::KernelLessonOptions kernel_options_;
  std::shared_ptr<const kernels::SweepStudent> loaded_;
};

}  // namespace gui
