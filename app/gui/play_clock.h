// play_clock.h — Play steps the lesson at a chosen speed in steps per second, whatever the
// frame rate: each frame runs the steps that the time since the last frame has earned.
#pragma once
#include <algorithm>

namespace gui {

struct PlayClock {
  static constexpr float kMinSpeed = 1.0f;  // steps per second
  static constexpr float kMaxSpeed = 1000.0f;
  static constexpr float kDefaultSpeed = 8.0f;

  bool playing = false;
  float steps_per_second = kDefaultSpeed;

  // Steps to run this frame, `seconds` after the last; a long stall earns at most a
  // quarter-second's worth, so a slow frame never turns into a sudden jump.
  int StepsDue(float seconds) {
    if (!playing) {
      owed_ = 1.0f;  // Play takes its first step at once.
      return 0;
    }
    owed_ += std::min(seconds, 0.25f) * std::clamp(steps_per_second, kMinSpeed, kMaxSpeed);
    const int due = static_cast<int>(owed_);
    owed_ -= static_cast<float>(due);
    return due;
  }

 private:
  float owed_ = 1.0f;
};

}  // namespace gui
