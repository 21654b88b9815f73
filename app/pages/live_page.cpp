#include "app/pages/live_page.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <iterator>
#include <sstream>

#include "app/cli/asset_paths.h"
#include "app/gui/browser_page.h"
#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "sim/lesson/teaching.h"
#include "sim/io/number_text.h"

namespace gui {
namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(list);
  while (std::getline(in, item, ',')) {
    const auto first = item.find_first_not_of(" \t");
    if (first != std::string::npos) items.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  }
  return items;
}

bool EndsWith(const std::string& text, const char* end) {
  const std::string tail(end);
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::vector<kernels::Shape> SizesIn(const std::vector<kernels::BenchResult>& results) {
  std::vector<kernels::Shape> sizes;
  for (const kernels::BenchResult& r : results) {
    if (std::find(sizes.begin(), sizes.end(), r.shape) == sizes.end()) sizes.push_back(r.shape);
  }
  return sizes;
}

constexpr const char* kLivePanel = "Live GPU";

// The first and last rung by the kernel table, so a rung added there is named here too.
std::string LadderNameRange() {
  std::string first, last;
  for (const kernels::KernelSpec& spec : kernels::kKernelTable) {
    if (spec.family != kernels::KernelFamily::kLadder) continue;
    if (first.empty()) first = spec.name;
    last = spec.name;
  }
  return first + " \u2026 " + last;
}

}  // namespace

LivePage::LivePage(const std::string& kernel_path, const sim::KernelLessonOptions& kernel_options)
    : gpu_(kernels::ProbeGpu()),
      student_(kernel_path, kernel_options, panel_.student),
      panels_({{kLivePanel, &kWholeArea,
                [this](const FrameContext& frame) {
                  panel_.Draw(frame, panels::LiveSweepView{gpu_, sweep_, sweep_run_.progress(), model_link_});
                },
                "Ctrl+G"}}) {
  panel_.ValidateSizes(gpu_);
}

