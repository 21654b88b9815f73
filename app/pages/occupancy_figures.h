// occupancy_figures.h — the occupancy view's figures for the lesson's kernel: the classroom
// GPUs' at once (arithmetic on recorded registers), the present GPU's on a worker, because
// they ask the device (cudaFuncGetAttributes) and a frame must never wait on that.
#pragma once
#include <optional>
#include <string>

#include "app/panels/occupancy_panel.h"
#include "kernels/background_job.h"
#include "kernels/occupancy.h"
#include "sim/lesson/lesson_config.h"

namespace gui {

class OccupancyFigures {
 public:
  // The lesson's kernel changed (or may have): recount where the tile differs.
  void Request(const sim::LessonConfig& config);
  // Once a frame: takes the present GPU's figures when the worker has them.
  void Poll();
  const OccupancyView& View() const { return view_; }
  bool Busy() const { return job_.Running() || pending_.has_value() || !taken_; }

 private:
  struct Present {
    std::optional<kernels::PresentOccupancy> figures;
    std::string reason;
  };
  void Start(const sim::KernelChoice& choice);

  OccupancyView view_;
  std::optional<sim::KernelChoice> shown_;
  std::optional<sim::KernelChoice> pending_;  // asked while the worker was busy
  kernels::BackgroundJob<Present> job_;
  bool taken_ = true;  // the last job's result is in view_
};

}  // namespace gui
