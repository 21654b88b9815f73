#include "app/panels/counters_panel.h"

#include <imgui.h>

#include "app/panels/panel_layout.h"
#include "sim/formulas.h"

namespace gui {
namespace {

void Row(const char* name, unsigned long long counted, const char* expected, const char* tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::TableNextColumn();
  ImGui::Text("%llu", counted);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(expected);
}

std::string Number(std::uint64_t value) { return std::to_string(value); }

}  // namespace

nlohmann::json CountersPanel::Figures(const sim::Simulation& simulation) {
  const sim::Counters& c = simulation.counters();
  const sim::ClosedForms expected = sim::Expected(simulation.config());
  return {{"global_reads_a", c.global_reads_a},
          {"global_reads_b", c.global_reads_b},
          {"global_reads", c.GlobalReads()},
          {"expected_global_reads", expected.global_reads()},
          {"naive_global_reads", expected.naive_global_reads},
          {"minimum_global_reads", expected.minimum_global_reads},
          {"saving", expected.Saving()},
          {"shared_reads", c.shared_reads},
          {"shared_writes", c.shared_writes},
          {"barrier_arrivals", c.barrier_arrivals},
          {"barrier_stall_steps", c.barrier_stall_steps},
          {"global_sectors", c.global_sectors},
          {"bank_conflicts", c.bank_conflicts},
          {"hazards", c.hazards}};
}

void CountersPanel::Draw(const FrameContext& frame, const sim::Simulation& simulation) {
  if (!open) return;
  PlacePanel(frame, kCountersSlot);
  if (!ImGui::Begin("Counters", &open)) {
    ImGui::End();
    return;
  }
  const sim::Counters& c = simulation.counters();
  const sim::ClosedForms e = sim::Expected(simulation.config());
  const std::string reads = Number(e.global_reads()) + " (naive kernel: " + Number(e.naive_global_reads) +
                            ", minimum: " + Number(e.minimum_global_reads) + ")";
  if (ImGui::BeginTable("##counters", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("counted so far");
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn("whole run, closed form");
    ImGui::TableHeadersRow();
    Row("global reads of A", c.global_reads_a, Number(e.global_reads_a).c_str(), "ceil(N/TN)\u00B7M\u00B7K for the tiled kernel");
    Row("global reads of B", c.global_reads_b, Number(e.global_reads_b).c_str(), "ceil(M/TM)\u00B7K\u00B7N for the tiled kernel");
    Row("global reads", c.GlobalReads(), reads.c_str(), "naive: 2\u00B7M\u00B7N\u00B7K; minimum: every element of A and B once");
    Row("shared writes", c.shared_writes, Number(e.shared_writes).c_str(), "stores into As and Bs");
    Row("shared reads", c.shared_reads, Number(e.shared_reads).c_str(), "loads of As and Bs in the inner product");
    Row("barrier arrivals", c.barrier_arrivals, Number(e.barrier_arrivals).c_str(), "threads reaching an enabled barrier");
    Row("barrier stall steps", c.barrier_stall_steps, "depends on the scheduler", "steps threads spent waiting at a barrier");
    Row("32-byte sectors", c.global_sectors, "", "global memory sectors touched per warp-instruction");
    Row("bank conflicts", c.bank_conflicts, "", "extra shared-memory wavefronts per warp-instruction");
    ImGui::EndTable();
  }
  ImGui::Text("Tiling reads %.2f\u00D7 fewer values from global memory than the naive kernel.", e.Saving());
  ImGui::End();
}

}  // namespace gui
