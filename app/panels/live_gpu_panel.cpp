#include "app/panels/live_gpu_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "app/gui/palette.h"
#include "app/plot/bar_chart.h"
#include "app/plot/line_plot.h"
#include "app/plot/sweep_plots.h"
#include "app/gui/text_item.h"
#include "kernels/kernel_files.h"
#include "kernels/ladder.h"
#include "kernels/line_diff.h"
#include "kernels/registry.h"

namespace panels {
namespace {

constexpr float kPlotShare = 0.58f;          // Of the height left under the controls.
constexpr float kMinPlotHeightFonts = 14.0f;  // × font size.
constexpr float kSideBySideFonts = 90.0f;     // Table and model link side by side from this width (× font size).
constexpr float kTableShare = 0.56f;          // Of the width, when side by side.
constexpr float kAllTheRest = -1.0f;         // A plot height: all that is left under its own choice row.
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

ImVec4 Colour(ImU32 colour) { return ImGui::ColorConvertU32ToFloat4(colour); }

void MessageText(const std::string& text, bool error) {
  if (text.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  if (error) {
    gui::TextColored(Colour(gui::palette::kOrange), "%s %s", gui::palette::kGlyphWarning, text.c_str());
  } else {
    gui::TextColored(Colour(gui::palette::kSkyBlue), "%s", text.c_str());
  }
  ImGui::PopTextWrapPos();
}

// Kernels worth timing: both barriers, guarded. The race lab's variants sit in a folded list.
bool IsBenchmarkKernel(const kernels::KernelSpec& spec) {
  return spec.guarded && spec.first_barrier == sim::SyncKind::kSyncthreads &&
         spec.second_barrier == sim::SyncKind::kSyncthreads;
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// 33554432 → "33,554,432": counts a class reads from afar.
std::string Grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

void VerifiedMark(bool verified) {
  gui::TextColored(Colour(verified ? gui::palette::kBluishGreen : gui::palette::kVermillion), "%s",
                   verified ? gui::palette::kGlyphCheck : gui::palette::kGlyphCross);
}

void Dash() { gui::TextDisabled("\u2014"); }

// The sweep's plots in the app's palette: the kernels in Okabe–Ito without black (the dark
// theme's background) and grey (the grid, here the roofs); cuBLAS in the theme's text colour,
// so it stands out on any background.
plot::SweepLook SweepLook() {
  using namespace gui::palette;
  return {{kOrange, kSkyBlue, kBluishGreen, kYellow, kBlue, kVermillion, kReddishPurple},
          ImGui::GetColorU32(ImGuiCol_Text),
          kGrey,
          kGlyphCheck,
          kGlyphCross};
}

}  // namespace

std::string DescribeDevice(const kernels::DeviceInfo& d) {
  std::string text = d.name + " \u00b7 CC " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + " \u00b7 " +
                     std::to_string(d.sm_count) + " SMs \u00b7 " + Format("%.0f MHz", d.clock_mhz) + " \u00b7 " +
                     Format("%.1f GiB", static_cast<double>(d.total_memory_bytes) / kGiB);
  if (d.memory_bandwidth_gbs > 0.0) text += Format(" \u00b7 memory %.0f GB/s", d.memory_bandwidth_gbs);
  if (d.fp32_peak_gflops > 0.0) text += Format(" \u00b7 FP32 peak %.1f TFLOPS", d.fp32_peak_gflops / 1000.0);
  return text;
}

LiveGpuPanel::LiveGpuPanel() {
  for (const kernels::KernelSpec* spec : kernels::DefaultKernels()) kernels.push_back(spec->name);
}

std::vector<kernels::Shape> LiveGpuPanel::ValidateSizes(const kernels::GpuStatus& gpu) {
  std::vector<kernels::Shape> shapes;
  planned_sizes = 0;
  if (auto error = kernels::ParseShapes(sizes_text, shapes)) {
    sizes_message = *error;
    return {};
  }
  for (const kernels::Shape& shape : shapes) {
    if (!gpu.available) break;
    if (auto error = kernels::DeviceMemoryError(shape, gpu.device.total_memory_bytes)) {
      sizes_message = *error;
      return {};
    }
  }
  sizes_message.clear();
  planned_sizes = shapes.size();
  return shapes;
}

void LiveGpuPanel::DumpState(nlohmann::json& state) const {
  state["view"] = kLiveViewNames[static_cast<int>(view)];
  state["ladder_size"] = ladder_size;
  state["gflops_axis"] = gflops_axis == plot::Scale::kLog ? "log" : "linear";
  state["kernels"] = kernels;
  state["sizes"] = sizes_text;
  state["sizes_message"] = sizes_message;
  state["reps"] = reps;
  state["message"] = status_message;
  state["model_size"] = model_size;
  const kernels::KernelSpec* rung = kernels::FindKernel(rung_source);
  const auto source = rung ? kernels::RungSourceOf(*rung) : std::nullopt;
  state["rung_source"] = source ? nlohmann::json{{"kernel", rung_source},
                                                 {"file", source->file.name},
                                                 {"before", source->before_file.name},
                                                 {"header", kernels::RungSourceHeader(*source)},
                                                 {"lines", source->changed.size()},
                                                 {"changed_lines", source->changed_count}}
                                : nlohmann::json();
  auto& plot = state["plot"];
  plot["series"] = nlohmann::json::array();
  for (const auto& s : plot_state.series) plot["series"].push_back({{"name", s.name}, {"points", s.points}});
  plot["reference_lines"] = plot_state.reference_lines;
  plot["x_axis"] = {plot_state.x_axis.lo, plot_state.x_axis.hi};
  plot["y_axis"] = {plot_state.y_axis.lo, plot_state.y_axis.hi};
  plot["region"] = {plot_state.widget_min.x, plot_state.widget_min.y, plot_state.widget_max.x, plot_state.widget_max.y};
}

void LiveGpuPanel::Draw(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  DrawDevice(sweep.gpu);
  DrawRunRow(frame, sweep);
  // Presentation mode starts with the setup folded, so the plot gets the room a class needs.
  if (frame.presentation != fold_set_for_presentation) {
    ImGui::SetNextItemOpen(!frame.presentation);
    fold_set_for_presentation = frame.presentation;
  }
  if (gui::CollapsingHeader("Sweep setup: kernels, sizes, repetitions, files")) {
    DrawKernelChoice(frame, sweep.progress.running);
    DrawSweepForm(sweep);
    DrawFileRow(frame);
  }
  MessageText(status_message, status_is_error);
  ImGui::Separator();
  const std::string provenance = sweep.sweep.Provenance();
  if (!provenance.empty()) gui::TextWrappedColored(Colour(gui::palette::kSkyBlue), "%s", provenance.c_str());
  const float font = ImGui::GetFontSize();
  // A room reads the plot, in all the height left (a room cannot scroll); the table of every
  // launch, which only scrolls, stays in the normal view.
  if (frame.presentation) {
    DrawPlot(frame, sweep, kAllTheRest);
    return;
  }
  DrawPlot(frame, sweep, std::max(kMinPlotHeightFonts * font, ImGui::GetContentRegionAvail().y * kPlotShare));
  DrawDetails(frame, sweep);
}

void LiveGpuPanel::DrawDevice(const kernels::GpuStatus& gpu) const {
  if (gpu.available) {
    gui::TextColored(Colour(gui::palette::kBluishGreen), "%s", gui::palette::kGlyphCheck);
    ImGui::SameLine();
    gui::TextWrapped("GPU: %s", DescribeDevice(gpu.device).c_str());
  } else {
    MessageText("No GPU run here: " + gpu.reason + ". Loading saved results still works.", true);
  }
}

void LiveGpuPanel::DrawKernelChoice(const gui::FrameContext& frame, bool running) {
  bool changed = false;
  auto checkbox = [&](const kernels::KernelSpec& spec) {
    const auto at = std::find(kernels.begin(), kernels.end(), spec.name);
    bool on = at != kernels.end();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(spec.label).x + ImGui::GetFrameHeight() * 2.0f) {
      ImGui::NewLine();
    }
    if (gui::Checkbox(spec.label, &on)) changed = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", spec.name, kernels::DescribeParameters(spec).c_str());
    ImGui::SameLine();
    return on;
  };
  ImGui::BeginDisabled(running);
  std::vector<std::string> chosen;
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Kernels:");
  ImGui::SameLine();
  for (const kernels::KernelSpec* spec : kernels::AllKernels()) {
    if (IsBenchmarkKernel(*spec) && checkbox(*spec)) chosen.push_back(spec->name);
  }
  ImGui::NewLine();
  if (gui::TreeNode("Race-lab variants (barriers removed, unguarded): their C is wrong, so they are timed but never plotted")) {
    for (const kernels::KernelSpec* spec : kernels::AllKernels()) {
      if (!IsBenchmarkKernel(*spec) && checkbox(*spec)) chosen.push_back(spec->name);
    }
    ImGui::NewLine();
    ImGui::TreePop();
  } else {
    for (const std::string& name : kernels) {
      const kernels::KernelSpec* spec = kernels::FindKernel(name);
      if (spec && !IsBenchmarkKernel(*spec)) chosen.push_back(name);  // Folded away, still chosen.
    }
  }
  ImGui::EndDisabled();
  // Through the action, so a click and a script line change the choice the same way.
  if (changed) {
    std::string list;
    for (const std::string& name : chosen) list += (list.empty() ? "" : ",") + name;
    frame.actions.Push("live-kernels", list.empty() ? "none" : list);
  }
}

void LiveGpuPanel::DrawSweepForm(const LiveSweepView& sweep) {
  ImGui::BeginDisabled(sweep.progress.running);
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Repetitions:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  if (gui::Recorded(ImGui::InputInt("##reps", &reps), "##reps")) reps = std::clamp(reps, 1, kernels::kMaxReps);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Timed launches per kernel and size, after 2 warm-ups");
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  gui::TextUnformatted("Sizes:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (gui::Recorded(ImGui::InputText("##sizes", &sizes_text), "##sizes")) ValidateSizes(sweep.gpu);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("A list (256,1000,4096), a power-of-two range (256:4096) or M\u00d7N\u00d7K shapes (37x29x53)");
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (sizes_message.empty()) {
    gui::TextColored(Colour(gui::palette::kBluishGreen), "%s", gui::palette::kGlyphCheck);
  } else {
    ImGui::PushTextWrapPos(0.0f);
    gui::TextColored(Colour(gui::palette::kOrange), "%s %s", gui::palette::kGlyphWarning, sizes_message.c_str());
    ImGui::PopTextWrapPos();
  }
}

void LiveGpuPanel::DrawFileRow(const gui::FrameContext& frame) {
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("File:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
  gui::Recorded(ImGui::InputTextWithHint("##file", "results.json, results.csv or plot.png", &file_path), "##file");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The same CSV and JSON as tilescope bench --csv / --json");
  const std::pair<const char*, const char*> buttons[] = {{"Load", "live-load"},
                                                         {"Export CSV", "live-export-csv"},
                                                         {"Export JSON", "live-export-json"},
                                                         {"Export plot PNG", "live-export-png"}};
  for (const auto& [label, action] : buttons) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(label).x + ImGui::GetFrameHeight()) ImGui::NewLine();
    if (gui::Button(label)) frame.actions.Push(action, file_path);
  }
}

RunButtonState RunButtonFor(const kernels::GpuStatus& gpu, const SweepProgress& progress) {
  if (!gpu.available) {
    return {false, "Run needs a GPU, and there is none here: " + gpu.reason +
                       ". Saved results (the shipped H100 run, or a file through Load) still show."};
  }
  if (progress.running) return {false, "A sweep is running: Cancel stops it after the current launch"};
  return {true, "Time the chosen kernels on the GPU (Ctrl+R)"};
}

// Run and Cancel stay visible with the setup folded; beside them the progress of a sweep, or
// what Run would do.
void LiveGpuPanel::DrawRunRow(const gui::FrameContext& frame, const LiveSweepView& sweep) const {
  const SweepProgress& progress = sweep.progress;
  const RunButtonState run = RunButtonFor(sweep.gpu, progress);
  ImGui::BeginDisabled(!run.enabled);
  if (gui::Button("Run")) frame.actions.Push("live-run");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    // The reason can be long (a driver's message): wrapped, not one line past the screen.
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    gui::TextUnformatted(run.tooltip.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!progress.running || progress.cancelling);
  if (gui::Button("Cancel")) frame.actions.Push("live-cancel");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Stops after the current launch");
  ImGui::SameLine();
  if (!progress.running) {
    ImGui::AlignTextToFramePadding();
    gui::TextDisabled("%zu kernel%s \u00d7 %zu size%s (%s), %d timed launches each", kernels.size(),
                      kernels.size() == 1 ? "" : "s", planned_sizes, planned_sizes == 1 ? "" : "s",
                      sizes_text.c_str(), reps);
    return;
  }
  const float fraction = progress.total > 0 ? static_cast<float>(progress.done) / static_cast<float>(progress.total) : 0.0f;
  const std::string text = "[" + std::to_string(progress.done) + "/" + std::to_string(progress.total) + "] " +
                           progress.text + (progress.cancelling ? " \u2014 stopping after this launch" : "");
  gui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), text.c_str());
}

