// asset_paths.h — where the shipped assets (assets/lessons/*.json and what joins them) are
// on this machine, found from the binary's own path so a relocated install works too.
//
// Installed: <prefix>/share/tilescope beside <prefix>/bin/tilescope (packaging/Install.cmake).
// Build tree: <build>/assets, a link to the source's assets/ made when CMake configures.
// --version and the About box say which folder was used, so an administrator can tell an
// installed copy from a build tree at a glance.
#pragma once
#include <string>
#include <vector>

namespace cli {

struct AssetFolder {
  std::string path;                     // canonical; empty when no candidate holds lessons/
  std::vector<std::string> candidates;  // where it looked, in order

  // The path, or "not found (looked in A, B)".
  std::string Describe() const;
};

AssetFolder FindAssetFolder();

// What --version prints: "tilescope X.Y.Z", the assets folder, the GPU module's path.
std::string VersionReport();

}  // namespace cli
