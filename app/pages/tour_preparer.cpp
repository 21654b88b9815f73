#include "app/pages/tour_preparer.h"

#include <utility>

namespace gui {

void TourPreparer::Start(Request request) {
  if (pending_) {
    job_.Cancel();  // the newer choice wins; the older one's lesson never shows
    job_.Wait();
  }
  pending_ = Pending{std::move(request)};
  job_.Start([lesson = pending_->request.lesson, tour = pending_->request.tour](const std::atomic<bool>& cancel,
                                                                               kernels::JobProgress& progress) {
    progress.total.store(static_cast<int>(tour.stops.size()));
    return sim::PrepareTour(lesson, tour, &cancel, &progress.done);
  });
}

std::optional<TourPreparation> TourPreparer::Progress() const {
  if (!pending_) return std::nullopt;
  return TourPreparation{pending_->request.source, static_cast<int>(pending_->request.tour.stops.size()),
                         job_.Done(), job_.Cancelling(), pending_->frames, pending_->seconds};
}

std::optional<TourPreparer::Finished> TourPreparer::Poll(double seconds) {
  if (!pending_) return std::nullopt;
  ++pending_->frames;
  pending_->seconds += seconds;
  if (job_.Running()) return std::nullopt;
  Pending pending = std::move(*pending_);
  pending_.reset();
  Finished finished;
  finished.preparation = {pending.request.source, static_cast<int>(pending.request.tour.stops.size()), job_.Done(),
                          false, pending.frames, pending.seconds};
  finished.request = std::move(pending.request);
  finished.prepared = job_.LastResult().value_or(sim::PreparedTour{{}, sim::kTourCancelled});
  return finished;
}

}  // namespace gui
