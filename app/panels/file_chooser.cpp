#include "app/panels/file_chooser.h"

#include <imgui.h>

#include <string>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/live_text.h"

namespace panels {
namespace {

constexpr float kListLines = 8.0f;  // The list's height in lines: a screenful under the form.

std::string Inside(const std::string& folder, const std::string& name) {
  return folder.empty() || folder.back() == '/' ? folder + name : folder + "/" + name;
}

std::string Parent(const std::string& folder) {
  const std::size_t slash = folder.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? std::string("/") : folder.substr(0, slash);
}

void DrawEntries(const gui::FrameContext& frame, const sim::FolderListing& listing, const FileChooserActions& actions) {
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(listing.entries.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const sim::FolderEntry& entry = listing.entries[static_cast<std::size_t>(i)];
      const std::string shown = entry.is_folder ? entry.name + "/" : entry.name;
      ImGui::PushID(i);
      // A folder is listed, a file opened, at the click.
      if (gui::Selectable(shown.c_str(), false)) {
        frame.actions.Push(entry.is_folder ? actions.browse : actions.open, Inside(listing.folder, entry.name));
      }
      ImGui::PopID();
    }
  }
}

}  // namespace

void DrawFileChooser(const gui::FrameContext& frame, const sim::FolderListing& listing, const FileChooserActions& actions) {
  if (gui::SmallButton("Up")) frame.actions.Push(actions.browse, Parent(listing.folder));
  ImGui::SameLine();
  if (gui::SmallButton("Close")) frame.actions.Push(actions.browse, "none");
  ImGui::SameLine();
  gui::TextWrapped("Saved results (JSON, CSV) in %s", listing.folder.c_str());
  MessageText(listing.error, true);
  const float height = ImGui::GetTextLineHeightWithSpacing() * kListLines;
  gui::BeginChild("##chooser", ImVec2(0.0f, height), true);
  if (listing.entries.empty() && listing.error.empty()) gui::TextDisabled("no results files or folders here");
  DrawEntries(frame, listing, actions);
  if (listing.cut) {
    gui::TextDisabled("more than %zu entries: only the first are listed", sim::kMaxListedEntries);
  }
  gui::EndChild();
}

}  // namespace panels
