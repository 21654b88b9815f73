// imgui_layout_check.h — whether a saved window layout (ImGui's ini text, kept in the settings
// file) is safe to hand to ImGui: its reader trusts what it is given.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace gui {

// ImGui saves a few KiB of layout; the bound keeps a hand-made one from costing the start-up.
constexpr std::size_t kMaxImGuiLayoutBytes = 1u << 20;

// Whether ImGui 1.86 may be handed `layout` (its ini text): what is wrong, else nullopt. ImGui's
// reader trusts its input: "[Table][0x12345678,2000000000]" makes it allocate columns until it
// crashes. So a layout must be ImGui's own kind: "[Window]" and "[Table]" sections only, a
// table of 0 to 64 columns (IMGUI_TABLE_MAX_COLUMNS), each "Column N" line's N, Order and Sort
// within the table, and at most kMaxImGuiLayoutBytes.
std::optional<std::string> CheckImGuiLayout(const std::string& layout);

}  // namespace gui
