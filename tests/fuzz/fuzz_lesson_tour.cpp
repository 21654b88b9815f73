// A lesson file's tour run against the model (sim::PrepareTour, what the app does on a worker
// before it shows the lesson), within a small budget of work: any tour prepares every stop or
// names the stop that cannot be prepared, never a crash; and the tour saved with its lesson
// prepares again to the same stops.
//
// The budget: preparing a tour runs the model, up to about two seconds of it in Release
// (sim/lesson/tour_model.cpp's limit) and several times that under the sanitizers, where one input
// over 10 s counts as a hang: the shipped cublas tour took 1.9 s under ASan, lesson 1's 0.2 s.
// Each input gets 100 ms of this thread's CPU time; past it the tour's cancel flag is set, the
// preparation ends as cancelled (the model looks at the flag every 4096 steps, so a few hundred
// milliseconds at most) and the input is done. Small tours are prepared whole and checked, a
// large one up to the stops its budget reaches; the clock is the thread's own, so other work on
// the machine does not change which inputs run to the end.
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>

#include "fuzz_check.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/tour.h"

namespace {

constexpr double kCpuSecondsPerInput = 0.1;
// A tour's budget of model work, scaled down so that an input reaches it well within its CPU
// time (the app's, 2^27 thread-instructions, is about two seconds): the refusal, which names
// the stop that crosses the budget, is fuzzed too.
constexpr std::uint64_t kFuzzTourInstructions = std::uint64_t{1} << 20;
constexpr std::uint64_t kFuzzTourBytes = std::uint64_t{64} << 20;

// Sets `cancel` once the thread that made it has used `seconds` of CPU time.
class CpuBudget {
 public:
  explicit CpuBudget(double seconds) {
    pthread_getcpuclockid(pthread_self(), &clock_);
    const double end = Seconds() + seconds;
    watchdog_ = std::thread([this, end] {
      while (!done_.load()) {
        if (Seconds() > end) {
          cancel_.store(true);
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  ~CpuBudget() {
    done_.store(true);
    watchdog_.join();
  }
  CpuBudget(const CpuBudget&) = delete;
  CpuBudget& operator=(const CpuBudget&) = delete;
  const std::atomic<bool>* cancel() const { return &cancel_; }
  bool spent() const { return cancel_.load(); }

 private:
  double Seconds() const {
    timespec now{};
    clock_gettime(clock_, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  }

  clockid_t clock_{};
  std::atomic<bool> cancel_{false};
  std::atomic<bool> done_{false};
  std::thread watchdog_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sim::LessonLoad load = sim::ParseLessonUnchecked(std::string(reinterpret_cast<const char*>(data), size));
  if (!load.lesson || load.tour.empty()) return 0;  // the reader alone is fuzz_lesson's
  const CpuBudget budget(kCpuSecondsPerInput);
  sim::TourBudget model_budget(kFuzzTourInstructions, kFuzzTourBytes);
  const sim::PreparedTour prepared = sim::PrepareTour(*load.lesson, load.tour, budget.cancel(), nullptr, &model_budget);
  if (budget.spent()) return 0;
  FUZZ_CHECK(model_budget.instructions() <= kFuzzTourInstructions, "the model never ran past the tour's budget");
  if (!prepared.ok()) {
    FUZZ_CHECK(prepared.stops.empty(), "a tour that cannot be prepared keeps no stop");
    FUZZ_CHECK(prepared.error != sim::kTourCancelled, "nothing cancelled it");
    FUZZ_CHECK(prepared.error.rfind("tour stop ", 0) == 0 || prepared.error.rfind("the lesson cannot run", 0) == 0,
               "the error names the stop it comes from");
    return 0;
  }
  FUZZ_CHECK(prepared.stops.size() == load.tour.stops.size(), "a prepared tour has every stop");
  const sim::LessonLoad saved = sim::ParseLessonUnchecked(sim::LessonToJson(*load.lesson, load.tour));
  FUZZ_CHECK(saved.lesson.has_value(), "a lesson with its tour loads again once saved");
  sim::TourBudget again_budget(kFuzzTourInstructions, kFuzzTourBytes);
  const sim::PreparedTour again = sim::PrepareTour(*saved.lesson, saved.tour, budget.cancel(), nullptr, &again_budget);
  if (budget.spent()) return 0;
  FUZZ_CHECK(again.stops.size() == prepared.stops.size(), "the saved tour prepares every stop again");
  for (std::size_t i = 0; i < again.stops.size(); ++i) {
    FUZZ_CHECK(again.stops[i].step == prepared.stops[i].step, "a saved stop is at the same step");
    FUZZ_CHECK(again.stops[i].text == prepared.stops[i].text, "a saved stop fills the same text");
    FUZZ_CHECK(again.stops[i].answer.text == prepared.stops[i].answer.text, "a saved stop has the same answer");
  }
  return 0;
}
