#include "app/panels/kernel_counters_view.h"

#include <imgui.h>

#include <string>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

using Field = std::uint64_t sim::Counters::*;

struct Figure {
  const char* name;
  const char* key;  // in --dump-state
  Field field;
  const char* tooltip;
};

constexpr Figure kFigures[] = {
    {"Global reads of A", "global_reads_a", &sim::Counters::global_reads_a, "Elements of A your kernel loaded from global memory"},
    {"Global reads of B", "global_reads_b", &sim::Counters::global_reads_b, "Elements of B your kernel loaded from global memory"},
    {"Stores of C", "global_writes", &sim::Counters::global_writes, "Stores to C that landed"},
    {"Shared reads", "shared_reads", &sim::Counters::shared_reads, "Loads from your __shared__ arrays"},
    {"Shared writes", "shared_writes", &sim::Counters::shared_writes, "Stores to your __shared__ arrays"},
    {"Barrier arrivals", "barrier_arrivals", &sim::Counters::barrier_arrivals, "Threads arriving at __syncthreads() or __syncwarp()"},
    {"Global sectors", "global_sectors", &sim::Counters::global_sectors, "32-byte sectors the warps' global accesses touched"},
    {"Bank conflicts", "bank_conflicts", &sim::Counters::bank_conflicts, "Extra shared-memory passes: lanes of a warp on one bank"},
    {"Out of bounds", "out_of_bounds", &sim::Counters::out_of_bounds, "Accesses outside their array (reads gave 0, stores dropped)"},
};

std::string Whole(const sim::Timeline* whole, Field field) { return whole ? std::to_string(whole->counters.*field) : "\u2026"; }

}  // namespace

void KernelCountersView::DrawComparison(const sim::Simulation& simulation,
                                        const std::optional<sim::ComparisonCount>& textbook) {
  const sim::Timeline* whole = simulation.KnownTimeline();
  const int tile = textbook ? textbook->kernel.tile : 0;
  if (!textbook || !whole) {
    gui::TextWrapped("Counting your whole run and the textbook tiled kernel's on the model\u2026");
    return;
  }
  if (!textbook->global_reads) {
    gui::TextWrapped("The textbook tiled kernel could not run here: %s", textbook->error.c_str());
    return;
  }
  const std::uint64_t yours = whole->counters.GlobalReads();
  const std::uint64_t theirs = *textbook->global_reads;
  gui::TextWrapped("Global reads: yours %llu, the textbook tiled kernel's (TILE %d) %llu", static_cast<unsigned long long>(yours),
                   tile, static_cast<unsigned long long>(theirs));
  if (yours == 0 || theirs == 0) return;
  const double ratio = double(yours) / double(theirs);
  const bool more = yours > theirs;
  gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(more ? palette::kOrange : palette::kBluishGreen),
                          more ? "yours reads %.2f\u00D7 as many elements from global memory"
                               : "yours reads %.2f\u00D7 as many: no more than the textbook's",
                          ratio);
}

void KernelCountersView::Draw(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& textbook) {
  DrawComparison(simulation, textbook);
  // The figures as wide as they are, the names the rest: beside Hazards the panel is narrow.
  if (!gui::BeginTable("##your_counters", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("Counted", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("So\nfar");
  ImGui::TableSetupColumn("Whole\nrun");
  ImGui::TableHeadersRow();
  const sim::Timeline* whole = simulation.KnownTimeline();
  for (const Figure& f : kFigures) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::TextUnformatted(f.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.tooltip);
    ImGui::TableNextColumn();
    gui::Text("%llu", static_cast<unsigned long long>(simulation.counters().*f.field));
    ImGui::TableNextColumn();
    gui::TextUnformatted(Whole(whole, f.field).c_str());
  }
  gui::EndTable();
}

nlohmann::json KernelCountersView::Figures(const sim::Simulation& simulation,
                                           const std::optional<sim::ComparisonCount>& textbook) {
  const sim::Timeline* whole = simulation.KnownTimeline();
  nlohmann::json out{{"global_reads", simulation.counters().GlobalReads()},
                     {"whole_run_global_reads", whole ? nlohmann::json(whole->counters.GlobalReads()) : nlohmann::json(nullptr)},
                     {"comparison_kernel", textbook ? nlohmann::json(sim::Name(textbook->kernel.kernel)) : nlohmann::json(nullptr)},
                     {"comparison_tile", textbook ? nlohmann::json(textbook->kernel.tile) : nlohmann::json(nullptr)},
                     {"comparison_global_reads_counted",
                      textbook && textbook->global_reads ? nlohmann::json(*textbook->global_reads) : nlohmann::json(nullptr)}};
  for (const Figure& f : kFigures) out[f.key] = simulation.counters().*f.field;
  return out;
}

}  // namespace gui
