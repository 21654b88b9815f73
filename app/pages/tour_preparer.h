// tour_preparer.h — a lesson's tour run against the model on a worker (sim::PrepareTour, up to
// seconds of model work) while the window draws on. One at a time: a newer one cancels the
// older, whose lesson then never shows. What to do with a prepared tour is the LessonEditor's.
#pragma once
#include <optional>
#include <string>

#include "kernels/background_job.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"

namespace gui {

// How far a preparation has come, for the guide's progress line and --dump-state.
struct TourPreparation {
  std::string source;  // the preset's name or the file's path
  int stops = 0;       // in its tour
  int done = 0;        // stops prepared so far
  bool cancelling = false;
  long frames = 0;     // the window's frames drawn while it ran
  double seconds = 0;
};

// How a preparation ended, for --dump-state: "ready", "cancelled" or "failed".
struct PreparationOutcome {
  TourPreparation preparation;
  std::string result;
  std::string message;
};

class TourPreparer {
 public:
  // What is prepared: the lesson with its tour, and what to do once it is ready.
  struct Request {
    std::string source;
    sim::LessonConfig lesson;
    sim::Tour tour;
    std::string status;  // the status line once it is open
    bool running = false;  // start-up: the lesson already runs and only its guide waits
  };
  // A finished preparation: the request, its result (a cancelled one's error is
  // sim::kTourCancelled) and how far it came.
  struct Finished {
    Request request;
    sim::PreparedTour prepared;
    TourPreparation preparation;
  };

  void Start(Request request);
  void Cancel() { job_.Cancel(); }
  bool Preparing() const { return pending_.has_value(); }
  std::optional<TourPreparation> Progress() const;
  // Once a frame (`seconds` since the last): the preparation that finished since, if one did.
  std::optional<Finished> Poll(double seconds);

 private:
  struct Pending {
    Request request;
    long frames = 0;
    double seconds = 0;
  };
  std::optional<Pending> pending_;
  kernels::BackgroundJob<sim::PreparedTour> job_;  // last: destroyed first, it stops the worker
};

}  // namespace gui
