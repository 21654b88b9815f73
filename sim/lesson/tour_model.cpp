// TourModel: a tour's lesson, where its positions fall (the step a "first hazard" or a barrier's
// release names) and the answers to its queries (tour_queries.cpp) and placeholders.
#include "sim/lesson/tour.h"
#include "sim/lesson/tour_query_context.h"
#include "sim/lesson/tour_runs.h"
#include "sim/lesson/teaching.h"
#include "sim/model/checked_math.h"
#include "sim/model/simulation.h"

namespace sim {

using queries::Cancelled;
using queries::kStepsBetweenCancelChecks;
using queries::OverBudget;

struct TourModel::Impl {
  Impl(const LessonConfig& config, const std::atomic<bool>* cancel, TourBudget* shared)
      : lesson(config), simulation(config), budget(shared ? *shared : own_budget), runs(cancel, budget) {}

  LessonConfig lesson;
  Simulation simulation;  // the lesson itself: positions, and queries at a step
  TourBudget own_budget;  // when no tour shares one
  TourBudget& budget;
  queries::Runs runs;

  // The lesson's whole run, counted so that the cancel flag stops it (Simulation's own count
  // would run to the end first).
  void CountWholeRun() {
    const std::atomic<bool>* cancel = runs.cancel();
    if (cancel == nullptr || simulation.KnownTimeline() != nullptr) return;
    std::optional<Timeline> timeline = ComputeTimeline(simulation.config(), simulation.a(), simulation.b(), cancel, nullptr);
    if (!timeline) throw Cancelled{};
    simulation.AdoptTimeline(std::move(*timeline));
  }

