// kernel_lesson.h — a student's kernel file opened as a lesson: the file read and compiled, and
// the launch it runs in, which is the check's first run (PlanCheck): the window shows the run
// `tilescope check` judges at that size, with the same scheduler, seed, A and B.
//
// Reading and compiling a small file is fast, so the window does it between frames; running
// the kernel to its end (the findings) is done on a worker by the caller.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check.h"

namespace sim {

// Larger than any kernel a student writes, small enough to read on the window's thread.
constexpr std::uint64_t kMaxKernelFileBytes = 4u << 20;

struct KernelLessonOptions {
  cuda::FrontEndOptions front;
  KernelCheckOptions check;  // sizes: the lesson runs at the first (default: the check's first)
};

struct KernelLesson {
  std::string path;
  std::vector<std::string> lines;  // the file as read, line 1 first
  cuda::KernelFile file;
  CheckPlan::Run run;              // the launch, its size, A and B
  KernelCheckOptions check;        // the options narrowed to the run's size: the findings' check
};

struct KernelLessonLoad {
  std::optional<KernelLesson> lesson;
  std::string error;                           // why there is none: "file:line:col: what" for the source
  std::optional<cuda::SourceProblem> problem;  // where the source went wrong, when it did
  std::vector<std::string> lines;              // the file as read, also when it does not compile
};

// Reads `path` (ReadInputFile's refusals: missing, a directory, too large...) and compiles it.
KernelLessonLoad LoadKernelLesson(const std::string& path, const KernelLessonOptions& options);
// The same from text already read.
KernelLessonLoad CompileKernelLesson(const std::string& path, const std::string& text, const KernelLessonOptions& options);

std::vector<std::string> SourceLines(const std::string& text);

// The launch as people write it: "<<<(2,2,1), (16,16,1)>>> at 32x32x32".
std::string LaunchText(const KernelLesson& lesson);
// Each __shared__ array: its name, element type, extents and line.
nlohmann::json SharedArraysJson(const cuda::CompiledKernel& kernel);

}  // namespace sim
