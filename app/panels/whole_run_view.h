// whole_run_view.h — the whole-run pass (the run's length, its marks and whole-run counters,
// counted on a worker) as the lesson page reports it to the panels that wait for it: while it
// counts they say so, and once it was stopped they say it was not counted.
#pragma once
#include <string>

namespace gui {

struct WholeRunView {
  bool counting = false;
  bool cancelled = false;
  double fraction = 0.0;  // 0..1 while counting
  // Why stepping and step back are off (a lesson too big for step back, shown at the end of
  // its whole run), else empty.
  std::string stepping_off;
};

}  // namespace gui