void LivePage::RegisterActions(ActionRegistry& registry) {
  auto add = [&](const char* name, const char* label, const char* description, std::vector<KeyChord> keys,
                 std::function<std::optional<std::string>(const std::string&)> run) {
    registry.Add({name, label, description, std::move(keys), std::move(run)});
  };
  add("live-panel", "Live GPU panel", "Show or hide the live GPU panel.", {{GLFW_KEY_G, GLFW_MOD_CONTROL}},
      [this](const std::string&) -> std::optional<std::string> {
        bool& open = panels_.Row(kLivePanel).Open(presenting_);
        open = !open;
        return std::nullopt;
      });
  add("live-run", "Run the sweep",
      "Time the chosen kernels at the chosen sizes on the GPU (with a file name: also save the results there "
      "when the sweep ends).",
      {{GLFW_KEY_R, GLFW_MOD_CONTROL}}, [this](const std::string& path) { return Run(path); });
  add("live-cancel", "Cancel the sweep", "Stop the sweep after the current launch.", {},
      [this](const std::string&) { return Cancel(); });
  add("live-load", "Load results", "Show saved results (CSV or JSON, the panel's or tilescope bench's) in place of the current ones.", {},
      [this](const std::string& path) { return Load(path); });
  add("live-choose-file", "Open results…",
      "The file dialog for saved results: list a folder's sub-folders and its JSON and CSV files (the folder as the "
      "argument; empty: the File field's folder, else the current one; none: close it). A file chosen there is loaded "
      "(live-load).",
      {}, [this](const std::string& folder) { return ChooseFile(folder); });
  add("live-shipped", "Show the shipped H100 run",
      "Without a GPU here: show the H100 sweep shipped with TileScope (assets/results/h100-bench.json), saying so. "
      "With one: say that Ctrl+R runs the sweep here.",
      {}, [this](const std::string&) { return ShowShippedRun(); });
  add("live-export-csv", "Export results as CSV", "Save the results as CSV (the format of tilescope bench --csv).", {},
      [this](const std::string& path) { return Export(path, ".csv"); });
  add("live-export-json", "Export results as JSON", "Save the results as JSON (the format of tilescope bench --json).", {},
      [this](const std::string& path) { return Export(path, ".json"); });
  add("live-export-png", "Export plot as PNG", "Save the plot as a PNG, as this frame draws it (after the frame's other actions).", {},
      [this](const std::string& path) { return ExportPng(path); });
  add("live-kernels", "Choose kernels", "Kernels to run: registry names, comma-separated (or none).", {},
      [this](const std::string& list) { return SetKernels(list); });
  add("live-student", "Add your kernel",
      "Time a kernel file of yours (.cu) at every size beside the chosen kernels, its C checked against cuBLAS (empty: the "
      "window's --kernel file; none: take it out of the sweep). Needs a GPU.",
      {}, [this](const std::string& path) {
        if (sweep_run_.in_flight()) return Report("a sweep is running: your kernel changes after it", "");
        return Report(student_.Add(path, gpu_, panel_.student), path == "none" ? "" : "added to the sweep: " + panel_.student.label);
      });
  add("live-student-choose", "Choose your kernel…",
      "The file dialog for your kernel: list a folder's sub-folders and its .cu files (the folder as the argument; empty: "
      "the current one; none: close it). A file chosen there is added (live-student).",
      {}, [this](const std::string& folder) { return Report(student_.Browse(folder, panel_.student), ""); });
  add("live-sizes", "Choose sizes", "Sizes to run: 256,1024 or 256:4096 (powers of two) or MxNxK.", {},
      [this](const std::string& spec) { return SetSizes(spec); });
  add("live-reps", "Choose repetitions", "Timed launches per kernel and size.", {},
      [this](const std::string& text) { return SetReps(text); });
  add("live-view", "Plot, bars, ladder or roofline",
      "GFLOPS against size (plot), % of cuBLAS (bars), the kernel ladder at one size (ladder) or the roofline there "
      "(roofline).",
      {},
      [this](const std::string& name) { return SetView(name); });
  add("live-gflops-axis", "GFLOPS axis", "The GFLOPS plot's y axis: log (kernels and tensor cores both visible) or linear.", {},
      [this](const std::string& name) { return SetGflopsAxis(name); });
  add("live-model-size", "Model link size", "The size whose global reads the model link shows (one of the results').", {},
      [this](const std::string& size) { return SetModelSize(size); });
  add("live-ladder-size", "Ladder size", "The size the ladder and the roofline show (one of the results').", {},
      [this](const std::string& size) { return SetLadderSize(size); });
  add("live-rung-source", "Rung source",
      "Show a ladder rung's source (its registry name, or none) under the ladder, the lines changed since the rung "
      "before marked with '+'.",
      {}, [this](const std::string& name) { return SetRungSource(name); });
}

void LivePage::Update() {
  if (auto outcome = sweep_run_.Collect(ImGui::GetIO().DeltaTime, sweep_)) {
    Report(outcome->is_error ? std::optional<std::string>(outcome->text) : std::nullopt, outcome->text);
  }
  UpdateModelLink();
}

void LivePage::Draw(const FrameContext& frame) {
  presenting_ = frame.presentation;
  // The page's first showing on a PC without a GPU: the shipped H100 run at once, said to be
  // that (an empty plot taught nothing), unless results were loaded before.
  if (!shown_) {
    shown_ = true;
    if (!gpu_.available && sweep_.results().empty() && !sweep_run_.in_flight()) ShowShippedRun();
  }
  panels_.Draw(frame);
}

bool LivePage::Busy() const {
  // A row still waiting for its count needs one more frame even when the counter is done.
  const bool counting = std::any_of(model_link_.rows.begin(), model_link_.rows.end(),
                                    [](const panels::ModelLinkRow& row) { return !row.reads.has_value(); });
  return sweep_run_.in_flight() || counting;
}

