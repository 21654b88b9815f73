#include "app/cli/trace_command.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

#include "app/cli/command_line.h"
#include "app/cli/interrupt.h"
#include "app/cli/number_option.h"
#include "app/cli/trace_lesson.h"
#include "app/cli/trace_print.h"
#include "sim/model/run_check.h"
#include "sim/io/atomic_file.h"
#include "kernels/background_job.h"
#include "sim/lesson/comparison.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/trace_summary.h"
#include "sim/lesson/walkthrough.h"

namespace cli {
namespace {

constexpr int kExitCannotWrite = 1;
constexpr int kExitCheckFailed = 1;
// The trace runs forward once: no step-back history.
constexpr std::size_t kNoHistory = 0;
// The default lesson has four blocks: show them all, and no more than that by default.
constexpr int kDefaultShownBlocks = 4;
// Steps between two looks at the clock while the lesson runs: a step takes about a microsecond.
constexpr std::int64_t kStepsBetweenClockReads = 4096;

struct TraceOptions {
  TraceFlags flags;
  std::string json;
  int blocks = kDefaultShownBlocks;
};

// A 512³ lesson runs for seconds on the model, and its comparison kernel as long again: on a
// terminal a progress line says how far each has got, and the first Ctrl+C stops either between
// two steps. The lesson runs on this thread (its walkthrough records every step); false when
// Ctrl+C stopped it first, `fraction` then says how far it got.
bool RunLesson(sim::Simulation& simulation, ProgressLine& progress, double& fraction) {
  const double expected = std::max(1.0, double(sim::Expected(simulation.config()).thread_instructions));
  auto shown = std::chrono::steady_clock::now();
  simulation.RunWhile([&](const sim::Simulation& now) {
    if (Interrupted()) return false;
    if (now.step() % kStepsBetweenClockReads == 0 && std::chrono::steady_clock::now() - shown >= kProgressInterval) {
      shown = std::chrono::steady_clock::now();
      progress.Show("running the lesson on the model: step " + std::to_string(now.step()) + ", " +
                    PercentDone(double(now.counters().thread_instructions) / expected) + CtrlCHint());
    }
    return true;
  });
  progress.Clear();
  fraction = double(simulation.counters().thread_instructions) / expected;
  return simulation.Finished();
}

// The comparison kernel runs on a worker, so that this thread can show how far it is and turn
// Ctrl+C into a stop the model sees between steps. False when Ctrl+C stopped it first.
bool CountComparison(const sim::Simulation& simulation, TraceReport& report, ProgressLine& progress,
                     double& fraction) {
  std::atomic<double> counted{0.0};
  kernels::BackgroundJob<sim::ComparisonCount> job;
  job.Start([&](const std::atomic<bool>& cancel, kernels::JobProgress&) {
    return sim::CountComparison(simulation.config(), simulation.a(), simulation.b(), &cancel, &counted);
  });
  const std::string kernel = sim::Name(sim::ComparisonKernel(simulation.config()).kernel);
  while (!job.Wait(kProgressInterval)) {
    if (Interrupted()) job.Cancel();
    progress.Show("counting the " + kernel + " kernel for comparison: " + PercentDone(counted.load()) + CtrlCHint());
  }
  progress.Clear();
  fraction = counted.load();
  const sim::ComparisonCount count = *job.LastResult();
  if (!count.global_reads) {
    report.comparison_error = count.error;
    return !count.error.empty();  // an error is reported with the figures; no error: it was stopped
  }
  report.comparison = CountedComparison{count.kernel, *count.global_reads};
  return true;
}

std::uint64_t NaiveGlobalReads(const TraceReport& report) {
  if (report.simulation->config().kernel == sim::KernelKind::kNaive) return report.simulation->counters().GlobalReads();
  return report.comparison ? report.comparison->global_reads : 0;
}

int WriteJson(const std::string& path, const TraceReport& report) {
  const std::string text =
      sim::TraceSummaryJson(*report.lesson, *report.simulation, report.outcome, NaiveGlobalReads(report)).dump(2) + "\n";
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
  InterruptGuard interrupt_guard;
  ProgressLine progress;
  sim::Simulation simulation(built.lesson->config, kNoHistory);
  sim::WalkthroughRecorder walkthrough(simulation.geometry(), json_only ? 0 : options.blocks);
  simulation.SetSink(&walkthrough);
  double fraction = 0.0;
  if (!RunLesson(simulation, progress, fraction)) {
    std::fprintf(stderr, "tilescope trace: stopped by Ctrl+C at step %lld of the lesson's run (%s of it); nothing "
                 "was printed\n", static_cast<long long>(simulation.step()), PercentDone(fraction).c_str());
    return kExitInterrupted;
  }
  simulation.SetSink(nullptr);
  TraceReport report;
  report.lesson = &built.lesson->config;
  report.simulation = &simulation;
  report.walkthrough = &walkthrough;
  report.outcome = sim::Assess(simulation);
  report.source = built.lesson->source;
  report.expected_c = built.lesson->expected_c;
  if (!CountComparison(simulation, report, progress, fraction)) {
    std::fprintf(stderr, "tilescope trace: stopped by Ctrl+C while counting the comparison kernel (%s of it), after "
                 "the lesson's whole run; nothing was printed\n", PercentDone(fraction).c_str());
    return kExitInterrupted;
  }
  if (!json_only) PrintTrace(stdout, report);
  std::fflush(stdout);
  const int written = options.json.empty() ? 0 : WriteJson(options.json, report);
  // A C that differs from the file's expected C fails the run, as it fails `verify`.
  if (const std::optional<FileCheck> check = CheckAgainstFile(report); check && !check->passed()) {
    std::fprintf(stderr, "tilescope trace: C differs from the file's expected C beyond tolerance (max |error| %.3g, "
                 "tolerance %.3g)\n", check->worst, check->tolerance);
    return written != 0 ? written : kExitCheckFailed;
  }
  return written;
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
      ->check(WholeNumberIn(0, std::numeric_limits<int>::max()));
  trace->add_option("--json", options->json, "Write the run's figures as JSON to FILE, or to standard output with -");
  trace->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
