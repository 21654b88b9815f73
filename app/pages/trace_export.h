// trace_export.h — the Controls panel's "Export trace": the running lesson, run from its
// start to its end on a copy of the model, written as `tilescope trace --json` writes it
// (sim/lesson/trace_summary.h), so the file from the window and the one from the command line
// read the same. Runs on the caller's thread; the GUI calls it from a BackgroundJob.
#pragma once
#include <string>

#include "sim/lesson/lesson_config.h"

namespace gui {

// Returns an empty string once `path` is written, otherwise what went wrong.
std::string ExportTraceJson(const sim::LessonConfig& lesson, const std::string& path);

}  // namespace gui
