#include "app/pages/occupancy_figures.h"

#include "kernels/device.h"

namespace gui {
namespace {

bool Same(const sim::KernelChoice& a, const sim::KernelChoice& b) {
  return a.kind == b.kind && a.tiles.tm == b.tiles.tm && a.tiles.tn == b.tiles.tn && a.tiles.tk == b.tiles.tk;
}

}  // namespace

void OccupancyFigures::Request(const sim::LessonConfig& config) {
  const sim::KernelChoice choice = sim::KernelChoice::Of(config);
  if (shown_ && Same(*shown_, choice)) return;
  shown_ = choice;
  view_.kernel = sim::Describe(choice);
  view_.gpus.clear();
  for (const sim::GpuLimits& gpu : sim::ClassroomGpus()) {
    view_.gpus.push_back({gpu, sim::OccupancyOf(choice, gpu), "ptxas at build time"});
  }
  const kernels::GpuStatus& status = kernels::ProbeGpu();
  if (!status.available) {
    view_.present = "no GPU here: " + status.reason;
    return;
  }
  view_.present = "asking " + status.device.name + "…";
  if (job_.Running()) {
    pending_ = choice;
  } else {
    Start(choice);
  }
}

void OccupancyFigures::Start(const sim::KernelChoice& choice) {
  pending_.reset();
  taken_ = false;
  job_.Start([choice](const std::atomic<bool>&, kernels::JobProgress&) {
    Present present;
    present.figures = kernels::OccupancyOnPresentGpu(choice, present.reason);
    return present;
  });
}

void OccupancyFigures::Poll() {
  if (job_.Running()) return;
  if (!taken_) {
    taken_ = true;
    // A result for a kernel the lesson has since left is dropped: the pending one follows.
    if (!pending_) {
      const std::optional<Present> present = job_.LastResult();
      if (present && present->figures) {
        view_.gpus.push_back({present->figures->gpu, present->figures->occupancy, present->figures->registers_from});
        view_.present.clear();
      } else if (present) {
        view_.present = "the GPU here: " + present->reason;
      }
    }
  }
  if (pending_) Start(*pending_);
}

}  // namespace gui