  // Just after the first step whose events `matches` accepts; nullopt if none does.
  template <typename Matches>
  std::optional<std::int64_t> FirstStep(Matches matches) {
    runs.Charge(lesson);
    simulation.Reset();
    bool found = false;
    std::int64_t steps = 0;
    const std::atomic<bool>* cancel = runs.cancel();
    bool cancelled = false;
    simulation.RunWhile([&](const Simulation& s) {
      for (const TraceEvent& e : s.last_step_events()) found = found || matches(e);
      cancelled = cancel != nullptr && ++steps % kStepsBetweenCancelChecks == 0 && cancel->load();
      return !found && !cancelled;
    });
    if (cancelled) throw Cancelled{};
    return found ? std::optional<std::int64_t>(simulation.step()) : std::nullopt;
  }
};

std::optional<std::string> TourBudget::Charge(std::uint64_t instructions, std::uint64_t kept_bytes,
                                              std::uint64_t running_bytes) {
  const std::uint64_t spent = SaturatingAdd(instructions_, instructions);
  if (spent > max_instructions_) {
    return "the tour asks the model to run more than " + std::to_string(max_instructions_) +
           " thread-instructions in all: ask about smaller lessons or fewer of them";
  }
  const std::uint64_t kept = SaturatingAdd(kept_bytes_, kept_bytes);
  if (SaturatingAdd(kept, running_bytes) > max_bytes_) {
    return "the tour's model runs would hold more than " + std::to_string(max_bytes_ >> 20) +
           " MiB in all: ask about smaller lessons or fewer of them";
  }
  instructions_ = spent;
  kept_bytes_ = kept;
  return std::nullopt;
}

TourModel::TourModel(const LessonConfig& lesson, const std::atomic<bool>* cancel, TourBudget* budget)
    : impl_(std::make_unique<Impl>(lesson, cancel, budget)) {}
TourModel::~TourModel() = default;
TourModel::TourModel(TourModel&&) noexcept = default;
TourModel& TourModel::operator=(TourModel&&) noexcept = default;

const LessonConfig& TourModel::lesson() const { return impl_->lesson; }

std::int64_t TourModel::TotalSteps() { return impl_->simulation.TotalSteps(); }

std::optional<std::int64_t> TourModel::Resolve(const TourPosition& position, std::string* error) {
  try {
    return ResolveStep(position, error);
  } catch (const Cancelled&) {
    if (error != nullptr) *error = kTourCancelled;
    return std::nullopt;
  }
}

std::optional<std::int64_t> TourModel::ResolveStep(const TourPosition& position, std::string* error) {
  const auto fail = [error](const std::string& message) -> std::optional<std::int64_t> {
    if (error != nullptr) *error = message;
    return std::nullopt;
  };
  impl_->CountWholeRun();
  const std::int64_t total = TotalSteps();
  const Geometry& g = impl_->simulation.geometry();
  const std::string block_name = "block " + Coordinates(position.block.x, position.block.y);
  const int block = position.block.y * g.grid_x + position.block.x;
  const int phase = position.phase - 1;
  const Op barrier = position.barrier == 2 ? Op::kBarrier2 : Op::kBarrier1;
  const auto located = [&](auto matches) -> std::optional<std::int64_t> {
    try {
      return impl_->FirstStep(matches);
    } catch (const OverBudget& over) {
      return fail(over.message);
    }
  };
  switch (position.kind) {
    case TourPosition::Kind::kStep:
      if (position.step >= 0 && position.step <= total) return position.step;
      return fail("step " + std::to_string(position.step) + " is past the end of the run (" + std::to_string(total) +
                  " steps)");
    case TourPosition::Kind::kEnd:
      return total;
    case TourPosition::Kind::kFirstHazard:
      if (auto step = located([](const TraceEvent& e) { return e.kind == EventKind::kHazard; })) return step;
      return fail("the run reports no hazard");
    case TourPosition::Kind::kBarrierRelease:
    case TourPosition::Kind::kPhaseStart:
      break;
  }
  if (position.block.x < 0 || position.block.x >= g.grid_x || position.block.y < 0 || position.block.y >= g.grid_y) {
    return fail(block_name + " is not in the grid (" + std::to_string(g.grid_x) + "×" + std::to_string(g.grid_y) +
                " blocks)");
  }
  if (phase < 0 || phase >= g.phases) {
    return fail(block_name + " has no phase " + std::to_string(position.phase) + ": the lesson has " +
                std::to_string(g.phases));
  }
  if (position.kind == TourPosition::Kind::kPhaseStart) {
    if (auto step = located([&](const TraceEvent& e) {
          return e.thread >= 0 && e.block == block && e.phase == phase && e.op != Op::kStoreC;
        })) {
      return step;
    }
    return fail(block_name + " never starts phase " + std::to_string(position.phase));
  }
  if (auto step = located([&](const TraceEvent& e) {
        return e.kind == EventKind::kBarrierRelease && e.block == block && e.op == barrier && e.phase == phase;
      })) {
    return step;
  }
  return fail(block_name + "'s barrier " + std::to_string(position.barrier) + " never releases in phase " +
              std::to_string(position.phase) + " (it is " +
              SourceText(position.barrier == 2 ? impl_->lesson.barrier2 : impl_->lesson.barrier1) + ")");
}

std::optional<QueryValue> TourModel::Evaluate(const QueryCall& call, std::int64_t step, std::string* error) {
  return queries::Answer(call, impl_->lesson, impl_->runs, impl_->simulation, step, error);
}

std::optional<QueryValue> TourModel::Evaluate(std::string_view query, std::int64_t step, std::string* error) {
  const QueryParse parse = ParseQueryCall(query);
  if (!parse.error.empty()) {
    if (error != nullptr) *error = parse.error;
    return std::nullopt;
  }
  return Evaluate(parse.call, step, error);
}

std::optional<std::string> TourModel::Fill(std::string_view text, std::int64_t step, std::string* error) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      out.push_back(c);
      ++i;
      continue;
    }
    if (c == '}') {
      if (error != nullptr) *error = "a '}' at character " + std::to_string(i + 1) + " closes no placeholder";
      return std::nullopt;
    }
    if (c != '{') {
      out.push_back(c);
      continue;
    }
    const std::size_t close = text.find('}', i);
    if (close == std::string_view::npos) {
      if (error != nullptr) *error = "the placeholder at character " + std::to_string(i + 1) + " has no closing '}'";
      return std::nullopt;
    }
    const std::optional<QueryValue> value = Evaluate(text.substr(i + 1, close - i - 1), step, error);
    if (!value) return std::nullopt;
    out += value->text;
    i = close;
  }
  return out;
}

}  // namespace sim