void LiveGpuPanel::DrawViewChoice(const gui::FrameContext& frame) {
  static constexpr const char* kViewLabels[] = {"GFLOPS plot", "% of cuBLAS bars", "Ladder", "Roofline"};
  for (int i = 0; i < static_cast<int>(std::size(kViewLabels)); ++i) {
    if (i > 0) gui::SameLineIfFits(kViewLabels[i]);
    if (gui::RadioButton(kViewLabels[i], static_cast<int>(view) == i)) frame.actions.Push("live-view", kLiveViewNames[i]);
  }
  if (view == LiveView::kPlot) {
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
    gui::TextUnformatted("GFLOPS axis:");
    ImGui::SameLine();
    if (gui::RadioButton("log", gflops_axis == plot::Scale::kLog)) frame.actions.Push("live-gflops-axis", "log");
    ImGui::SameLine();
    if (gui::RadioButton("linear", gflops_axis == plot::Scale::kLinear)) frame.actions.Push("live-gflops-axis", "linear");
  }
}

void LiveGpuPanel::DrawLadderSizeChoice(const gui::FrameContext& frame, const LiveSweepView& sweep,
                                        const kernels::Shape& shape) const {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  if (!gui::BeginCombo("size##ladder", kernels::ToString(shape).c_str())) return;
  std::vector<std::string> seen;
  for (const kernels::BenchResult& r : sweep.sweep.results()) {
    const std::string name = kernels::ToString(r.shape);
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
    seen.push_back(name);
    if (gui::Selectable(name.c_str(), r.shape == shape)) frame.actions.Push("live-ladder-size", name);
  }
  ImGui::EndCombo();
}

