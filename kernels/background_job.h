// background_job.h — the one worker-thread helper: work that would stall a frame (a hundred
// full runs of a lesson, a model count, a GPU sweep) runs here. Start() returns at once, the
// UI polls Running() and the progress once a frame and takes the result when it is there;
// Cancel() sets a flag the work checks between runs. The destructor cancels and waits, so no
// worker outlives what shows it. A worker runs at a lower priority (nice +10) than the thread
// that started it: on a 2-core machine the window's thread would otherwise share its core with
// a lesson's whole-run pass and comparison count, and draw a third of the frames it could.
#pragma once
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <thread>

namespace kernels {

struct JobProgress {
  std::atomic<int> done{0};
  std::atomic<int> total{0};
};

template <typename Result>
class BackgroundJob {
 public:
  using Work = std::function<Result(const std::atomic<bool>& cancel, JobProgress& progress)>;

  BackgroundJob() = default;
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;
  ~BackgroundJob() {
    Cancel();
    if (worker_.joinable()) worker_.join();
  }

  // False while a job runs (one at a time).
  bool Start(Work work) {
    if (running_.load()) return false;
    if (worker_.joinable()) worker_.join();
    cancel_.store(false);
    progress_.done.store(0);
    progress_.total.store(0);
    running_.store(true);
    worker_ = std::thread([this, work = std::move(work)] {
      YieldToTheStarter();
      Result result = work(cancel_, progress_);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = std::move(result);
        running_.store(false);
      }
      finished_.notify_all();
    });
    return true;
  }

  void Cancel() { cancel_.store(true); }
  // Waits for the job to end; false if it still runs after `timeout`. Call it from the thread
  // that starts jobs.
  // It wakes when the job ends, not at a polling tick: `verify` waits once per case, and a 5 ms
  // tick made 100 000 cases of 1×1×1 take ten minutes of sleep.
  bool Wait(std::chrono::milliseconds timeout = std::chrono::milliseconds::max()) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto ended = [this] { return !running_.load(); };
      if (timeout == std::chrono::milliseconds::max()) {
        finished_.wait(lock, ended);
      } else if (!finished_.wait_for(lock, timeout, ended)) {
        return false;
      }
    }
    if (worker_.joinable()) worker_.join();
    return true;
  }
  bool Running() const { return running_.load(); }
  bool Cancelling() const { return running_.load() && cancel_.load(); }
  int Done() const { return progress_.done.load(); }
  int Total() const { return progress_.total.load(); }
  // The last finished job's result (also a cancelled one's: what it had counted).
  std::optional<Result> LastResult() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return result_;
  }
  // The same, moved out (nothing left after): a result of hundreds of MiB is not copied.
  std::optional<Result> TakeResult() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(result_, std::nullopt);
  }

 private:
  // Linux gives each thread its own nice value, inherited from the thread that made it. Where
  // it cannot be lowered the work runs at the starter's priority: nothing to report.
  static void YieldToTheStarter() {
    const auto self = static_cast<id_t>(gettid());
    setpriority(PRIO_PROCESS, self, std::min(getpriority(PRIO_PROCESS, self) + kNicer, kNicest));
  }
  static constexpr int kNicer = 10;
  static constexpr int kNicest = 19;

  std::thread worker_;
  std::atomic<bool> running_{false};
  std::atomic<bool> cancel_{false};
  JobProgress progress_;
  mutable std::mutex mutex_;  // guards result_ and the end of running_, which finished_ waits for
  std::condition_variable finished_;
  std::optional<Result> result_;
};

}  // namespace kernels