void LivePage::DumpState(nlohmann::json& state) const {
  nlohmann::json& live = state["live"];
  live["device"] = {{"available", gpu_.available}, {"reason", gpu_.reason}, {"name", gpu_.device.name}};
  live["results"] = sweep_.results().size();
  const panels::RunButtonState run = panels::RunButtonFor(gpu_, sweep_run_.progress());
  live["run_button"] = {{"enabled", run.enabled}, {"tooltip", run.tooltip}};
  const panels::StudentRowState row = panels::StudentRowFor(gpu_, sweep_run_.progress());
  live["your_kernel_row"] = {{"enabled", row.enabled}, {"tooltip", row.tooltip}};
  sweep_run_.DumpState(live);
  live["provenance"] = sweep_.Provenance();
  live["loaded_from"] = sweep_.loaded_from();
  live["measured_on"] = sweep_.device().name;
  live["measured_at"] = sweep_.file().measured_at;
  nlohmann::json rows = nlohmann::json::array();
  for (const panels::ModelLinkRow& row : model_link_.rows) {
    nlohmann::json entry = {{"label", row.label}};
    if (row.reads) {
      entry["global_reads"] = row.reads->reads;
      entry["counted_by"] = row.reads->source == kernels::ReadsSource::kModel ? "model" : "formula";
      if (row.result && row.result->ok() && row.result->verified) {
        entry["requested_gbs"] = kernels::RequestedGBs(row.reads->reads, row.result->median_ms);
      }
    }
    rows.push_back(std::move(entry));
  }
  live["model_link"] = {{"size", model_link_.size ? kernels::ToString(*model_link_.size) : ""}, {"rows", rows}};
  DumpLadder(live);
  panel_.DumpState(live);
}

void LivePage::DumpLadder(nlohmann::json& live) const {
  const std::optional<kernels::Shape> shape = kernels::LadderShape(sweep_.results(), panel_.ladder_size);
  nlohmann::json rows = nlohmann::json::array();
  if (shape) {
    for (const kernels::LadderRow& row : kernels::LadderAt(sweep_.results(), *shape)) {
      const kernels::BenchResult& r = *row.result;
      nlohmann::json entry = {{"kernel", r.kernel}, {"plotted", r.ok() && r.verified}, {"idea", kernels::IdeaOf(*row.spec)},
                              {"reference", row.reference != nullptr ? row.reference->kernel : ""}};
      if (r.ok()) entry["gflops"] = r.gflops;
      if (r.percent_of_cublas > 0.0) entry["percent_of_cublas"] = r.percent_of_cublas;
      if (row.intensity) entry["flop_per_byte"] = *row.intensity;
      rows.push_back(std::move(entry));
    }
  }
  live["ladder"] = {{"size", shape ? kernels::ToString(*shape) : ""}, {"rows", rows}};
}

std::optional<std::string> LivePage::Report(std::optional<std::string> error, const std::string& success) {
  panel_.status_is_error = error.has_value();
  panel_.status_message = error ? *error : success;
  return error;
}

std::optional<std::string> LivePage::Run(const std::string& save_to) {
  if (sweep_run_.in_flight()) return Report("a sweep is already running", "");
  if (panel_.kernels.empty()) return Report("choose at least one kernel", "");
  const std::vector<kernels::Shape> shapes = panel_.ValidateSizes(gpu_);
  if (shapes.empty()) return Report("sizes: " + panel_.sizes_message, "");
  if (!save_to.empty() && !EndsWith(save_to, ".csv") && !EndsWith(save_to, ".json")) {
    return Report("live-run saves to a .csv or .json file, not '" + save_to + "'", "");
  }
  if (!gpu_.available) return Report("cannot run: " + gpu_.reason, "");
  kernels::BenchRequest request;
  request.kernels = panel_.kernels;
  request.shapes = shapes;
  request.reps = panel_.reps;
  if (panel_.student.included) {
    // Read again: the student may have saved since adding it.
    if (auto error = student_.Add(panel_.student.path, gpu_, panel_.student)) return Report("cannot run: " + *error, "");
    request.student = student_.Included(panel_.student);
  }
  if (auto error = sweep_run_.Start(request, gpu_.device, save_to, sweep_)) return Report("cannot run: " + *error, "");
  return Report(std::nullopt, "running " + sim::CountOf(request.kernels.size(), "kernel", "kernels") +
                                  (request.student ? " and yours" : "") + " at " +
                                  sim::CountOf(shapes.size(), "size", "sizes") + ", " + std::to_string(request.reps) + " launches each");
}

std::optional<std::string> LivePage::Cancel() {
  return Report(sweep_run_.Cancel(), "stopping after the current launch\u2026");
}