// Each kernel's row: its idea, its GFLOPS as a bar towards cuBLAS, how much of cuBLAS that is,
// the FLOP per byte it requests and its blocks per SM. A wrong C shows no bar: a kernel
// that computes the wrong answer is not fast.
void LiveGpuPanel::StepRungSource(const std::vector<kernels::LadderRow>& rows) {
  if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) return;
  const int step = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))  ? 1
                   : ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)) ? -1
                                                                                 : 0;
  if (step == 0) return;
  std::vector<const char*> rungs;
  for (const kernels::LadderRow& row : rows) {
    if (row.spec && row.spec->family == kernels::KernelFamily::kLadder) rungs.push_back(row.spec->name);
  }
  if (rungs.empty()) return;
  const auto open = std::find_if(rungs.begin(), rungs.end(), [&](const char* name) { return rung_source == name; });
  if (open == rungs.end()) {
    rung_source = step > 0 ? rungs.front() : rungs.back();
  } else {
    const auto index = std::clamp<std::ptrdiff_t>((open - rungs.begin()) + step, 0,
                                                  static_cast<std::ptrdiff_t>(rungs.size()) - 1);
    rung_source = rungs[static_cast<std::size_t>(index)];
  }
}

void LiveGpuPanel::DrawRungSource(float height) const {
  const kernels::KernelSpec* spec = kernels::FindKernel(rung_source);
  const auto source = spec ? kernels::RungSourceOf(*spec) : std::nullopt;
  if (!source) return;
  gui::TextWrapped("%s", kernels::RungSourceHeader(*source).c_str());
  const float rest = std::max(height - ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFrameHeight());
  gui::BeginChild("##rung_source", ImVec2(0.0f, rest), true, ImGuiWindowFlags_HorizontalScrollbar);
  // '+' marks a line new since the rung before, so the colour is never the only sign.
  const ImVec4 added = ImGui::ColorConvertU32ToFloat4(gui::palette::kBluishGreen);
  const std::vector<std::string_view> lines = kernels::SplitLines(source->file.text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    char prefix[32];  // room for any size_t: a short buffer was -Wformat-truncation's warning
    std::snprintf(prefix, sizeof prefix, "%c %3zu  ", source->changed[i] ? '+' : ' ', i + 1);
    const std::string line = prefix + std::string(lines[i]);
    if (source->changed[i]) {
      gui::TextColored(added, "%s", line.c_str());
    } else {
      gui::TextUnformatted(line.c_str());
    }
  }
  gui::EndChild();
}

