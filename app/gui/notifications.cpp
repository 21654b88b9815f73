#include "app/gui/notifications.h"

#include <chrono>
#include <iostream>

namespace gui {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "info";
}

double Notifications::Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Notifications::Add(Severity severity, std::string text) {
  std::cerr << "tilescope: " << SeverityName(severity) << ": " << text << std::endl;
  items_.push_back({severity, std::move(text), Now()});
}

const Notification* Notifications::Current(double now) const {
  if (items_.size() <= dismissed_) return nullptr;
  const Notification& latest = items_.back();
  const double shown_for = latest.severity == Severity::kInfo ? kInfoSeconds : kProblemSeconds;
  return now - latest.time < shown_for ? &latest : nullptr;
}

}  // namespace gui