void LivePage::UpdateModelLink() {
  model_link_.sizes = SizesIn(sweep_.results());
  const auto chosen = std::find_if(model_link_.sizes.begin(), model_link_.sizes.end(), [this](const kernels::Shape& s) {
    return kernels::ToString(s) == panel_.model_size;
  });
  model_link_.size.reset();
  if (chosen != model_link_.sizes.end()) {
    model_link_.size = *chosen;
  } else if (!model_link_.sizes.empty()) {
    // The smallest size: the one the model counts itself in a usual sweep.
    model_link_.size = *std::min_element(model_link_.sizes.begin(), model_link_.sizes.end(),
                                         [](const kernels::Shape& a, const kernels::Shape& b) { return a.m * a.n * a.k < b.m * b.n * b.k; });
  }
  model_link_.rows.clear();
  if (!model_link_.size) return;
  for (const kernels::BenchResult& r : sweep_.results()) {
    const kernels::KernelSpec* spec = kernels::FindKernel(r.kernel);
    // Only kernels the model runs: a ladder rung's row would wait for a count forever.
    if (spec == nullptr || !kernels::HasModel(*spec) || !(r.shape == *model_link_.size)) continue;
    model_link_.rows.push_back({r.label.empty() ? r.kernel : r.label, reads_.Get(*spec, r.shape), r});
  }
}

std::optional<std::string> LivePage::Load(const std::string& path) {
  if (path.empty()) return Report("live-load needs a file name (choose one with Open\u2026, or type it in the File field)", "");
  if (sweep_run_.in_flight()) return Report("a sweep is running: cancel it or let it finish before loading", "");
  // On failure the results on screen stay as they were: a bad file never blanks a good plot.
  if (auto error = sweep_.Load(path)) return Report("not loaded: " + *error, "");
  panel_.file_path = path;
  panel_.choosing_file = false;
  // The provenance line above the plot says what was loaded; no second message repeats it.
  return Report(std::nullopt, "");
}

std::optional<std::string> LivePage::ChooseFile(const std::string& folder) {
  if (folder == "none") {
    panel_.choosing_file = false;
    return std::nullopt;
  }
  // Listed here, not in the panel: the panel draws the listing and changes nothing.
  panel_.file_choice = sim::ListFolder(folder, {".json", ".csv"});
  panel_.choosing_file = true;
  return panel_.file_choice.error.empty() ? std::nullopt : Report(panel_.file_choice.error, "");
}

// A lesson's tour ends here; a classroom PC without a GPU still sees a real run, named as such.
std::optional<std::string> LivePage::ShowShippedRun() {
  if (gpu_.available) return Report(std::nullopt, "this machine has a GPU: Ctrl+R runs the sweep here");
  const cli::AssetFolder assets = cli::FindAssetFolder();
  if (assets.path.empty()) return Report("the shipped H100 run is missing: assets " + assets.Describe(), "");
  // Named by its place in the assets, not by the install path: the room reads this line.
  if (auto error = sweep_.Load(assets.path + "/results/h100-bench.json", "assets/results/h100-bench.json")) {
    return Report("the shipped H100 run is not loaded: " + *error, "");
  }
  return Report(std::nullopt, "no GPU here, so this is the H100 run shipped with TileScope, not a run on this machine");
}

std::optional<std::string> LivePage::Export(const std::string& path, const char* extension) {
  if (path.empty() || !EndsWith(path, extension)) {
    return Report(std::string("the file name must end in ") + extension, "");
  }
  const std::string partial = sweep_run_.in_flight() ? " (so far: the sweep is still running)" : "";
  const std::optional<std::string> error = sweep_.Save(path);
  if (!error) browser_page::OfferDownload(path);
  return Report(error, "saved " + sim::CountOf(sweep_.results().size(), "result", "results") + " to " + path + partial);
}

std::optional<std::string> LivePage::ExportPng(const std::string& path) {
  if (path.empty() || !EndsWith(path, ".png")) return Report("the file name must end in .png", "");
  if (!panels_.Row(kLivePanel).Open(presenting_)) return Report("open the live GPU panel first: the PNG is the plot as drawn", "");
  panel_.pending_png = path;  // Cropped from this frame once it is rendered (FrameContext::region_screenshots).
  return Report(std::nullopt, "saving the plot to " + path);
}