void LiveGpuPanel::DrawLadder(const LiveSweepView& sweep, const kernels::Shape& shape, float height) {
  const std::vector<kernels::LadderRow> rows = kernels::LadderAt(sweep.sweep.results(), shape);
  StepRungSource(rows);
  // The open source takes the lower part; the table keeps room for a few rows above it.
  const float source_height = rung_source.empty() ? 0.0f : height * 0.55f;
  height -= source_height;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (gui::BeginTable("##ladder", 6, kFlags, ImVec2(0.0f, height))) {
    DrawLadderRows(rows);
    gui::EndTable();
  }
  if (!rung_source.empty()) DrawRungSource(source_height);
}

void LiveGpuPanel::DrawLadderRows(const std::vector<kernels::LadderRow>& rows) {
  const float font = ImGui::GetFontSize();
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("kernel");
  ImGui::TableSetupColumn("TFLOPS, towards cuBLAS", ImGuiTableColumnFlags_WidthFixed, font * 14.0f);
  ImGui::TableSetupColumn("% of cuBLAS");
  ImGui::TableSetupColumn("FLOP/byte");
  ImGui::TableSetupColumn("blocks/SM");
  ImGui::TableSetupColumn("the idea");
  gui::TableHeadersRow();
  for (const kernels::LadderRow& row : rows) {
    const kernels::BenchResult& r = *row.result;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (row.spec && row.spec->family == kernels::KernelFamily::kLadder) {
      // A click on the label opens the rung's source below the table, a second click closes
      // it; the open one carries an arrow. Plain text, not a selectable: ImGui pads a
      // selectable past its cell's edge, which would count as cut off.
      const bool open = rung_source == row.spec->name;
      const std::string label = open ? std::string(gui::palette::kGlyphRight) + " " + r.label : r.label;
      gui::TextUnformatted(label.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
      if (ImGui::IsItemClicked()) rung_source = open ? "" : row.spec->name;
    } else {
      gui::TextUnformatted(r.label.c_str());
    }
    ImGui::TableNextColumn();
    if (!r.ok()) {
      MessageText("not measured: " + r.error, true);
    } else if (!r.verified) {
      MessageText(std::string(gui::palette::kGlyphCross) + " C wrong: not plotted", true);
    } else {
      // Towards cuBLAS of the row's own precision: a BF16 rung's bar is full at cuBLAS BF16.
      const double cublas = row.reference != nullptr && row.reference->ok() ? row.reference->gflops : 0.0;
      const float fraction = cublas > 0.0 ? static_cast<float>(std::min(1.0, r.gflops / cublas)) : 0.0f;
      char text[32];
      std::snprintf(text, sizeof text, "%.1f", r.gflops / 1000.0);
      gui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), text);
    }
    ImGui::TableNextColumn();
    if (r.ok() && r.verified && r.percent_of_cublas > 0.0) gui::Text("%.0f%%", r.percent_of_cublas);
    ImGui::TableNextColumn();
    if (row.intensity) gui::Text("%.2f", *row.intensity);
    ImGui::TableNextColumn();
    if (r.occupancy_blocks_per_sm > 0) gui::Text("%d", r.occupancy_blocks_per_sm);
    ImGui::TableNextColumn();
    gui::TextUnformatted(row.spec ? kernels::IdeaOf(*row.spec) : "");
  }
}

