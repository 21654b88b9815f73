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
#include "app/panels/file_chooser.h"
#include "app/panels/live_text.h"
#include "app/panels/sweep_details.h"
#include "kernels/kernel_files.h"
#include "kernels/ladder.h"
#include "kernels/registry.h"

namespace panels {
namespace {

constexpr float kPlotShare = 0.58f;          // Of the height left under the controls.
constexpr float kMinPlotHeightFonts = 14.0f;  // × font size.
constexpr float kAllTheRest = -1.0f;         // A plot height: all that is left under its own choice row.
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

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

// The sweep's plots in the app's palette: the kernels in Okabe–Ito without black (the dark
// theme's background) and grey (the grid, here the roofs); cuBLAS in the theme's text colour,
// so it stands out on any background.
plot::SweepLook SweepLook() {
  using namespace gui::palette;
  return {{kOrange, kSkyBlue, kBluishGreen, kYellow, kBlue, kVermillion, kReddishPurple},
          ImGui::GetColorU32(ImGuiCol_Text),
          kGrey,
          kGlyphCheck,
          kGlyphCross,
          kStudentMagenta};
}

}  // namespace

std::string DescribeDevice(const kernels::DeviceInfo& d) {
  std::string text = d.name + " \u00b7 CC " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + " \u00b7 " +
                     std::to_string(d.sm_count) + " SMs \u00b7 " + Format("%.0f MHz", d.clock_mhz) + " \u00b7 " +
                     Format("%.1f GiB", static_cast<double>(d.total_memory_bytes) / kGiB);
  if (d.memory_bandwidth_gbs > 0.0) text += Format(" \u00b7 memory %.0f GB/s", d.memory_bandwidth_gbs);
  for (const kernels::Precision precision : {kernels::Precision::kFp32, kernels::Precision::kTf32, kernels::Precision::kBf16}) {
    const double peak = kernels::PeakGflops(d, precision);
    if (peak > 0.0) text += " \u00b7 " + std::string(kernels::PeakName(precision)) + Format(" %.1f TFLOPS", peak / 1000.0);
  }
  if (d.l2_bandwidth_gbs > 0.0) text += Format(" \u00b7 L2 %.0f GB/s (measured)", d.l2_bandwidth_gbs);
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
  std::vector<const kernels::KernelSpec*> chosen;
  for (const std::string& name : kernels) {
    if (const kernels::KernelSpec* spec = kernels::FindKernel(name)) chosen.push_back(spec);
  }
  for (const kernels::Shape& shape : shapes) {
    if (!gpu.available) break;
    if (auto error = kernels::DeviceMemoryError(shape, chosen, gpu.device.total_memory_bytes)) {
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
  student.DumpState(state["your_kernel"]);
  state["message"] = status_message;
  state["model_size"] = model_size;
  state["roofline_note"] = roofline_note;
  nlohmann::json entries = nlohmann::json::array();
  for (const sim::FolderEntry& entry : file_choice.entries) entries.push_back(entry.is_folder ? entry.name + "/" : entry.name);
  state["file_chooser"] = {{"open", choosing_file}, {"folder", file_choice.folder}, {"entries", entries},
                           {"cut", file_choice.cut}, {"error", file_choice.error}};
  const kernels::KernelSpec* rung = kernels::FindKernel(ladder.rung_source);
  const auto source = rung ? kernels::RungSourceOf(*rung) : std::nullopt;
  state["rung_source"] = source ? nlohmann::json{{"kernel", ladder.rung_source},
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
    student.Draw(frame, sweep);
    DrawSweepForm(sweep);
    DrawFileRow(frame);
  }
  // Outside the setup, so Open… from a key or a script shows it with the setup folded too.
  if (choosing_file) DrawFileChooser(frame, file_choice, {"live-choose-file", "live-load"});
  student.DrawChooser(frame);
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
  DrawSweepDetails(frame, sweep);
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
  ImGui::SameLine();
  // The dialog starts in the File field's folder, else the folder the app was started in.
  const std::size_t slash = file_path.find_last_of('/');
  if (gui::Button("Open\u2026")) frame.actions.Push("live-choose-file", slash == std::string::npos ? "" : file_path.substr(0, slash));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Choose a saved results file (JSON or CSV) to show, folder by folder");
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
    gui::TextDisabled("%zu kernel%s%s \u00d7 %zu size%s (%s), %d timed launches each", kernels.size(),
                      kernels.size() == 1 ? "" : "s", student.included ? " + yours" : "", planned_sizes,
                      planned_sizes == 1 ? "" : "s", sizes_text.c_str(), reps);
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

void LiveGpuPanel::DrawPlot(const gui::FrameContext& frame, const LiveSweepView& sweep, float height) {
  roofline_note.clear();  // said again below while the roofline is on show
  DrawViewChoice(frame);
  const plot::SweepLook look = SweepLook();
  const std::vector<kernels::BenchResult>& results = sweep.sweep.results();
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
      ladder.Draw(results, *shape, size.y);
      plot_state = {};
      return;
    }
    DrawRoofline(sweep, *shape, size);
  } else {
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    plot_state = view == LiveView::kPlot
                     ? plot::DrawLinePlot("##gflops", plot::GflopsPlot(results, sweep.sweep.device(), look, gflops_axis), size)
                     : plot::DrawBarChart("##percent", plot::PercentOfCublasBars(results, look), size);
  }
  if (!pending_png.empty() && frame.region_screenshots) {
    frame.region_screenshots->push_back({plot_state.widget_min, plot_state.widget_max, pending_png});
    pending_png.clear();
  }
}

// The roofline, and under it why a kernel lies above its memory roof when one does: a point
// there looks like an error to a class unless the plot says what serves it.
void LiveGpuPanel::DrawRoofline(const LiveSweepView& sweep, const kernels::Shape& shape, ImVec2 size) {
  const kernels::DeviceInfo& device = sweep.sweep.device();
  roofline_note = kernels::AboveMemoryRoofNote(sweep.sweep.results(), shape, device.memory_bandwidth_gbs);
  if (const std::string no_l2 = plot::NoL2RoofNote(device); !no_l2.empty()) {
    roofline_note += (roofline_note.empty() ? "" : " ") + no_l2;
  }
  if (!roofline_note.empty()) {
    size.y -= ImGui::CalcTextSize(roofline_note.c_str(), nullptr, false, size.x).y + ImGui::GetStyle().ItemSpacing.y;
  }
  plot_state = plot::DrawLinePlot("##roofline", plot::RooflinePlot(sweep.sweep.results(), shape, device, SweepLook()), size);
  if (!roofline_note.empty()) gui::TextWrapped("%s", roofline_note.c_str());
}

}  // namespace panels
