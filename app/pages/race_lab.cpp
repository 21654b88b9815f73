#include "app/pages/race_lab.h"

#include <GLFW/glfw3.h>

#include <algorithm>

#include "kernels/device.h"
#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/bits.h"
#include "sim/model/reference.h"
#include "sim/model/run_check.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

constexpr int kMaxSeeds = 100000;
constexpr int kMaxTrials = 100;

// The variants the race lab compares, in the registry's order for a tile with compiled ones
// (so model and GPU rows line up), else the same four for the model alone.
std::vector<RaceVariantRow> VariantRows(const sim::KernelConfig& lesson) {
  std::vector<RaceVariantRow> rows;
  if (lesson.kernel == sim::KernelKind::kTiled) {
    for (const kernels::KernelSpec* spec : kernels::RaceSetForTile(lesson.tile).variants) {
      rows.push_back({spec->name, spec->label, spec->first_barrier, spec->second_barrier, {}});
    }
  }
  if (!rows.empty()) return rows;
  using sim::SyncKind;
  return {{"", "no 1st barrier", SyncKind::kNone, SyncKind::kSyncthreads, {}},
          {"", "no 2nd barrier", SyncKind::kSyncthreads, SyncKind::kNone, {}},
          {"", "no barriers", SyncKind::kNone, SyncKind::kNone, {}},
          {"", "__syncwarp() for both", SyncKind::kSyncwarp, SyncKind::kSyncwarp, {}}};
}

std::optional<long long> ParsePositive(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == text.size() && value > 0) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

nlohmann::json SweepJson(const sim::SeedSweepResult& result) {
  nlohmann::json histogram = nlohmann::json::object();
  for (const auto& [wrong, runs] : result.wrong_elements_histogram) histogram[std::to_string(wrong)] = runs;
  return {{"runs", result.runs},
          {"runs_wrong", result.runs_wrong},
          {"runs_with_hazards", result.runs_with_hazards},
          {"min_wrong", result.min_wrong},
          {"max_wrong", result.max_wrong},
          {"mean_wrong", result.mean_wrong},
          {"cancelled", result.cancelled},
          {"histogram", histogram}};
}

}  // namespace

std::string DescribeRaceSetup(const sim::KernelConfig& lesson) {
  const sim::TileShape tiles = lesson.Tiles();
  std::string text = std::to_string(lesson.m) + "\u00D7" + std::to_string(lesson.n) + "\u00D7" +
                     std::to_string(lesson.k) + ", " + sim::Name(lesson.kernel) + " ";
  text += lesson.kernel == sim::KernelKind::kTiledRect
              ? std::to_string(tiles.tm) + "\u00D7" + std::to_string(tiles.tn) + "\u00D7" + std::to_string(tiles.tk)
              : "TILE " + std::to_string(lesson.tile);
  if (lesson.kernel != sim::KernelKind::kNaive) {
    text += std::string(", 1st barrier ") + sim::SourceText(lesson.barrier1) + ", 2nd " + sim::SourceText(lesson.barrier2);
  }
  return text + ", scheduler " + sim::Name(lesson.scheduler);
}

RaceLab::RaceLab(LessonEditor& editor, std::function<const sim::Simulation&()> simulation,
                 std::function<std::optional<std::string>(sim::SchedulerKind)> student_scheduler)
    : editor_(editor), simulation_(std::move(simulation)), student_scheduler_(std::move(student_scheduler)) {}

void RaceLab::RegisterActions(ActionRegistry& registry) {
  registry.Add({"race-scheduler",
                "Race-exposing scheduler",
                "Switch between the race-exposing scheduler (fast threads run ahead, so a missing barrier "
                "corrupts C) and the realistic one.",
                {{GLFW_KEY_S, 0}},
                [this](const std::string&) { return ToggleRaceScheduler(); }});
  registry.Add({"seeds-run",
                "Run 100 seeds",
                "Run the lesson to the end under many scheduler seeds (argument: how many) and count how often C "
                "comes out wrong.",
                {},
                [this](const std::string& count) {
                  if (!count.empty()) {
                    const std::optional<long long> seeds = ParsePositive(count);
                    if (!seeds || *seeds > kMaxSeeds)
                      return std::optional<std::string>("seeds: \"" + count + "\" is not a count from 1 to " +
                                                        std::to_string(kMaxSeeds));
                    seed_count_ = static_cast<int>(*seeds);
                  }
                  return RunSeeds();
                }});
  registry.Add({"seeds-cancel",
                "Cancel the seed run",
                "Stop the seed run after the current run.",
                {},
                [this](const std::string&) -> std::optional<std::string> {
                  seeds_.Cancel();
                  return std::nullopt;
                }});
  registry.Add({"race-gpu-run",
                "Race on the GPU",
                "Run the barrier-removed kernels on the GPU at the lesson's size and the large size, and the model "
                "on the same variants.",
                {},
                [this](const std::string&) { return RunGpu(); }});
  registry.Add({"race-gpu-cancel",
                "Cancel the GPU race run",
                "Stop after the current launch.",
                {},
                [this](const std::string&) -> std::optional<std::string> {
                  runner_.Cancel();
                  model_runs_.Cancel();
                  return std::nullopt;
                }});
  registry.Add({"race-gpu-size",
                "Large race size",
                "The square size n of the GPU race run's large case.",
                {},
                [this](const std::string& text) { return SetLargeSize(text); }});
  registry.Add({"race-trials",
                "Race trials",
                "How many times each variant runs (GPU launches, model seeds).",
                {},
                [this](const std::string& text) { return SetTrials(text); }});
}