void LiveGpuPanel::DrawPlot(const gui::FrameContext& frame, const LiveSweepView& sweep, float height) {
  DrawViewChoice(frame);
  const plot::SweepLook look = SweepLook();
  const std::vector<kernels::BenchResult>& results = sweep.sweep.results();
  const double peak = sweep.sweep.device().fp32_peak_gflops;
  if (height == kAllTheRest) height = ImGui::GetContentRegionAvail().y;
  if (view == LiveView::kLadder || view == LiveView::kRoofline) {
    const std::optional<kernels::Shape> shape = kernels::LadderShape(results, ladder_size);
    if (!shape) {
      gui::TextWrapped("No results yet: run a sweep or load a saved one.");
      return;
    }
    DrawLadderSizeChoice(frame, sweep, *shape);
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height - ImGui::GetFrameHeightWithSpacing());
    if (view == LiveView::kLadder) {
      DrawLadder(sweep, *shape, size.y);
      plot_state = {};
      return;
    }
    plot_state =
        plot::DrawLinePlot("##roofline", plot::RooflinePlot(results, *shape, sweep.sweep.device(), look), size);
  } else {
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    plot_state = view == LiveView::kPlot
                     ? plot::DrawLinePlot("##gflops", plot::GflopsPlot(results, peak, look, gflops_axis), size)
                     : plot::DrawBarChart("##percent", plot::PercentOfCublasBars(results, look), size);
  }
  if (!pending_png.empty() && frame.region_screenshots) {
    frame.region_screenshots->push_back({plot_state.widget_min, plot_state.widget_max, pending_png});
    pending_png.clear();
  }
}

