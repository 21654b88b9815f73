#include "app/cli/tour_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/interrupt.h"
#include "app/cli/tour_take_away.h"
#include "kernels/background_job.h"
#include "sim/io/input_file.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/tour.h"

namespace cli {
namespace {


struct TourOptions {
  std::string lesson = "default";
  bool json = false;
  bool queries = false;
  std::vector<std::string> ask;
  TakeAwayOptions take_away;
};


// A tour may ask for seconds of model work: it runs on a worker while this thread shows the
// stops done on a terminal and turns the first Ctrl+C into a cancel the model sees mid-run.
sim::PreparedTour PrepareStoppable(const sim::LessonConfig& lesson, const sim::Tour& tour) {
  kernels::BackgroundJob<sim::PreparedTour> job;
  job.Start([&](const std::atomic<bool>& cancel, kernels::JobProgress& progress) {
    return sim::PrepareTour(lesson, tour, &cancel, &progress.done);
  });
  ProgressLine progress;
  while (!job.Wait(kProgressInterval)) {
    if (Interrupted()) job.Cancel();
    progress.Show("preparing the tour: " + std::to_string(job.Done()) + " of " + std::to_string(tour.stops.size()) +
                  " stops" + CtrlCHint());
  }
  progress.Clear();
  return job.LastResult().value_or(sim::PreparedTour{{}, sim::kTourCancelled});
}

const char* KindName(sim::QueryKind kind) {
  switch (kind) {
    case sim::QueryKind::kNumber:
      return "number";
    case sim::QueryKind::kText:
      return "text";
    case sim::QueryKind::kCells:
      return "cells";
  }
  return "number";
}

int PrintQueries() {
  for (const sim::QueryInfo& query : sim::Queries()) {
    const std::string arguments = *query.arguments ? std::string(" ") + query.arguments : "";
    std::printf("%-24s %-6s %s%s\n", query.name, KindName(query.kind), query.help,
                arguments.empty() ? "" : ("  [arguments:" + arguments + "]").c_str());
  }
  std::printf("\nAny query also takes lesson fields (tile=16, barrier2=off, m=32): it then asks about the lesson so "
              "edited.\nPanels a stop may show:");
  for (const std::string& id : sim::TourPanelIds()) std::printf(" %s", id.c_str());
  std::printf("\n");
  return 0;
}

nlohmann::json StopJson(const sim::TourStop& stop, const sim::PreparedStop& prepared) {
  nlohmann::json out{{"title", prepared.title}, {"step", prepared.step}, {"text", prepared.text}};
  if (prepared.quote) {
    nlohmann::json quote{{"seed", prepared.quote->seed}, {"text", prepared.quote->text}};
    for (const sim::CheckedClaim& claim : prepared.claims) {
      quote["claims"].push_back({{"query", claim.claim.query}, {"seed_says", claim.claim.figure},
                                 {"model_counts", claim.model}, {"agrees", claim.agrees}});
    }
    out["seed"] = quote;
  }
  if (prepared.measured) {
    nlohmann::json measured{{"file", prepared.measured->file}, {"device", prepared.measured->device},
                            {"lines", prepared.measured->lines}, {"tables", nlohmann::json::array()}};
    for (const sim::MeasuredTable& table : prepared.measured->tables) {
      measured["tables"].push_back({{"columns", table.columns}, {"rows", table.rows}});
    }
    for (const sim::CheckedClaim& claim : prepared.measured_claims) {
      measured["claims"].push_back({{"query", claim.claim.query}, {"measured", claim.claim.figure},
                                    {"model_counts", claim.model}, {"agrees", claim.agrees}});
    }
    out["measured"] = measured;
  }
  if (stop.question) {
    const sim::Question& question = *stop.question;
    nlohmann::json q{{"kind", sim::Name(question.kind)}, {"prompt", prepared.prompt}, {"query", question.query},
                     {"answer", prepared.answer.text}, {"why", prepared.why}};
    for (const sim::Choice& choice : question.choices) {
      q["choices"].push_back({{"text", choice.text}, {"value", choice.value}, {"seed", choice.seed}});
    }
    if (question.kind == sim::QuestionKind::kChoice) q["right_choice"] = prepared.right_choice + 1;
    out["question"] = q;
  }
  return out;
}

// Each quoted line as its columns in words: "    tiled16_nosync2 · size 1024 · mean share of C
// differing 12.78% · ...", the first column naming the row.
void PrintMeasuredTable(const sim::MeasuredTable& table) {
  for (const std::vector<std::string>& row : table.rows) {
    std::string line = row.front();
    for (std::size_t field = 1; field < row.size(); ++field) line += " \u00b7 " + table.columns[field] + " " + row[field];
    std::printf("    %s\n", line.c_str());
  }
}

void PrintStop(std::size_t index, std::size_t count, const sim::TourStop& stop, const sim::PreparedStop& prepared) {
  std::printf("\nstop %zu of %zu: %s (step %lld)\n", index + 1, count, prepared.title.c_str(),
              static_cast<long long>(prepared.step));
  std::printf("  %s\n", prepared.text.c_str());
  if (prepared.quote) {
    std::printf("  %s says: \"%s\"\n", prepared.quote->seed.c_str(), prepared.quote->text.c_str());
    for (const sim::CheckedClaim& claim : prepared.claims) {
      std::printf("    %s: the document says %s, the model counts %s%s\n", claim.claim.query.c_str(),
                  sim::FormatNumber(claim.claim.figure).c_str(), sim::FormatNumber(claim.model).c_str(),
                  claim.agrees ? "" : "  (the document is wrong)");
    }
  }
  if (prepared.measured) {
    std::printf("  measured on %s (%s):\n", prepared.measured->device.c_str(), prepared.measured->file.c_str());
    for (const std::string& line : prepared.measured->lines) std::printf("    \"%s\"\n", line.c_str());
    for (const sim::MeasuredTable& table : prepared.measured->tables) PrintMeasuredTable(table);
    for (const sim::CheckedClaim& claim : prepared.measured_claims) {
      std::printf("    %s: the GPU measured %s, the model counts %s%s\n", claim.claim.query.c_str(),
                  sim::FormatNumber(claim.claim.figure).c_str(), sim::FormatNumber(claim.model).c_str(),
                  claim.agrees ? "" : "  (the model differs)");
    }
  }
  if (!stop.question) return;
  const sim::Question& question = *stop.question;
  std::printf("  question (%s): %s\n", sim::Name(question.kind), prepared.prompt.c_str());
  for (std::size_t i = 0; i < question.choices.size(); ++i) {
    const sim::Choice& choice = question.choices[i];
    std::printf("    %zu. %s%s%s\n", i + 1, choice.text.c_str(),
                choice.seed.empty() ? "" : ("  [" + choice.seed + "'s figure]").c_str(),
                static_cast<int>(i) == prepared.right_choice ? "  <- the model's answer" : "");
  }
  std::printf("  answer (the model, query '%s'): %s\n", question.query.c_str(), prepared.answer.text.c_str());
  if (!prepared.why.empty()) std::printf("  why: %s\n", prepared.why.c_str());
}

// --ask: each query's value for the lesson (at its end), as a tour would fill it.
int Ask(const sim::LessonConfig& lesson, const std::vector<std::string>& queries) {
  sim::TourModel model(lesson);
  const std::int64_t end = model.TotalSteps();
  for (const std::string& query : queries) {
    std::string error;
    const std::optional<sim::QueryValue> value = model.Evaluate(query, end, &error);
    if (!value) {
      std::fprintf(stderr, "tilescope tour: %s\n", error.c_str());
      return kExitUsage;
    }
    std::printf("%s = %s\n", query.c_str(), value->text.c_str());
  }
  return 0;
}

int Run(const TourOptions& options, const GuiLauncher& launch_gui) {
  if (options.queries) return PrintQueries();
  InterruptGuard interrupt_guard;
  // The tour is prepared by PrepareStoppable() below, which Ctrl+C can stop.
  sim::LessonLoad load = sim::LoadLessonOrPreset(options.lesson, sim::TourCheck::kLater);
  for (const std::string& warning : load.warnings) std::fprintf(stderr, "tilescope tour: warning: %s\n", warning.c_str());
  if (!load.lesson) {
    std::fprintf(stderr, "tilescope tour: %s\n", load.error.c_str());
    return kExitUsage;
  }
  if (!options.ask.empty()) return Ask(*load.lesson, options.ask);
  if (load.tour.empty()) {
    std::fprintf(stderr, "tilescope tour: lesson '%s' has no tour (lessons with one: ", options.lesson.c_str());
    std::string names;
    for (const std::string& name : sim::CurriculumNames()) names += (names.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "%s)\n", names.c_str());
    return kExitUsage;
  }
  if (!options.take_away.record.empty()) return RecordSteps(options.lesson, *load.lesson, options.take_away, launch_gui);
  if (!options.take_away.slides.empty()) return WriteSlides(options.lesson, load.tour, options.take_away, launch_gui);
  load.prepared = PrepareStoppable(*load.lesson, load.tour);
  if (load.prepared.error == sim::kTourCancelled) {
    std::fprintf(stderr, "tilescope tour: stopped by Ctrl+C while preparing the tour; nothing printed\n");
    return kExitInterrupted;
  }
  if (!load.prepared.ok()) {
    std::fprintf(stderr, "tilescope tour: %s\n", load.prepared.error.c_str());
    return kExitUsage;
  }
  const std::size_t count = load.tour.stops.size();
  if (options.json) {
    nlohmann::json out{{"lesson", load.lesson->name}, {"stops", nlohmann::json::array()}};
    for (std::size_t i = 0; i < count; ++i) out["stops"].push_back(StopJson(load.tour.stops[i], load.prepared.stops[i]));
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf("%s: %s\n%zu stops; every figure below is filled from the model\n", load.lesson->name.c_str(),
              load.lesson->description.c_str(), count);
  for (std::size_t i = 0; i < count; ++i) PrintStop(i, count, load.tour.stops[i], load.prepared.stops[i]);
  return 0;
}

}  // namespace

void AddTourCommand(CLI::App& app, std::function<int()>& action, const GuiLauncher& launch_gui) {
  auto options = std::make_shared<TourOptions>();
  CLI::App* command = app.add_subcommand(
      "tour", "A lesson's guided tour: each stop's step, text, quoted claim and question with the model's answer; "
              "or, in the window, saved as slides (--slides) and animations (--record)");
  command->add_option("lesson", options->lesson, "A lesson file or preset name (default: default)");
  command->add_flag("--json", options->json, "Print the stops as JSON");
  command->add_flag("--queries", options->queries, "List the model queries a tour may name, and the panel ids");
  command->add_option("--ask", options->ask,
                      "Print a query's value for the lesson, as a tour fills it (repeatable): --ask \"reads.saving tile=16\"");
  TakeAwayOptions& away = options->take_away;
  command->add_option("--slides", away.slides,
                      "Save the tour as the class saw it (presentation, each question revealed): one PNG per stop in "
                      "DIR and a PDF of them (needs a display; under CI, Xvfb)");
  command->add_option("--record", away.record,
                      "Save steps of the lesson's run as an animation, FILE.gif or FILE.webp (needs a display)");
  command->add_option("--steps", away.steps, "The steps --record saves, FIRST:LAST (default: the whole run)");
  command->add_option("--frame-ms", away.frame_ms, "How long --record shows each step, in milliseconds")
      ->check(CLI::Range(20, 60000));
  command->add_option("--width", away.width, "The window's width for --slides and --record")->check(CLI::Range(320, 7680));
  command->add_option("--height", away.height, "The window's height for --slides and --record")
      ->check(CLI::Range(240, 4320));
  command->callback([options, &action, launch_gui] { action = [options, launch_gui] { return Run(*options, launch_gui); }; });
}

}  // namespace cli
