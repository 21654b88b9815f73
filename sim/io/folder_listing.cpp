#include "sim/io/folder_listing.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace sim {
namespace {

bool EndsWithAny(const std::string& name, const std::vector<std::string>& extensions) {
  return std::any_of(extensions.begin(), extensions.end(), [&](const std::string& extension) {
    return name.size() > extension.size() && name.compare(name.size() - extension.size(), extension.size(), extension) == 0;
  });
}

}  // namespace

FolderListing ListFolder(const std::string& folder, const std::vector<std::string>& extensions) {
  namespace fs = std::filesystem;
  FolderListing listing;
  std::error_code ec;
  const fs::path absolute = fs::absolute(folder.empty() ? fs::path(".") : fs::path(folder), ec).lexically_normal();
  listing.folder = ec ? folder : absolute.string();
  if (ec || !fs::is_directory(absolute, ec)) {
    listing.error = "'" + folder + "' is not a folder that can be opened" + (ec ? " (" + ec.message() + ")" : "");
    return listing;
  }
  fs::directory_iterator it(absolute, ec);
  if (ec) {
    listing.error = "'" + listing.folder + "' cannot be listed (" + ec.message() + ")";
    return listing;
  }
  std::size_t seen = 0;
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (++seen > kMaxListedEntries) {
      listing.cut = true;
      break;
    }
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code type_error;
    const bool is_folder = it->is_directory(type_error);
    if (type_error) continue;
    // A FIFO or a device named .json is no results file: only regular files are offered.
    if (is_folder || (EndsWithAny(name, extensions) && it->is_regular_file(type_error) && !type_error)) {
      listing.entries.push_back({name, is_folder});
    }
  }
  if (ec) listing.error = "'" + listing.folder + "' could not be read to its end (" + ec.message() + ")";
  std::sort(listing.entries.begin(), listing.entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
    return a.is_folder != b.is_folder ? a.is_folder : a.name < b.name;
  });
  return listing;
}

}  // namespace sim