// The results table and the model link: side by side where the page is wide enough for
// both, else (large presentation fonts) as two tabs, so neither is squeezed.
void LiveGpuPanel::DrawDetails(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x >= kSideBySideFonts * ImGui::GetFontSize()) {
    const float table_width = avail.x * kTableShare;
    gui::BeginChild("##table", ImVec2(table_width, avail.y));
    DrawTable(sweep);
    gui::EndChild();
    ImGui::SameLine();
    gui::BeginChild("##model", ImVec2(0.0f, avail.y));
    DrawModelLink(frame, sweep);
    gui::EndChild();
    return;
  }
  if (!ImGui::BeginTabBar("##details")) return;
  if (gui::Recorded(ImGui::BeginTabItem("Results"), "Results")) {
    DrawTable(sweep);
    ImGui::EndTabItem();
  }
  if (gui::Recorded(ImGui::BeginTabItem("Model link: global reads"), "Model link: global reads")) {
    DrawModelLink(frame, sweep);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

void LiveGpuPanel::DrawTable(const LiveSweepView& sweep) const {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (!gui::BeginTable("##results", 9, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  // "% cuBLAS" is of cuBLAS in the kernel's own precision; each cell names which.
  for (const char* name : {"kernel", "n", "median ms", "GFLOPS", "% cuBLAS", "% peak", "blocks/SM", "C", "note"}) {
    ImGui::TableSetupColumn(name);
  }
  gui::TableHeadersRow();
  const std::vector<kernels::BenchResult>& results = sweep.sweep.results();
  const double peak = sweep.sweep.device().fp32_peak_gflops;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(results.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) DrawTableRow(results[static_cast<size_t>(i)], peak);
  }
  gui::EndTable();
}

void LiveGpuPanel::DrawTableRow(const kernels::BenchResult& r, double peak) const {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted(r.label.empty() ? r.kernel.c_str() : r.label.c_str());
  ImGui::TableNextColumn();
  gui::TextUnformatted(kernels::ToString(r.shape).c_str());
  if (!r.ok()) {
    for (int column = 0; column < 6; ++column) ImGui::TableNextColumn();
    gui::TextColored(Colour(gui::palette::kOrange), "%s", gui::palette::kGlyphWarning);
    ImGui::TableNextColumn();
    const std::string note = "not measured: " + r.error;
    gui::TextUnformatted(note.c_str());
    // A worker's fault names the kernel, the shape and the restart at its end, past the
    // column's edge: the whole message on hover, wrapped (rows stay one line for the clipper).
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
      ImGui::TextUnformatted(note.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    return;
  }
  ImGui::TableNextColumn();
  gui::Text("%.4f", r.median_ms);
  // A wrong C's speed means nothing: its GFLOPS and percentages are not shown.
  ImGui::TableNextColumn();
  r.verified ? gui::Text("%.0f", r.gflops) : Dash();
  ImGui::TableNextColumn();
  r.verified && r.percent_of_cublas > 0.0
      ? gui::Text("%.1f of %s", r.percent_of_cublas, kernels::ReferenceLabel(r.percent_of).c_str())
      : Dash();
  ImGui::TableNextColumn();
  r.verified && peak > 0.0 ? gui::Text("%.1f", 100.0 * r.gflops / peak) : Dash();
  ImGui::TableNextColumn();
  r.occupancy_blocks_per_sm > 0 ? gui::Text("%d", r.occupancy_blocks_per_sm) : Dash();
  ImGui::TableNextColumn();
  VerifiedMark(r.verified);
  ImGui::TableNextColumn();
  if (!r.verified) {
    gui::Text("wrong C: %lld elements off by more than %.3g", static_cast<long long>(r.wrong_elements), r.tolerance);
  }
}

void LiveGpuPanel::DrawModelLink(const gui::FrameContext& frame, const LiveSweepView& sweep) const {
  const ModelLink& link = sweep.model_link;
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Global reads of A and B at n =");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  const std::string shown = link.size ? kernels::ToString(*link.size) : std::string("\u2014");
  if (gui::BeginCombo("##model_size", shown.c_str())) {
    for (const kernels::Shape& shape : link.sizes) {
      const std::string name = kernels::ToString(shape);
      if (gui::Selectable(name.c_str(), link.size && *link.size == shape)) frame.actions.Push("live-model-size", name);
    }
    ImGui::EndCombo();
  }
  if (link.rows.empty()) {
    gui::TextWrapped("Run or load a sweep with the naive or tiled kernels to see what the model counts at its sizes.");
    return;
  }
  const double bandwidth = sweep.sweep.device().memory_bandwidth_gbs;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (gui::BeginTable("##model_link", 5, flags)) {
    for (const char* name : {"kernel", "global reads", "median ms", "requested load", "of memory bandwidth"}) {
      ImGui::TableSetupColumn(name);
    }
    gui::TableHeadersRow();
    for (const ModelLinkRow& row : link.rows) DrawModelLinkRow(row, bandwidth);
    gui::EndTable();
  }
  ImGui::PushTextWrapPos(0.0f);
  gui::TextDisabled("global reads: elements of A and B loaded; (model): %s, every dimension \u2264 %lld; "
                    "(formula): %s.",
                    kernels::Describe(kernels::ReadsSource::kModel).c_str(), static_cast<long long>(kernels::kModelCountLimit),
                    kernels::Describe(kernels::ReadsSource::kFormula).c_str());
  gui::TextDisabled("requested load = global reads \u00d7 4 B / median time: what the kernel asks of the memory "
                    "system, not DRAM traffic (L1 and L2 serve most of it).");
  if (bandwidth > 0.0) {
    gui::TextDisabled("Device memory bandwidth: %.0f GB/s (2 \u00d7 memory clock \u00d7 bus width).", bandwidth);
  } else {
    gui::TextDisabled("Device memory bandwidth: not recorded with these results.");
  }
  ImGui::PopTextWrapPos();
}

void LiveGpuPanel::DrawModelLinkRow(const ModelLinkRow& row, double bandwidth) const {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted(row.label.c_str());
  ImGui::TableNextColumn();
  if (row.reads) {
    const bool model = row.reads->source == kernels::ReadsSource::kModel;
    gui::Text("%s (%s)", Grouped(row.reads->reads).c_str(), model ? "model" : "formula");
  } else {
    gui::TextDisabled("the model is counting\u2026");
  }
  const std::optional<kernels::BenchResult>& r = row.result;
  ImGui::TableNextColumn();
  if (!r || !r->ok()) {
    gui::TextDisabled("not measured");
    return;
  }
  if (!r->verified) {
    gui::TextColored(Colour(gui::palette::kVermillion), "%s wrong C", gui::palette::kGlyphCross);
    return;
  }
  gui::Text("%.4f", r->median_ms);
  if (!row.reads) return;
  const double requested = kernels::RequestedGBs(row.reads->reads, r->median_ms);
  ImGui::TableNextColumn();
  gui::Text("%.0f GB/s", requested);
  ImGui::TableNextColumn();
  bandwidth > 0.0 ? gui::Text("%.2f\u00d7", requested / bandwidth) : Dash();
}

}  // namespace panels
