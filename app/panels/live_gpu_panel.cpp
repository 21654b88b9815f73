#include "app/panels/live_gpu_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/palette.h"
#include "app/plot/bar_chart.h"
#include "app/plot/line_plot.h"
#include "app/plot/sweep_plots.h"
#include "kernels/registry.h"

namespace panels {
namespace {

constexpr const char* kWindowTitle = "Live GPU";
constexpr float kPlotHeightShare = 0.55f;  // Of the space left under the controls.
constexpr float kMinPlotHeight = 260.0f;   // Font-relative: × font size / 16.
constexpr float kTableRows = 8.0f;         // Visible rows before the table scrolls.

ImVec4 Colour(ImU32 colour) { return ImGui::ColorConvertU32ToFloat4(colour); }

void MessageText(const std::string& text, bool error) {
  if (text.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  if (error) {
    ImGui::TextColored(Colour(gui::palette::kOrange), "%s %s", gui::palette::kGlyphWarning, text.c_str());
  } else {
    ImGui::TextColored(Colour(gui::palette::kSkyBlue), "%s", text.c_str());
  }
  ImGui::PopTextWrapPos();
}

// Kernels worth timing: both barriers, guarded. The race lab's variants sit in a folded list.
bool IsBenchmarkKernel(const kernels::KernelSpec& spec) {
  return spec.guarded && spec.first_barrier == kernels::Barrier::kSyncthreads &&
         spec.second_barrier == kernels::Barrier::kSyncthreads;
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBytesPerFloat = 4.0;

// A, B, C and the cuBLAS reference C the runner checks against, all FP32.
double BytesFor(const kernels::Shape& s) {
  const double m = static_cast<double>(s.m);
  const double n = static_cast<double>(s.n);
  const double k = static_cast<double>(s.k);
  return kBytesPerFloat * (m * k + k * n + 2.0 * m * n);
}

}  // namespace

std::string DescribeDevice(const LiveDevice& d) {
  if (!d.available) return d.reason;
  std::string text = d.name + " \u00b7 CC " + d.compute_capability + " \u00b7 " + std::to_string(d.sms) + " SMs \u00b7 " +
                     Format("%.0f MHz", d.clock_mhz) + " \u00b7 " + Format("%.1f GiB", d.memory_bytes / kGiB);
  if (d.fp32_peak_gflops > 0.0) text += Format(" \u00b7 FP32 peak %.1f TFLOPS", d.fp32_peak_gflops / 1000.0);
  return text;
}

LiveGpuPanel::LiveGpuPanel() {
  for (const kernels::KernelSpec* spec : kernels::DefaultKernels()) kernels.push_back(spec->name);
}

void LiveGpuPanel::PlaceWindow(const gui::FrameContext& frame) const {
  const ImVec2 area(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  // Lower right, beside and under the lesson's panels, which take the upper left.
  const ImVec2 pos(frame.area_min.x + area.x * 0.5f, frame.area_min.y + area.y * 0.35f);
  const ImGuiCond cond = frame.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(pos, cond);
  ImGui::SetNextWindowSize(ImVec2(area.x * 0.5f, area.y * 0.65f), cond);
}

std::vector<kernels::Shape> LiveGpuPanel::ValidateSizes(const LiveDevice& device) {
  std::vector<kernels::Shape> shapes;
  if (auto error = kernels::ParseShapes(sizes_text, shapes)) {
    sizes_message = *error;
    return {};
  }
  for (const kernels::Shape& shape : shapes) {
    if (device.available && BytesFor(shape) > device.memory_bytes) {
      sizes_message = "n = " + kernels::ToString(shape) + " needs " + Format("%.1f GiB", BytesFor(shape) / kGiB) +
                      " (A, B, C and the reference C); the device has " + Format("%.1f GiB", device.memory_bytes / kGiB);
      return {};
    }
  }
  sizes_message.clear();
  return shapes;
}

void LiveGpuPanel::DumpState(nlohmann::json& state) const {
  state["open"] = open;
  state["view"] = view == LiveView::kPlot ? "plot" : "bars";
  state["kernels"] = kernels;
  state["sizes"] = sizes_text;
  state["sizes_message"] = sizes_message;
  state["reps"] = reps;
  state["message"] = status_message;
  auto& plot = state["plot"];
  plot["series"] = nlohmann::json::array();
  for (const auto& s : plot_state.series) plot["series"].push_back({{"name", s.name}, {"points", s.points}});
  plot["reference_lines"] = plot_state.reference_lines;
  plot["x_axis"] = {plot_state.x_axis.lo, plot_state.x_axis.hi};
  plot["y_axis"] = {plot_state.y_axis.lo, plot_state.y_axis.hi};
  plot["region"] = {plot_state.widget_min.x, plot_state.widget_min.y, plot_state.widget_max.x, plot_state.widget_max.y};
}

void LiveGpuPanel::DrawDevice(const LiveDevice& device) const {
  if (device.available) {
    ImGui::TextColored(Colour(gui::palette::kBluishGreen), "%s", gui::palette::kGlyphCheck);
    ImGui::SameLine();
    ImGui::TextWrapped("%s", DescribeDevice(device).c_str());
  } else {
    MessageText("No GPU run here: " + device.reason + ". Loading saved results still works.", true);
  }
}

void LiveGpuPanel::Draw(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  if (!open) return;
  PlaceWindow(frame);
  if (!ImGui::Begin(kWindowTitle, &open)) {
    ImGui::End();
    return;
  }
  DrawDevice(sweep.device);
  DrawKernelChoice(frame);
  DrawSweepForm(frame, sweep);
  DrawProgress(sweep.progress);
  MessageText(status_message, status_is_error);
  ImGui::Separator();
  DrawResultsArea(frame, sweep);
  ImGui::End();
}

void LiveGpuPanel::DrawKernelChoice(const gui::FrameContext& frame) {
  bool changed = false;
  auto checkbox = [&](const kernels::KernelSpec& spec) {
    const auto at = std::find(kernels.begin(), kernels.end(), spec.name);
    bool on = at != kernels.end();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(spec.label).x + ImGui::GetFrameHeight() * 2.0f) {
      ImGui::NewLine();
    }
    if (ImGui::Checkbox(spec.label, &on)) changed = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", spec.name, kernels::DescribeParameters(spec).c_str());
    ImGui::SameLine();
    return on;
  };
  std::vector<std::string> chosen;
  ImGui::TextUnformatted("Kernels:");
  ImGui::SameLine();
  for (const kernels::KernelSpec* spec : kernels::AllKernels()) {
    if (IsBenchmarkKernel(*spec) && checkbox(*spec)) chosen.push_back(spec->name);
  }
  ImGui::NewLine();
  if (ImGui::TreeNode("Race-lab variants (barriers removed, unguarded)")) {
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
  // Through the action, so a click and a script line change the choice the same way.
  if (changed) {
    std::string list;
    for (const std::string& name : chosen) list += (list.empty() ? "" : ",") + name;
    frame.actions.Push("live-kernels", list.empty() ? "none" : list);
  }
}

void LiveGpuPanel::DrawSweepForm(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Sizes:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (ImGui::InputText("##sizes", &sizes_text)) ValidateSizes(sweep.device);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("A list (256,1000,4096), a power-of-two range (256:4096) or M×N×K shapes (37x29x53)");
  }
  ImGui::SameLine();
  if (sizes_message.empty()) {
    ImGui::TextColored(Colour(gui::palette::kBluishGreen), "%s", gui::palette::kGlyphCheck);
  } else {
    ImGui::TextColored(Colour(gui::palette::kOrange), "%s %s", gui::palette::kGlyphWarning, sizes_message.c_str());
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Repetitions:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  if (ImGui::InputInt("##reps", &reps)) reps = std::clamp(reps, 1, kernels::kMaxReps);
  ImGui::SameLine();
  ImGui::BeginDisabled(sweep.progress.running);
  if (ImGui::Button("Run")) frame.actions.Push("live-run");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!sweep.progress.running);
  if (ImGui::Button("Cancel")) frame.actions.Push("live-cancel");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Stops after the current launch");
  DrawFileRow(frame);
}

void LiveGpuPanel::DrawFileRow(const gui::FrameContext& frame) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("File:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
  ImGui::InputTextWithHint("##file", "results.json, results.csv or plot.png", &file_path);
  const std::pair<const char*, const char*> buttons[] = {{"Load", "live-load"},
                                                         {"Export CSV", "live-export-csv"},
                                                         {"Export JSON", "live-export-json"},
                                                         {"Export plot PNG", "live-export-png"}};
  for (const auto& [label, action] : buttons) {
    ImGui::SameLine();
    if (ImGui::Button(label)) frame.actions.Push(action, file_path);
  }
}

void LiveGpuPanel::DrawProgress(const SweepProgress& progress) const {
  if (!progress.running) return;
  const float fraction = progress.total > 0 ? static_cast<float>(progress.done) / static_cast<float>(progress.total) : 0.0f;
  ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), progress.text.c_str());
}

void LiveGpuPanel::DrawResultsArea(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  if (sweep.source.loaded) {
    ImGui::TextColored(Colour(gui::palette::kSkyBlue), "loaded from %s, measured on %s at %s", sweep.source.file.c_str(),
                       sweep.source.device.c_str(), sweep.source.date.c_str());
  }
  if (ImGui::RadioButton("GFLOPS plot", view == LiveView::kPlot)) frame.actions.Push("live-view", "plot");
  ImGui::SameLine();
  if (ImGui::RadioButton("% of cuBLAS bars", view == LiveView::kBars)) frame.actions.Push("live-view", "bars");
  const float unit = ImGui::GetFontSize() / 16.0f;
  const float height = std::max(kMinPlotHeight * unit, ImGui::GetContentRegionAvail().y * kPlotHeightShare);
  const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
  const ImU32 reference = ImGui::GetColorU32(ImGuiCol_Text);
  const double peak = sweep.peak_gflops;
  plot_state = view == LiveView::kPlot
                   ? plot::DrawLinePlot("##gflops", plot::GflopsPlot(sweep.results, peak, reference), size)
                   : plot::DrawBarChart("##percent", plot::PercentOfCublasBars(sweep.results, reference), size);
  if (!pending_png.empty() && frame.region_screenshots) {
    frame.region_screenshots->push_back({plot_state.widget_min, plot_state.widget_max, pending_png});
    pending_png.clear();
  }
  DrawTable(sweep);
}

void LiveGpuPanel::DrawTable(const LiveSweepView& sweep) const {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  const float height = ImGui::GetTextLineHeightWithSpacing() * (kTableRows + 1.0f);
  if (!ImGui::BeginTable("##results", 9, flags, ImVec2(0.0f, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* name : {"kernel", "size", "median ms", "GFLOPS", "% cuBLAS", "% peak", "blocks/SM", "C", "note"}) {
    ImGui::TableSetupColumn(name);
  }
  ImGui::TableHeadersRow();
  const double peak = sweep.peak_gflops;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(sweep.results.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) DrawTableRow(sweep.results[i], peak);
  }
  ImGui::EndTable();
}

void LiveGpuPanel::DrawTableRow(const kernels::BenchResult& r, double peak) const {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(r.label.empty() ? r.kernel.c_str() : r.label.c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(kernels::ToString(r.shape).c_str());
  if (!r.ok()) {
    for (int column = 0; column < 6; ++column) ImGui::TableNextColumn();
    ImGui::TextColored(Colour(gui::palette::kOrange), "%s", gui::palette::kGlyphWarning);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.error.c_str());
    return;
  }
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", r.median_ms);
  ImGui::TableNextColumn();
  ImGui::Text("%.1f", r.gflops);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(r.percent_of_cublas > 0.0 ? Format("%.1f", r.percent_of_cublas).c_str() : "\u2014");
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(peak > 0.0 ? Format("%.1f", 100.0 * r.gflops / peak).c_str() : "\u2014");
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(r.occupancy_blocks_per_sm > 0 ? std::to_string(r.occupancy_blocks_per_sm).c_str() : "\u2014");
  ImGui::TableNextColumn();
  ImGui::TextColored(Colour(r.verified ? gui::palette::kBluishGreen : gui::palette::kVermillion), "%s",
                     r.verified ? gui::palette::kGlyphCheck : gui::palette::kGlyphCross);
  ImGui::TableNextColumn();
  if (!r.verified) ImGui::Text("%lld wrong elements", static_cast<long long>(r.wrong_elements));
}

}  // namespace panels
