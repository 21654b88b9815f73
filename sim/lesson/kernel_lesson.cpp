#include "sim/lesson/kernel_lesson.h"

#include <utility>

#include "sim/io/input_file.h"

namespace sim {

std::vector<std::string> SourceLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

KernelLessonLoad CompileKernelLesson(const std::string& path, const std::string& text, const KernelLessonOptions& options) {
  KernelLessonLoad load;
  load.lines = SourceLines(text);
  cuda::FrontEndResult compiled = cuda::CompileKernelFile(text, path, options.front);
  if (compiled.problem) {
    load.error = compiled.problem->Text();
    load.problem = std::move(compiled.problem);
    return load;
  }
  KernelLesson lesson;
  lesson.check = options.check;
  // One run: the lesson's size, the first the check would make.
  CheckPlan plan = PlanCheck(*compiled.file, options.check);
  if (!plan.error.empty()) {
    load.error = path + ": " + plan.error;
    return load;
  }
  lesson.path = path;
  lesson.lines = load.lines;
  lesson.file = std::move(*compiled.file);
  lesson.run = std::move(plan.runs.front());
  lesson.check.sizes = {lesson.run.planned.size};
  load.lesson = std::move(lesson);
  return load;
}

KernelLessonLoad LoadKernelLesson(const std::string& path, const KernelLessonOptions& options) {
  const InputFile input = ReadInputFile(path, kMaxKernelFileBytes);
  if (!input.ok()) {
    KernelLessonLoad load;
    load.error = input.error;
    return load;
  }
  return CompileKernelLesson(path, input.bytes, options);
}

std::string LaunchText(const KernelLesson& lesson) {
  const KernelLaunch& l = lesson.run.launch;
  const auto three = [](const std::array<int, 3>& v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  };
  return "<<<" + three(l.grid) + ", " + three(l.block) + ">>> at " + std::to_string(l.m) + "x" + std::to_string(l.n) + "x" +
         std::to_string(l.k);
}

nlohmann::json SharedArraysJson(const cuda::CompiledKernel& kernel) {
  nlohmann::json arrays = nlohmann::json::array();
  for (const cuda::SharedArray& a : kernel.shared) {
    std::vector<int> extents(a.dims.begin(), a.dims.begin() + a.rank);
    arrays.push_back({{"name", a.name},
                      {"type", a.type == cuda::Type::kInt ? "int" : "float"},
                      {"extents", extents},
                      {"line", a.pos.line}});
  }
  return arrays;
}

}  // namespace sim
