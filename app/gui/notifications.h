// notifications.h — messages for the user (a bad value, a corrupt settings file, a saved
// screenshot), shown in the status bar and kept in a log (hover the status bar; also in
// --dump-state). Never a crash instead. A message leaves the status bar after a few seconds
// or at the user's next action, so an old error never stands beside a new state.
#pragma once
#include <string>
#include <vector>

namespace gui {

enum class Severity { kInfo, kWarning, kError };

struct Notification {
  Severity severity = Severity::kInfo;
  std::string text;
  double time = 0.0;  // Notifications::Now() when it was added
};

class Notifications {
 public:
  // Seconds a message stays in the status bar: errors longer, they need reading.
  static constexpr double kInfoSeconds = 5.0;
  static constexpr double kProblemSeconds = 10.0;

  // Seconds on a steady clock.
  static double Now();
  // Also echoed to stderr, so a command-line run and a CI log show it too.
  void Add(Severity severity, std::string text);
  const std::vector<Notification>& All() const { return items_; }
  // What the status bar shows at `now`: the latest message, unless it has had its time or
  // an action came after it; nothing then.
  const Notification* Current(double now) const;
  // The user acted: the message on show has been seen.
  void Dismiss() { dismissed_ = items_.size(); }

 private:
  std::vector<Notification> items_;
  std::size_t dismissed_ = 0;  // messages before this index have left the status bar
};

const char* SeverityName(Severity severity);

}  // namespace gui
