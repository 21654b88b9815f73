#include "app/gui/notifications.h"

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

void Notifications::Add(Severity severity, std::string text) {
  std::cerr << "tilescope: " << SeverityName(severity) << ": " << text << std::endl;
  items_.push_back({severity, std::move(text)});
}

}  // namespace gui