std::optional<std::string> RaceLab::ToggleRaceScheduler() {
  const bool racing = simulation_().config().scheduler == sim::SchedulerKind::kRaceExposing;
  const sim::SchedulerKind other = racing ? sim::SchedulerKind::kRealistic : sim::SchedulerKind::kRaceExposing;
  // An edit of the built-in lesson would open it in place of a student's kernel on show.
  if (simulation_().kernel() != nullptr) return student_scheduler_(other);
  return editor_.Edit({sim::SchedulerEdit{other}});
}

std::optional<std::string> RaceLab::RunSeeds() {
  const sim::KernelConfig lesson = simulation_().config();
  const int count = seed_count_;
  const bool started = seeds_.Start([lesson, count](const std::atomic<bool>& cancel, kernels::JobProgress& progress) {
    progress.total.store(count);
    SweepOutcome outcome;
    outcome.lesson = DescribeRaceSetup(lesson);
    outcome.elements = static_cast<std::uint64_t>(lesson.m) * static_cast<std::uint64_t>(lesson.n);
    outcome.first_seed = lesson.seed;
    outcome.result = sim::RunSeeds(
        lesson, count, lesson.seed, [&progress](int done, int) { progress.done.store(done); }, &cancel);
    return outcome;
  });
  if (!started) return std::string("a seed run is already in progress");
  return std::nullopt;
}

std::string RaceLab::GpuUnavailableReason() const {
  const kernels::GpuStatus& gpu = kernels::ProbeGpu();
  if (!gpu.available) return "no GPU run here: " + gpu.reason;
  const sim::KernelConfig& lesson = simulation_().config();
  if (lesson.kernel != sim::KernelKind::kTiled) {
    return "the GPU has race variants of the square tiled kernel only (this lesson runs the " +
           std::string(sim::Name(lesson.kernel)) + " kernel)";
  }
  if (kernels::RaceSetForTile(lesson.tile).variants.empty()) {
    std::string tiles;
    for (int tile : kernels::RaceTiles()) tiles += (tiles.empty() ? "" : ", ") + std::to_string(tile);
    return "no compiled race variants for TILE " + std::to_string(lesson.tile) + " (compiled: " + tiles + ")";
  }
  return "";
}

std::optional<std::string> RaceLab::RunGpu() {
  if (runner_.Running() || model_runs_.Running()) return std::string("a race run is already in progress");
  const sim::KernelConfig lesson = simulation_().config();
  if (lesson.kernel == sim::KernelKind::kNaive) {
    gpu_status_ = "the naive kernel has no barrier to remove";
    return gpu_status_;
  }
  variants_ = VariantRows(lesson);
  StartModelRuns(lesson);
  if (const std::string reason = GpuUnavailableReason(); !reason.empty()) {
    gpu_status_ = "the model's side ran alone";
    return std::nullopt;
  }
  kernels::RaceRequest request;
  request.tiles = {lesson.tile};
  request.shapes = {{lesson.m, lesson.n, lesson.k}};
  if (large_size_ != lesson.m || large_size_ != lesson.n || large_size_ != lesson.k) {
    request.shapes.push_back(kernels::Shape::Square(large_size_));
  }
  request.trials = trials_;
  request.seed = lesson.seed;
  if (auto error = runner_.StartRace(request)) {
    gpu_status_ = "GPU race run not started: " + *error;
    return gpu_status_;
  }
  gpu_status_ = "running on " + kernels::ProbeGpu().device.name;
  return std::nullopt;
}

