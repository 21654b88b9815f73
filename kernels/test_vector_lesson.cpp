#include "kernels/test_vector_lesson.h"

#include "kernels/test_vector_file.h"

namespace kernels {

std::optional<sim::ValidationError> ApplyTestVectorCase(const std::string& path, long long number,
                                                        sim::LessonConfig& lesson, TestVectorLesson* taken) {
  const auto bad = [](const std::string& message) { return sim::ValidationError{"fill_file", message}; };
  if (path.empty()) return bad("give the path of a test-vector file (the test-vector harness's binary format)");
  const TestVectorRead read = ReadTestVectors(path);
  const long long count = static_cast<long long>(read.cases.size());
  if (number < 1 || number > count) {
    if (!read.ok()) return bad(read.error);  // the reader's message names the file already
    if (count == 0) return bad(path + " holds no test-vector cases");
    return bad(path + ": case " + std::to_string(number) + " is out of range: the file holds cases 1 to " +
               std::to_string(count));
  }
  const TestVectorCase& chosen = read.cases[static_cast<std::size_t>(number - 1)];
  constexpr long long kLargest = sim::kMaxDimension;
  if (chosen.shape.m > kLargest || chosen.shape.n > kLargest || chosen.shape.k > kLargest) {
    return bad(path + ": case " + std::to_string(number) + " is " + ToString(chosen.shape) +
               ", larger than the model's limit of " + std::to_string(kLargest));
  }
  lesson.m = static_cast<int>(chosen.shape.m);
  lesson.n = static_cast<int>(chosen.shape.n);
  lesson.k = static_cast<int>(chosen.shape.k);
  lesson.fill_a = sim::MatrixFill::Explicit(chosen.a);
  lesson.fill_b = sim::MatrixFill::Explicit(chosen.b);
  if (taken) *taken = {static_cast<int>(count), chosen.c};
  return std::nullopt;
}

}  // namespace kernels
