// file_chooser.h — a file dialog inside a panel: the folder's sub-folders and its files of
// the kinds asked for, as the page listed them (sim::ListFolder), in a scrolling list under
// the folder's path, with Up and Close. A click on a folder asks the page to list that one,
// a click on a file to open it, each through a named action, so a script browses and opens
// as a click does. It draws the listing it is given and changes nothing.
#pragma once
#include "app/gui/frame_context.h"
#include "sim/io/folder_listing.h"

namespace panels {

struct FileChooserActions {
  const char* browse;  // takes a folder to list; "none" closes the chooser
  const char* open;    // takes the file chosen
};

void DrawFileChooser(const gui::FrameContext& frame, const sim::FolderListing& listing, const FileChooserActions& actions);

}  // namespace panels
