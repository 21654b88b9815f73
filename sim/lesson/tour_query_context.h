// tour_query_context.h — what a query's evaluator is given (the lesson asked about, its
// arguments, the whole runs) and the values it answers with. One evaluator per query: the simple
// ones are lambdas in the registry (tour_queries.cpp), the longer ones in tour_query_evaluators.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"
#include "sim/lesson/tour_runs.h"
#include "sim/model/geometry.h"
#include "sim/model/simulation.h"

namespace sim::queries {

// A query's own arguments, read one by one (the rest are lesson fields, applied before).
class Arguments {
 public:
  Arguments(const QueryCall& call, std::string* error) : call_(call), error_(error) {}

  std::optional<int> Int(const char* key, std::optional<int> fallback = std::nullopt) {
    const std::string* text = Find(key);
    if (text == nullptr) {
      if (!fallback) Fail(std::string("needs ") + key + "=N");
      return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || value < -1000000 || value > 1000000) {
      Fail(std::string(key) + "='" + *text + "' is not a whole number");
      return std::nullopt;
    }
    return static_cast<int>(value);
  }
  // A whole number from 0 to limit - 1 (`shown_offset` is added for the message: phases
  // are asked for from 1).
  std::optional<int> Index(const char* key, std::optional<int> fallback, int limit, int shown_offset = 0) {
    const std::optional<int> value = Int(key, fallback);
    if (!value) return std::nullopt;
    if (*value - shown_offset >= 0 && *value - shown_offset < limit) return *value - shown_offset;
    Fail(std::string(key) + " = " + std::to_string(*value) + " is outside " + std::to_string(shown_offset) + ".." +
         std::to_string(limit - 1 + shown_offset));
    return std::nullopt;
  }
  std::string Text(const char* key, const char* fallback) const {
    const std::string* text = Find(key);
    return text == nullptr ? fallback : *text;
  }
  std::nullopt_t Fail(const std::string& message) {
    if (!failed_ && error_ != nullptr) *error_ = "query '" + call_.name + "' " + message;
    failed_ = true;
    return std::nullopt;
  }

 private:
  const std::string* Find(const char* key) const {
    for (const auto& [name, value] : call_.arguments) {
      if (name == key) return &value;
    }
    return nullptr;
  }
  const QueryCall& call_;
  std::string* error_;
  bool failed_ = false;
};

// Everything an evaluator may read.
struct Asked {
  const LessonConfig& lesson;  // the tour's lesson with the call's lesson fields
  Geometry g;
  Arguments& args;
  Runs& runs;
  Simulation& tour_lesson;  // the tour's own lesson, for what holds at the stop's step
  std::int64_t step;

  const WholeRun& Run() { return runs.Of(lesson); }
  // The same sizes and tiles on another kernel: the naive kernel reads 2·M·N·K.
  const WholeRun& RunOn(KernelKind kernel) {
    LessonConfig other = lesson;
    if (kernel == KernelKind::kNaive || other.kernel == KernelKind::kNaive) other.kernel = kernel;
    if (kernel == KernelKind::kNaive) {
      // The naive kernel has no barrier and no tiles to lay out: a lesson with a barrier off
      // or a transposed Bs still has its naive counterpart (it would not run otherwise).
      other.barrier1 = other.barrier2 = SyncKind::kSyncthreads;
      other.bs_layout = SharedLayout::kRowMajor;
    }
    return runs.Of(other);
  }
  double Elements() const { return static_cast<double>(g.m) * g.n; }
};

using Evaluator = std::optional<QueryValue> (*)(Asked&);

QueryValue Number(double value);
QueryValue Count(std::uint64_t value);
QueryValue Text(std::string text);
QueryValue Cells(std::vector<CellRef> cells);  // sorted, each once
double Ratio(double over, double under);       // 0 where `under` is 0
// A tile as "[[1,2],[5,6]]", "?" for a cell not stored yet.
std::string TileText(const std::vector<float>& values, int rows, int cols);
std::string Join(const std::vector<std::string>& items, const char* separator);

// The answer to `call` with the tour's lesson at `step`: the call's lesson fields applied to
// `tour_lesson`, its evaluator run (tour_queries.cpp, the registry's side). The error says why
// there is none: an argument, the budget, a variant the model refuses, or kTourCancelled.
std::optional<QueryValue> Answer(const QueryCall& call, const LessonConfig& tour_lesson, Runs& runs,
                                 Simulation& tour_simulation, std::int64_t step, std::string* error);

}  // namespace sim::queries
