// lesson_layout.h — where the lesson page's panels go: a slot each, normal and presentation.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/panel_window.h"

namespace gui {

// Normal: three columns over a bottom strip —
//   Controls / Counters / Occupancy | Matrices over Shared tiles + Threads | Kernel source over Hazards + Race lab
//   Narration | Timeline (the strip).
inline constexpr float kStripTop = 0.84f;  // where the bottom strip starts
inline constexpr float kLeftColumn = 0.25f;
inline constexpr float kSourceColumn = 0.62f;
inline constexpr float kUpperRow = 0.5f;

// Presentation (30-pixel text, a laptop at 1366×768 on a projector): only what the room reads —
// Matrices on the left, Kernel source over Shared tiles on the right, the narration across the
// bottom. The other panels fold away; keys step the lesson, the View menu brings any back.
inline constexpr float kShowColumn = 0.36f;    // Matrices | source and tiles
inline constexpr float kShowSourceRow = 0.48f;  // Kernel source over Shared tiles
inline constexpr float kShowStrip = 0.78f;      // the narration below: three lines

inline constexpr PanelSlot kControlsSlot{{0.0f, 0.0f, kLeftColumn, 0.36f}};
inline constexpr float kOccupancyTop = 0.60f;  // Counters over Occupancy in the left column
inline constexpr PanelSlot kCountersSlot{{0.0f, 0.36f, kLeftColumn, kOccupancyTop - 0.36f}};
inline constexpr PanelSlot kOccupancySlot{{0.0f, kOccupancyTop, kLeftColumn, kStripTop - kOccupancyTop}};
inline constexpr PanelSlot kMatricesSlot{{kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kUpperRow},
                                         {0.0f, 0.0f, kShowColumn, kShowStrip}};
inline constexpr PanelSlot kSharedTilesSlot{{kLeftColumn, kUpperRow, 0.185f, kStripTop - kUpperRow},
                                            {kShowColumn, kShowSourceRow, 1.0f - kShowColumn, kShowStrip - kShowSourceRow}};
inline constexpr PanelSlot kThreadsSlot{
    {kLeftColumn + 0.185f, kUpperRow, kSourceColumn - kLeftColumn - 0.185f, kStripTop - kUpperRow}};
inline constexpr PanelSlot kKernelSourceSlot{{kSourceColumn, 0.0f, 1.0f - kSourceColumn, kUpperRow},
                                             {kShowColumn, 0.0f, 1.0f - kShowColumn, kShowSourceRow}};
inline constexpr PanelSlot kHazardsSlot{{kSourceColumn, kUpperRow, (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow}};
inline constexpr PanelSlot kRaceLabSlot{{kSourceColumn + (1.0f - kSourceColumn) / 2.0f, kUpperRow,
                                         (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow}};
inline constexpr PanelSlot kNarrationSlot{{0.0f, kStripTop, 0.5f, 1.0f - kStripTop},
                                          {0.0f, kShowStrip, 1.0f, 1.0f - kShowStrip}};
inline constexpr PanelSlot kTimelineSlot{{0.5f, kStripTop, 0.5f, 1.0f - kStripTop}};

// A student's kernel in presentation: their code is what the room reads, so Kernel source takes
// the left half, Hazards (their mistakes at their lines, C's wrong count) over Shared tiles the
// right, the narration the bottom. The Matrices fold away.
// In the normal view the left column is theirs: Controls (their kernel and scheduler pickers) over
// the Guide (the exercise's six milestones, each with why), both whole at 1366×768 without
// scrolling. Occupancy and the Race lab are the built-in kernel's and close; Counters takes the
// Race lab's place beside Hazards.
inline constexpr float kShowYourSourceColumn = 0.56f;
inline constexpr float kShowYourHazardsRow = 0.40f;
inline constexpr float kYourGuideTop = 0.40f;
inline constexpr PanelSlot kYourSourceSlot{kKernelSourceSlot.For(false), {0.0f, 0.0f, kShowYourSourceColumn, kShowStrip}};
// Hazards' sentences wrap; Counters' table of figures needs the wider share beside it.
inline constexpr float kYourHazardsWidth = (1.0f - kSourceColumn) * 0.45f;
inline constexpr PanelSlot kYourHazardsSlot{{kSourceColumn, kUpperRow, kYourHazardsWidth, kStripTop - kUpperRow},
                                            {kShowYourSourceColumn, 0.0f, 1.0f - kShowYourSourceColumn, kShowYourHazardsRow}};
inline constexpr PanelSlot kYourSharedTilesSlot{
    kSharedTilesSlot.For(false),
    {kShowYourSourceColumn, kShowYourHazardsRow, 1.0f - kShowYourSourceColumn, kShowStrip - kShowYourHazardsRow}};
inline constexpr PanelSlot kYourMatricesSlot{kMatricesSlot.For(false)};
inline constexpr PanelSlot kYourControlsSlot{{0.0f, 0.0f, kLeftColumn, kYourGuideTop}};
inline constexpr PanelSlot kYourGuideSlot{{0.0f, kYourGuideTop, kLeftColumn, kStripTop - kYourGuideTop}};
inline constexpr PanelSlot kYourCountersSlot{
    {kSourceColumn + kYourHazardsWidth, kUpperRow, 1.0f - kSourceColumn - kYourHazardsWidth, kStripTop - kUpperRow}};
inline constexpr PanelSlot kYourOccupancySlot{kOccupancySlot.For(false)};
inline constexpr PanelSlot kYourRaceLabSlot{kRaceLabSlot.For(false)};  // closed: Counters is there

// The slot a panel takes while a student's kernel is on show, or null where it keeps its own.
inline const PanelSlot* YourKernelSlot(const std::string& key) {
  if (key == "kernel_source") return &kYourSourceSlot;
  if (key == "hazards") return &kYourHazardsSlot;
  if (key == "shared_tiles") return &kYourSharedTilesSlot;
  if (key == "matrices") return &kYourMatricesSlot;
  if (key == "controls") return &kYourControlsSlot;
  if (key == "guide") return &kYourGuideSlot;
  if (key == "counters") return &kYourCountersSlot;
  if (key == "occupancy") return &kYourOccupancySlot;
  if (key == "race_lab") return &kYourRaceLabSlot;
  return nullptr;
}

// Whether a panel is open while a student's kernel is on show: the Guide opens, the built-in
// kernel's Occupancy and Race lab close; null for a panel that stays as it was.
inline std::optional<bool> OpenForYourKernel(const std::string& key) {
  if (key == "guide") return true;
  if (key == "occupancy" || key == "race_lab") return false;
  return std::nullopt;
}

// A tour's stop shows only its own panels: the Guide as a column on the left, the stop's
// panels tiling the rest in the order the stop names them — one fills it, two side by side,
// three as one tall on the left and two stacked, more in two rows. The same shape serves both
// modes; presentation's larger text gets a wider guide column.
inline constexpr float kGuideColumn = 0.25f;
inline constexpr float kShowGuideColumn = 0.34f;
inline constexpr PanelSlot kGuideSlot{{0.0f, 0.0f, kGuideColumn, 1.0f}, {0.0f, 0.0f, kShowGuideColumn, 1.0f}};

// How much width a panel wants beside others on a stop: the counters' table and the source's
// lines need more than the 4×4 matrices, whose cells are large long before they are wide. In
// presentation the counters show their few key figures, and the source's wrapped lines want
// the room.
// `tall`: the panel has the whole height (the first of three), where the matrices need less
// width for the same cells. `matrices_across`: MatricesPanel::CharactersAcross of the lesson
// (0: not known, or heat maps).
inline constexpr int kCharactersAcrossOf4x4 = 4 * 2 + 4 * 3;  // A's two digits beside C's three
// What each panel beside the matrices keeps, however wide their numbers: the Counters' key figures
// and their last line, whole, in presentation at 1366×768 (0.26 cut that line).
inline constexpr float kMinBesideMatrices = 0.3f;
inline float StopWeight(const std::string& key, bool presentation, bool tall = false, int matrices_across = 0) {
  if (key == "counters") return presentation ? 1.25f : 1.6f;
  if (key == "kernel_source") return presentation ? 1.6f : 1.3f;
  if (key == "occupancy" || key == "race_lab") return 1.3f;
  // On a room's stop, a 4×4 lesson's C reads from the back at 20-pixel digits (1366×768) only
  // with this much; wider numbers or more columns (6×5×7 and its C of four digits) want more.
  if (key == "matrices") {
    if (!presentation) return 1.0f;
    const float wider = std::max(1.0f, static_cast<float>(matrices_across) / kCharactersAcrossOf4x4);
    return (tall ? 1.35f : 1.8f) * wider;
  }
  return 1.0f;
}

// `keys` in the order shown, the matrices (if any) first; widths in a row follow StopWeight.
inline std::vector<PanelRect> StopRects(const std::vector<std::string>& keys, float left, bool presentation,
                                        int matrices_across = 0) {
  const auto weight = [&](const std::string& key) { return StopWeight(key, presentation, false, matrices_across); };
  const float width = 1.0f - left;
  std::vector<PanelRect> rects;
  const auto row = [&](std::size_t first, std::size_t last, float x, float w, float y, float h) {
    if (first == last) return;
    float total = 0.0f;
    for (std::size_t i = first; i < last; ++i) total += weight(keys[i]);
    // The matrices' widening stops where the others would fall below kMinBesideMatrices each.
    const float others = static_cast<float>(last - first - 1);
    const float base = StopWeight(keys[first], presentation);
    const float unwidened = w * base / (total - weight(keys[first]) + base);
    const float most = keys[first] == "matrices" ? std::max(unwidened, w - others * kMinBesideMatrices) : w;
    const float first_share = std::min(w * weight(keys[first]) / total, most);
    for (std::size_t i = first; i < last; ++i) {
      const float share = i == first ? first_share : (w - first_share) * weight(keys[i]) / (total - weight(keys[first]));
      rects.push_back({x, y, share, h});
      x += share;
    }
  };
  const std::size_t count = keys.size();
  if (count <= 2) {
    row(0, count, left, width, 0.0f, 1.0f);
  } else if (count == 3) {
    const float right = std::max(weight(keys[1]), weight(keys[2]));
    const float first = StopWeight(keys[0], presentation, true, matrices_across);
    const float base = StopWeight(keys[0], presentation, true);
    const float most = keys[0] == "matrices" ? std::max(width * base / (base + right), width - kMinBesideMatrices) : width;
    const float tall = std::min(width * first / (first + right), most);
    rects.push_back({left, 0.0f, tall, 1.0f});
    rects.push_back({left + tall, 0.0f, width - tall, 0.5f});
    rects.push_back({left + tall, 0.5f, width - tall, 0.5f});
  } else {
    const std::size_t top = (count + 1) / 2;
    row(0, top, left, width, 0.0f, 0.5f);
    row(top, count, left, width, 0.5f, 0.5f);
  }
  return rects;
}

}  // namespace gui
