// Settings files as a crash, a hand edit or another version may leave them: any bytes give
// settings (the valid keys) and a list of problems, never a crash or an exception; what was
// kept saves to a file that reads back with no problem and saves the same again. The layout
// kept is handed to ImGui's own ini reader, as the app does at start-up (a context needs no
// window): what gui::CheckImGuiLayout lets through must not crash it or eat memory.
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/settings_store.h"
#include "fuzz_check.h"
#include "sim/io/json_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const sim::JsonDocument document = sim::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size));
  if (!document.ok()) return 0;  // SettingsStore::Load then uses the defaults and moves the file aside
  std::vector<std::string> problems;
  const gui::Settings kept = gui::SettingsFromJson(document.value, problems);
  const std::string saved = gui::ToJson(kept).dump(2);
  const sim::JsonDocument reread = sim::ParseJsonText(saved);
  FUZZ_CHECK(reread.ok(), "saved settings are valid JSON within the depth limit");
  std::vector<std::string> reread_problems;
  const gui::Settings again = gui::SettingsFromJson(reread.value, reread_problems);
  FUZZ_CHECK(reread_problems.empty(), "saved settings read back with no problem");
  FUZZ_CHECK(gui::ToJson(again).dump(2) == saved, "saving the reread settings gives the same file");
  if (!kept.imgui_layout.empty()) {
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::LoadIniSettingsFromMemory(kept.imgui_layout.c_str(), kept.imgui_layout.size());
    ImGui::SaveIniSettingsToMemory();
    ImGui::DestroyContext(context);
  }
  return 0;
}
