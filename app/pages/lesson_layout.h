// lesson_layout.h — where the lesson page's panels go: a slot each, normal and presentation.
#pragma once
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

}  // namespace gui
