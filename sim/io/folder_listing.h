// folder_listing.h — what a folder holds, for a file chooser: its sub-folders and the files
// whose names end in one of the extensions asked for, by name, hidden ones left out. Never
// throws (std::filesystem calls take an error code) and never follows more than
// kMaxListedEntries, so a folder of a million files cannot hold the window's thread.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace sim {

constexpr std::size_t kMaxListedEntries = 2000;

struct FolderEntry {
  std::string name;
  bool is_folder = false;
};

struct FolderListing {
  std::string folder;                // absolute, as listed
  std::vector<FolderEntry> entries;  // folders first, then files, each by name
  bool cut = false;                  // more entries than kMaxListedEntries: the rest are not listed
  std::string error;                 // why the folder could not be listed; "" when it was
};

FolderListing ListFolder(const std::string& folder, const std::vector<std::string>& extensions);

}  // namespace sim
