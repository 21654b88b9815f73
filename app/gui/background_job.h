// background_job.h — model work that would stall a frame (a hundred full runs of a
// lesson), done on a worker thread: Start() returns at once, the UI polls Running() and
// the progress once a frame and takes the result when it is there; Cancel() sets a flag
// the work checks between runs. The destructor cancels and waits, so no worker outlives
// the panel that shows it.
#pragma once
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace gui {

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
      Result result = work(cancel_, progress_);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = std::move(result);
      }
      running_.store(false);
    });
    return true;
  }

  void Cancel() { cancel_.store(true); }
  bool Running() const { return running_.load(); }
  bool Cancelling() const { return running_.load() && cancel_.load(); }
  int Done() const { return progress_.done.load(); }
  int Total() const { return progress_.total.load(); }
  // The last finished job's result (also a cancelled one's: what it had counted).
  std::optional<Result> LastResult() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return result_;
  }
  void Forget() {
    std::lock_guard<std::mutex> lock(mutex_);
    result_.reset();
  }

 private:
  std::thread worker_;
  std::atomic<bool> running_{false};
  std::atomic<bool> cancel_{false};
  JobProgress progress_;
  mutable std::mutex mutex_;
  std::optional<Result> result_;
};

}  // namespace gui
