// notifications.h — messages for the user (a bad value, a corrupt settings file, a saved
// screenshot), shown in the status bar and kept for --dump-state. Never a crash instead.
#pragma once
#include <string>
#include <vector>

namespace gui {

enum class Severity { kInfo, kWarning, kError };

struct Notification {
  Severity severity = Severity::kInfo;
  std::string text;
};

class Notifications {
 public:
  // Also echoed to stderr, so a command-line run and a CI log show it too.
  void Add(Severity severity, std::string text);
  const std::vector<Notification>& All() const { return items_; }
  const Notification* Latest() const { return items_.empty() ? nullptr : &items_.back(); }

 private:
  std::vector<Notification> items_;
};

const char* SeverityName(Severity severity);

}  // namespace gui