void RaceLab::StartModelRuns(const sim::KernelConfig& lesson) {
  const std::vector<RaceVariantRow> rows = variants_;
  const int trials = trials_;
  model_runs_.Start([lesson, rows, trials](const std::atomic<bool>& cancel, kernels::JobProgress& progress) {
    ModelVariantRuns runs;
    runs.scheduler = sim::Name(lesson.scheduler);
    runs.elements = static_cast<std::uint64_t>(lesson.m) * static_cast<std::uint64_t>(lesson.n);
    progress.total.store(static_cast<int>(rows.size()));
    for (const RaceVariantRow& row : rows) {
      if (cancel.load()) break;
      sim::KernelConfig variant = lesson;
      variant.barrier1 = row.barrier1;
      variant.barrier2 = row.barrier2;
      // The GPU race run's inputs (the runner's fill from the same seed): model and GPU race
      // on the same A and B, and count wrong elements the same way.
      variant.fill_a = sim::MatrixFill::Explicit(kernels::SeededInput(lesson.seed, 0, lesson.m, lesson.k));
      variant.fill_b = sim::MatrixFill::Explicit(kernels::SeededInput(lesson.seed, 1, lesson.k, lesson.n));
      runs.by_label[row.label] = sim::RunSeeds(variant, trials, lesson.seed, {}, &cancel);
      if (variant.scheduler == sim::SchedulerKind::kRealistic) {
        runs.caveat_by_label[row.label] = sim::RealisticCalibrationCaveat(variant);
      }
      progress.done.fetch_add(1);
    }
    return runs;
  });
}

void RaceLab::Poll() {
  settling_ = seeds_.Running() || model_runs_.Running() || runner_.Running();
  for (kernels::RaceResult& result : runner_.TakeRaceResults()) {
    for (RaceVariantRow& row : variants_) {
      if (row.kernel == result.kernel) row.gpu.push_back(std::move(result));
    }
  }
  if (!runner_.Running() && gpu_status_.rfind("running on ", 0) == 0) {
    gpu_status_ = runner_.WasCancelled() ? "GPU race run cancelled" : "GPU race run done";
  }
}

bool RaceLab::Busy() const { return settling_ || seeds_.Running() || model_runs_.Running() || runner_.Running(); }

std::optional<std::string> RaceLab::SetLargeSize(const std::string& text) {
  const std::optional<long long> size = ParsePositive(text);
  kernels::RaceRequest probe;
  if (size) probe.shapes = {kernels::Shape::Square(*size)};
  if (!size || kernels::ValidationError(probe)) {
    gpu_status_ = "large size: \"" + text + "\" is not a usable size" +
                  (size ? " (" + *kernels::ValidationError(probe) + ")" : std::string(" (a whole number \u2265 1)"));
    return gpu_status_;
  }
  large_size_ = *size;
  return std::nullopt;
}

std::optional<std::string> RaceLab::SetTrials(const std::string& text) {
  const std::optional<long long> trials = ParsePositive(text);
  if (!trials || *trials > kMaxTrials) {
    gpu_status_ = "trials: \"" + text + "\" is not a count from 1 to " + std::to_string(kMaxTrials);
    return gpu_status_;
  }
  trials_ = static_cast<int>(*trials);
  return std::nullopt;
}

RaceLabView RaceLab::View() const {
  return {sim::CheckStoredC(simulation_()), seeds_, variants_, model_runs_, runner_.Running(), runner_.LastProgress(),
          GpuUnavailableReason(), gpu_status_, large_size_, trials_};
}

void RaceLab::DumpState(nlohmann::json& state) const {
  nlohmann::json& lab = state["race_lab"];
  const sim::StoredCheck check = sim::CheckStoredC(simulation_());
  lab["c"] = {{"elements", check.elements}, {"stored", check.stored}, {"wrong", check.wrong}};
  lab["scheduler"] = sim::Name(simulation_().config().scheduler);
  lab["setup"] = DescribeRaceSetup(simulation_().config());
  nlohmann::json& seeds = lab["seeds"];
  seeds["running"] = seeds_.Running();
  seeds["done"] = seeds_.Done();
  seeds["total"] = seeds_.Total();
  if (auto outcome = seeds_.LastResult()) {
    seeds["result"] = SweepJson(outcome->result);
    seeds["lesson"] = outcome->lesson;
    seeds["elements"] = outcome->elements;
  }
  nlohmann::json& gpu = lab["gpu"];
  gpu["unavailable"] = GpuUnavailableReason();
  gpu["status"] = gpu_status_;
  gpu["large_size"] = large_size_;
  gpu["trials"] = trials_;
  const std::optional<ModelVariantRuns> model = model_runs_.LastResult();
  gpu["variants"] = nlohmann::json::array();
  for (const RaceVariantRow& row : variants_) {
    nlohmann::json item{{"kernel", row.kernel}, {"label", row.label}};
    if (model && model->by_label.count(row.label)) item["model"] = SweepJson(model->by_label.at(row.label));
    if (model && model->caveat_by_label.count(row.label)) item["model_caveat"] = model->caveat_by_label.at(row.label);
    for (const kernels::RaceResult& result : row.gpu) {
      item["gpu"].push_back({{"shape", kernels::ToString(result.shape)},
                             {"elements", result.elements()},
                             {"differing_per_trial", result.differing_per_trial},
                             {"error", result.error}});
    }
    gpu["variants"].push_back(item);
  }
}

}  // namespace gui
