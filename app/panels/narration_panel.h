// narration_panel.h — one plain sentence for the step just taken (sim::NarrateStep, made
// from the trace events, never written per lesson), and the sentences of the steps before
// it. Stepping back drops the sentences of the steps undone; a jump of many steps (run to
// the barrier, scrubbing) narrates where it landed and says how far it went.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <string>

#include "app/panels/whole_run_view.h"
#include "sim/model/snapshot.h"

namespace gui {

struct NarrationPanel {

  // Follows the run whether or not the panel is open, so the scrollback has no gaps.
  void Update(const sim::Snapshot& snapshot);
  // In presentation mode only the step just run: a room reads it, nobody scrolls back.
  // `whole_run`: a lesson shown without step back says so before its first step.
  void Draw(bool presentation, const WholeRunView& whole_run);
  void DumpState(nlohmann::json& state) const;

 private:
  struct Line {
    std::int64_t step = 0;
    std::int64_t steps_taken = 1;  // > 1: the sentence is the last of a jump
    std::string text;
  };
  static constexpr std::size_t kScrollback = 200;

  std::deque<Line> lines_;
  std::int64_t seen_step_ = -1;
  const void* seen_lesson_ = nullptr;  // A rebuilt lesson starts a new story.
  bool scroll_to_end_ = false;
};

}  // namespace gui
