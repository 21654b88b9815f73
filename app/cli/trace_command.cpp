#include "app/cli/trace_command.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/trace_lesson.h"
#include "app/cli/trace_print.h"
#include "sim/atomic_file.h"
#include "sim/comparison.h"
#include "sim/trace_summary.h"
#include "sim/walkthrough.h"

namespace cli {
namespace {

constexpr int kExitUsage = 2;
constexpr int kExitCannotWrite = 1;
// The trace runs forward once: no step-back history.
constexpr std::size_t kNoHistory = 0;
// The default lesson has four blocks: show them all, and no more than that by default.
constexpr int kDefaultShownBlocks = 4;

struct TraceOptions {
  TraceFlags flags;
  std::string json;
  int blocks = kDefaultShownBlocks;
};

void CountComparison(const sim::Simulation& simulation, TraceReport& report) {
  sim::ComparisonCount count = sim::CountComparison(simulation.config(), simulation.a(), simulation.b());
  if (!count.global_reads) {
    report.comparison_error = count.error;
    return;
  }
  report.comparison = CountedComparison{count.lesson, *count.global_reads};
}

std::uint64_t NaiveGlobalReads(const TraceReport& report) {
  if (report.simulation->config().kernel == sim::KernelKind::kNaive) return report.simulation->counters().GlobalReads();
  return report.comparison ? report.comparison->global_reads : 0;
}

int WriteJson(const std::string& path, const TraceReport& report) {
  const std::string text =
      sim::TraceSummaryJson(*report.simulation, report.outcome, NaiveGlobalReads(report)).dump(2) + "\n";
  if (path == "-") {
    std::cout << text << std::flush;
    return 0;
  }
  if (auto error = sim::WriteFileAtomically(path, text)) {
    std::fprintf(stderr, "tilescope trace: --json: %s\n", error->c_str());
    return kExitCannotWrite;
  }
  return 0;
}

int Run(const TraceOptions& options) {
  TraceLessonResult built = BuildTraceLesson(options.flags);
  if (!built.lesson) {
    std::fprintf(stderr, "tilescope trace: %s\n", built.error.c_str());
    return kExitUsage;
  }
  for (const std::string& warning : built.lesson->warnings)
    std::fprintf(stderr, "tilescope trace: warning: %s\n", warning.c_str());
  const bool json_only = options.json == "-";
  sim::Simulation simulation(built.lesson->config, kNoHistory);
  sim::WalkthroughRecorder walkthrough(simulation.geometry(), json_only ? 0 : options.blocks);
  simulation.SetSink(&walkthrough);
  simulation.RunToEnd();
  simulation.SetSink(nullptr);
  TraceReport report;
  report.simulation = &simulation;
  report.walkthrough = &walkthrough;
  report.outcome = sim::Assess(simulation);
  report.source = built.lesson->source;
  report.expected_c = built.lesson->expected_c;
  CountComparison(simulation, report);
  if (!json_only) PrintTrace(stdout, report);
  std::fflush(stdout);
  return options.json.empty() ? 0 : WriteJson(options.json, report);
}

}  // namespace

void AddTraceCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* trace = app.add_subcommand(
      "trace",
      "Run a lesson on the model and print the phase-by-phase walkthrough with the counted global reads "
      "(no flags: the default lesson, 4×4 · 4×4 with TILE 2)");
  AddLessonFlags(*trace, options->flags);
  trace->add_option("--blocks", options->blocks, "How many blocks the walkthrough shows (default 4)")
      ->check(kWholeNumber);
  trace->add_option("--json", options->json, "Write the run's figures as JSON to FILE, or to standard output with -");
  trace->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
