#include "app/panels/counters_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/formulas.h"
#include "sim/lesson/glossary.h"

namespace gui {
namespace {

std::string Number(std::uint64_t value) { return std::to_string(value); }

// One figure: counted so far, counted over the whole run, and the closed form (or why there is
// none). An empty `so_far` leaves its cell blank.
void Row(const char* name, const std::string& so_far, const std::string& whole_run, const std::string& expected,
         const char* tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextWrapped("%s", name);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  for (const std::string* cell : {&so_far, &whole_run, &expected}) {
    ImGui::TableNextColumn();
    gui::TextUnformatted(cell->c_str());
  }
}

// The comparison kernel's reads, or why they are not there yet.
std::string ComparisonReads(const std::optional<sim::ComparisonCount>& comparison) {
  if (!comparison) return "counting\u2026";
  return comparison->global_reads ? Number(*comparison->global_reads) : "\u2014";
}

// The whole run's counters once the page has counted them (on a worker); nothing before.
const sim::Counters* WholeRun(const sim::Simulation& simulation) {
  const sim::Timeline* timeline = simulation.KnownTimeline();
  return timeline ? &timeline->counters : nullptr;
}

// A whole-run figure, or what stands in its cell while the run is being counted.
std::string WholeNumber(const sim::Counters* whole, std::uint64_t sim::Counters::*field) {
  return whole ? Number(whole->*field) : "\u2026";
}

// One phase: reads of A then B as a stacked bar, labelled with the numbers.
void PhaseBar(const sim::PhaseCounters& phase, double full, float column) {
  char label[64];
  std::snprintf(label, sizeof label, "A %llu + B %llu", static_cast<unsigned long long>(phase.global_reads_a),
                static_cast<unsigned long long>(phase.global_reads_b));
  // The bar takes what the label leaves of the column, so large counts never overrun it.
  const float width = std::max(column - ImGui::CalcTextSize(label).x - ImGui::GetStyle().ItemSpacing.x,
                               ImGui::GetFontSize() * 2.0f);
  const float height = ImGui::GetFrameHeight() * 0.8f;
  const ImVec2 min = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(min, ImVec2(min.x + width, min.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float a = full > 0.0 ? float(double(phase.global_reads_a) / full) * width : 0.0f;
  const float b = full > 0.0 ? float(double(phase.global_reads_b) / full) * width : 0.0f;
  draw->AddRectFilled(min, ImVec2(min.x + std::min(a, width), min.y + height), palette::kOrange);
  draw->AddRectFilled(ImVec2(min.x + std::min(a, width), min.y), ImVec2(min.x + std::min(a + b, width), min.y + height),
                      palette::kSkyBlue);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::SameLine();
  gui::TextUnformatted(label);
}

}  // namespace

nlohmann::json CountersPanel::Figures(const sim::Simulation& simulation,
                                      const std::optional<sim::ComparisonCount>& comparison) {
  const sim::Counters& c = simulation.counters();
  const sim::Counters* whole = WholeRun(simulation);
  const std::optional<double> saving = sim::CountedSaving(simulation, comparison);
  const sim::ClosedForms expected = sim::Expected(simulation.config());
  nlohmann::json whole_run = nullptr;  // null while the whole run is being counted
  if (whole) {
    whole_run = {{"global_reads_a", whole->global_reads_a},
                 {"global_reads_b", whole->global_reads_b},
                 {"global_reads", whole->GlobalReads()},
                 {"shared_reads", whole->shared_reads},
                 {"shared_writes", whole->shared_writes},
                 {"barrier_arrivals", whole->barrier_arrivals},
                 {"global_sectors", whole->global_sectors},
                 {"bank_conflicts", whole->bank_conflicts}};
  }
  const sim::ReadsPerElement per_element = sim::ReadsPerElementOf(simulation.config(), c);
  nlohmann::json phases = nlohmann::json::array();
  for (const sim::PhaseCounters& p : c.phases) {
    phases.push_back({{"global_reads_a", p.global_reads_a},
                      {"global_reads_b", p.global_reads_b},
                      {"shared_writes", p.shared_writes},
                      {"shared_reads", p.shared_reads},
                      {"barrier_arrivals", p.barrier_arrivals},
                      {"hazards", p.hazards}});
  }
  return {{"global_reads_a", c.global_reads_a},
          {"global_reads_b", c.global_reads_b},
          {"global_reads", c.GlobalReads()},
          {"expected_global_reads_a", expected.global_reads_a},
          {"expected_global_reads_b", expected.global_reads_b},
          {"expected_global_reads", expected.global_reads()},
          {"whole_run", whole_run},
          {"naive_global_reads", expected.naive_global_reads},
          {"comparison_kernel", comparison ? nlohmann::json(sim::Name(comparison->kernel.kernel)) : nlohmann::json(nullptr)},
          {"comparison_global_reads_counted",
           comparison && comparison->global_reads ? nlohmann::json(*comparison->global_reads) : nullptr},
          {"minimum_global_reads", expected.minimum_global_reads},
          {"saving", saving ? nlohmann::json(*saving) : nlohmann::json(nullptr)},
          {"reads_per_element_of_c",
           {{"counted", per_element.counted},
            {"naive", per_element.naive},
            {"closed_form", per_element.kernel},
            {"minimum", per_element.minimum}}},
          {"shared_reads", c.shared_reads},
          {"shared_writes", c.shared_writes},
          {"barrier_arrivals", c.barrier_arrivals},
          {"barrier_stall_steps", c.barrier_stall_steps},
          {"global_sectors", c.global_sectors},
          {"bank_conflicts", c.bank_conflicts},
          {"hazards", c.hazards},
          {"phases", phases}};
}

void CountersPanel::Draw(const sim::Simulation& simulation, const WholeRunView& whole_run,
                         const std::optional<sim::ComparisonCount>& comparison, bool presentation) {
  DrawHeadline(simulation, whole_run, comparison);
  if (presentation) {
    DrawKeyFigures(simulation, comparison);
    DrawPerElement(simulation);
    return;
  }
  DrawTotals(simulation, comparison);
  DrawPerElement(simulation);
  DrawPhases(simulation);
}

void CountersPanel::DrawHeadline(const sim::Simulation& simulation, const WholeRunView& whole_run,
                                 const std::optional<sim::ComparisonCount>& comparison) {
  const sim::Counters* whole = WholeRun(simulation);
  const std::optional<double> saving = sim::CountedSaving(simulation, comparison);
  if (!whole && whole_run.cancelled) {
    gui::TextWrapped("The whole run was not counted: its count was stopped. The figures so far are below.");
    return;
  }
  if (!whole) {
    gui::TextWrapped("The whole run is being counted on the model (the Timeline shows how far); the figures so "
                     "far are below.");
    return;
  }
  const auto own = static_cast<unsigned long long>(whole->GlobalReads());
  if (!saving) {
    gui::TextWrapped("This run reads %llu values from global memory; the %s kernel is %s on the model.", own,
                     simulation.geometry().naive ? "tiled" : "naive",
                     comparison ? "not counted here" : "being counted");
  } else if (simulation.geometry().naive) {
    gui::TextWrapped("The naive kernel reads %llu values from global memory, %.2f\u00D7 what the tiled kernel reads "
                     "(%llu), both counted by the model.",
                     own, *saving, static_cast<unsigned long long>(*comparison->global_reads));
  } else {
    gui::TextWrapped("Tiling reads %.2f\u00D7 fewer values from global memory than the naive kernel (%llu vs %llu), "
                     "both counted by the model.",
                     *saving, own, static_cast<unsigned long long>(*comparison->global_reads));
  }
}

void CountersPanel::DrawTotals(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& comparison) {
  const sim::Counters& c = simulation.counters();
  const sim::Counters* w = WholeRun(simulation);
  const sim::ClosedForms e = sim::Expected(simulation.config());
  // The figures keep their width; the names wrap in what is left, so the table fits a panel a
  // quarter of a 1366-pixel window wide with seven-digit counts (a table scrolling sideways hid
  // its last column below the panel's fold, with its scrollbar).
  if (!gui::BeginTable("##counters", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("counted", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("so\nfar");
  ImGui::TableSetupColumn("whole\nrun");
  ImGui::TableSetupColumn("closed\nform");
  gui::TableHeadersRow();
  Row("global reads of A", Number(c.global_reads_a), WholeNumber(w, &sim::Counters::global_reads_a), Number(e.global_reads_a),
      "ceil(N/TN)\u00B7M\u00B7K for the tiled kernel");
  Row("global reads of B", Number(c.global_reads_b), WholeNumber(w, &sim::Counters::global_reads_b), Number(e.global_reads_b),
      "ceil(M/TM)\u00B7K\u00B7N for the tiled kernel");
  Row("global reads", Number(c.GlobalReads()), (w ? Number(w->GlobalReads()) : "\u2026"), Number(e.global_reads()),
      "A and B together; compare the other kernel and the minimum below");
  if (simulation.geometry().naive) {
    Row("  tiled kernel", "", ComparisonReads(comparison), Number(sim::ExpectedComparisonReads(simulation.config())),
        "The square tiled kernel on the same sizes and inputs, run on the model.");
  } else {
    Row("  naive kernel = 2\u00B7M\u00B7N\u00B7K", "", ComparisonReads(comparison),
        Number(sim::ExpectedComparisonReads(simulation.config())),
        "The naive kernel on the same sizes and inputs, run on the model: every product fetches both operands.");
  }
  Row("  minimum possible = M\u00B7K + K\u00B7N", "", "", Number(e.minimum_global_reads),
      "Every element of A and B read once: no kernel can read less.");
  Row("shared writes", Number(c.shared_writes), WholeNumber(w, &sim::Counters::shared_writes), Number(e.shared_writes), "stores into As and Bs");
  Row("shared reads", Number(c.shared_reads), WholeNumber(w, &sim::Counters::shared_reads), Number(e.shared_reads),
      "loads of As and Bs in the inner product");
  Row("barrier arrivals", Number(c.barrier_arrivals), WholeNumber(w, &sim::Counters::barrier_arrivals), Number(e.barrier_arrivals),
      "threads reaching an enabled barrier");
  Row("barrier stall steps (by scheduler)", Number(c.barrier_stall_steps),
      WholeNumber(w, &sim::Counters::barrier_stall_steps), "", sim::Meaning("barrier stall steps"));
  Row("32-byte sectors", Number(c.global_sectors), WholeNumber(w, &sim::Counters::global_sectors), "",
      sim::Meaning("32-byte sectors"));
  Row("bank conflicts", Number(c.bank_conflicts), WholeNumber(w, &sim::Counters::bank_conflicts), "",
      sim::Meaning("bank conflicts"));
  gui::EndTable();
}

// For a room: the whole run's figures the lessons talk about, beside their closed forms, in a
// table that does not scroll (a room cannot), without the formulas' names (the normal view
// and its tooltips have them).
void CountersPanel::DrawKeyFigures(const sim::Simulation& simulation,
                                   const std::optional<sim::ComparisonCount>& comparison) {
  const sim::Counters* w = WholeRun(simulation);
  const sim::ClosedForms e = sim::Expected(simulation.config());
  if (!gui::BeginTable("##key figures", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("counted", ImGuiTableColumnFlags_WidthStretch);
  // Headers on two lines, as the normal table's: beside wide matrices the names keep the room
  // to wrap between words.
  ImGui::TableSetupColumn("whole\nrun");
  ImGui::TableSetupColumn("closed\nform");
  gui::TableHeadersRow();
  const auto row = [](const char* name, const std::string& counted, const std::string& expected) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::TextWrapped("%s", name);
    for (const std::string& cell : {counted, expected}) {
      ImGui::TableNextColumn();
      gui::TextUnformatted(cell.c_str());
    }
  };
  const bool naive = simulation.geometry().naive;
  row("global reads", w ? Number(w->GlobalReads()) : "\u2026", Number(e.global_reads()));
  row(naive ? "tiled kernel" : "naive kernel", ComparisonReads(comparison),
      Number(sim::ExpectedComparisonReads(simulation.config())));
  row("minimum", "", Number(e.minimum_global_reads));
  row("shared reads", WholeNumber(w, &sim::Counters::shared_reads), Number(e.shared_reads));
  row("32-byte sectors", WholeNumber(w, &sim::Counters::global_sectors), "");
  row("bank conflicts", WholeNumber(w, &sim::Counters::bank_conflicts), "");
  gui::EndTable();
}

void CountersPanel::DrawPerElement(const sim::Simulation& simulation) {
  const sim::ReadsPerElement p = sim::ReadsPerElementOf(simulation.config(), simulation.counters());
  gui::TextWrapped("Reads per element of C: naive 2K = %.3g, this kernel %.3g, minimum %.3g; so far %.3g.", p.naive,
                   p.kernel, p.minimum, p.counted);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Global reads divided by M\u00B7N. The naive kernel reads a row of A and a column of B for\n"
                      "every element (2K); a T\u00D7T tile shares each read among T threads (about 2K/T).");
  }
}

void CountersPanel::DrawPhases(const sim::Simulation& simulation) {
  const std::vector<sim::PhaseCounters>& phases = simulation.counters().phases;
  if (phases.empty()) return;
  ImGui::Separator();
  gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kOrange), "\u25A0 A");
  ImGui::SameLine();
  gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kSkyBlue), "\u25A0 B");
  ImGui::SameLine();
  gui::TextWrapped("global reads per phase (full bar: a phase whose tiles lie inside A and B)");
  const double full = sim::FullPhaseReads(simulation.config(), simulation.geometry());
  if (!gui::BeginTable("##phases", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("phase");
  ImGui::TableSetupColumn("global reads", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("shared w / r");
  ImGui::TableSetupColumn("hazards");
  gui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(phases.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const sim::PhaseCounters& phase = phases[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      gui::Text("%d", i + 1);
      ImGui::TableNextColumn();
      PhaseBar(phase, full, ImGui::GetContentRegionAvail().x);
      ImGui::TableNextColumn();
      gui::Text("%llu / %llu", static_cast<unsigned long long>(phase.shared_writes),
                static_cast<unsigned long long>(phase.shared_reads));
      ImGui::TableNextColumn();
      if (phase.hazards > 0) {
        gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kVermillion), "%s %llu", palette::kGlyphWarning,
                         static_cast<unsigned long long>(phase.hazards));
      } else {
        gui::TextUnformatted("0");
      }
    }
  }
  gui::EndTable();
}

}  // namespace gui