std::optional<std::string> LivePage::SetKernels(const std::string& list) {
  if (sweep_run_.in_flight()) return Report("a sweep is running: the kernels change after it", "");
  std::vector<std::string> chosen;
  if (list != "none") {
    for (const std::string& name : SplitList(list)) {
      if (!kernels::FindKernel(name)) return Report("unknown kernel '" + name + "' (see tilescope bench --list)", "");
      if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
    }
  }
  std::sort(chosen.begin(), chosen.end(), [](const std::string& a, const std::string& b) {
    return kernels::KernelIndex(*kernels::FindKernel(a)) < kernels::KernelIndex(*kernels::FindKernel(b));
  });
  panel_.kernels = std::move(chosen);
  return std::nullopt;
}

std::optional<std::string> LivePage::SetSizes(const std::string& spec) {
  panel_.sizes_text = spec;
  // The panel shows the problem beside the field; the status bar gets it too.
  if (panel_.ValidateSizes(gpu_).empty()) return "sizes: " + panel_.sizes_message;
  return std::nullopt;
}

std::optional<std::string> LivePage::SetReps(const std::string& text) {
  std::string problem;
  const std::optional<long long> reps = sim::ReadWhole(text, 1, kernels::kMaxReps, problem);
  if (!reps) return Report("repetitions: " + problem, "");
  panel_.reps = static_cast<int>(*reps);
  return std::nullopt;
}

std::optional<std::string> LivePage::SetView(const std::string& name) {
  for (int i = 0; i < static_cast<int>(std::size(panels::kLiveViewNames)); ++i) {
    if (name == panels::kLiveViewNames[i]) {
      panel_.view = static_cast<panels::LiveView>(i);
      return std::nullopt;
    }
  }
  return Report("live-view takes plot, bars, ladder or roofline, not '" + name + "'", "");
}

std::optional<std::string> LivePage::SetGflopsAxis(const std::string& name) {
  if (name == "log") {
    panel_.gflops_axis = plot::Scale::kLog;
  } else if (name == "linear") {
    panel_.gflops_axis = plot::Scale::kLinear;
  } else {
    return Report("live-gflops-axis takes log or linear, not '" + name + "'", "");
  }
  return std::nullopt;
}

std::optional<std::string> LivePage::SetModelSize(const std::string& size) {
  std::string found;
  if (auto error = FindResultSize("live-model-size", size, found)) return Report(error, "");
  panel_.model_size = found;
  return std::nullopt;
}

std::optional<std::string> LivePage::SetRungSource(const std::string& name) {
  if (name == "none") {
    panel_.ladder.rung_source.clear();
    return std::nullopt;
  }
  const kernels::KernelSpec* spec = kernels::FindKernel(name);
  if (spec == nullptr || spec->family != kernels::KernelFamily::kLadder) {
    return Report("live-rung-source takes a ladder rung's name (" + LadderNameRange() + ") or none, not '" + name + "'", "");
  }
  panel_.ladder.rung_source = name;
  panel_.view = panels::LiveView::kLadder;
  return std::nullopt;
}

std::optional<std::string> LivePage::SetLadderSize(const std::string& size) {
  std::string found;
  if (auto error = FindResultSize("live-ladder-size", size, found)) return Report(error, "");
  panel_.ladder_size = found;
  return std::nullopt;
}

std::optional<std::string> LivePage::FindResultSize(const char* action, const std::string& text,
                                                    std::string& size) const {
  // Read as a size first, so a word is named as one rather than looked for among the results,
  // and 512x512x512 finds the results at 512.
  kernels::Shape wanted;
  if (auto error = kernels::ParseShape(text, wanted)) {
    return std::string(action) + " takes one size of the results, such as 1024 or 512x256x128: " + *error;
  }
  std::string sizes;
  for (const kernels::Shape& shape : SizesIn(sweep_.results())) {
    if (shape == wanted) {
      size = kernels::ToString(shape);
      return std::nullopt;
    }
    sizes += (sizes.empty() ? "" : ", ") + kernels::ToString(shape);
  }
  return "no results at n = " + kernels::ToString(wanted) + " (" +
         (sizes.empty() ? std::string("no results are loaded") : "the results have n = " + sizes) + ")";
}

}  // namespace gui
