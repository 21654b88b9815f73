// lesson_layout.h — where the lesson page's panels go: a slot each, normal and presentation.
#pragma once
#include "app/gui/panel_window.h"

namespace gui {

// The lesson page. Normal: three columns over a bottom strip —
//   Controls / Counters | Matrices over Shared tiles + Threads | Kernel source over Hazards + Race lab
//   Narration | Timeline (the strip).
// Presentation (30-pixel text): what a class reads from afar gets the upper 58% — Controls,
// Matrices, Kernel source — and the rest share a middle row, narration and timeline below.
inline constexpr float kStripTop = 0.84f;  // Both views: where the bottom strip starts.
inline constexpr float kLeftColumn = 0.25f;
inline constexpr float kSourceColumn = 0.62f;
inline constexpr float kUpperRow = 0.5f;          // Normal view.
inline constexpr float kPresentationRow = 0.58f;  // Presentation: where the middle row starts.
inline constexpr float kMiddleHeight = kStripTop - kPresentationRow;

inline constexpr PanelSlot kControlsSlot{{0.0f, 0.0f, kLeftColumn, 0.36f}, {0.0f, 0.0f, kLeftColumn, kPresentationRow}};
inline constexpr PanelSlot kCountersSlot{{0.0f, 0.36f, kLeftColumn, kStripTop - 0.36f},
                                         {0.3f, kPresentationRow, 0.3f, kMiddleHeight}};
inline constexpr PanelSlot kMatricesSlot{{kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kUpperRow},
                                         {kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kPresentationRow}};
inline constexpr PanelSlot kSharedTilesSlot{{kLeftColumn, kUpperRow, 0.185f, kStripTop - kUpperRow},
                                            {0.0f, kPresentationRow, 0.3f, kMiddleHeight}};
inline constexpr PanelSlot kThreadsSlot{{kLeftColumn + 0.185f, kUpperRow, kSourceColumn - kLeftColumn - 0.185f,
                                         kStripTop - kUpperRow},
                                        {0.6f, kPresentationRow, 0.2f, kMiddleHeight}};
inline constexpr PanelSlot kKernelSourceSlot{{kSourceColumn, 0.0f, 1.0f - kSourceColumn, kUpperRow},
                                             {kSourceColumn, 0.0f, 1.0f - kSourceColumn, kPresentationRow}};
inline constexpr PanelSlot kHazardsSlot{{kSourceColumn, kUpperRow, (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.8f, kPresentationRow, 0.2f, kMiddleHeight / 2.0f}};
inline constexpr PanelSlot kRaceLabSlot{{kSourceColumn + (1.0f - kSourceColumn) / 2.0f, kUpperRow,
                                         (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.8f, kPresentationRow + kMiddleHeight / 2.0f, 0.2f, kMiddleHeight / 2.0f}};
inline constexpr PanelSlot kNarrationSlot{{0.0f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.0f, kStripTop, 0.6f, 1.0f - kStripTop}};
inline constexpr PanelSlot kTimelineSlot{{0.5f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.6f, kStripTop, 0.4f, 1.0f - kStripTop}};

}  // namespace gui
