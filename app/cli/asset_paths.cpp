#include "app/cli/asset_paths.h"

#include <filesystem>
#include <system_error>

#include "app/version.h"
#include "kernels/device.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

// A folder is the assets folder when it holds the lessons: the one kind every copy has.
constexpr const char* kMarkerFolder = "lessons";

}  // namespace

std::string AssetFolder::Describe() const {
  if (!path.empty()) return path;
  std::string looked;
  for (const std::string& candidate : candidates) looked += (looked.empty() ? "" : ", ") + candidate;
  return "not found (looked in " + looked + ")";
}

AssetFolder FindAssetFolder() {
  AssetFolder folder;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    folder.candidates.push_back("/proc/self/exe: " + ec.message());
    return folder;
  }
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate : {dir.parent_path() / "share" / "tilescope", dir / "assets"}) {
    folder.candidates.push_back(candidate.string());
    if (fs::is_directory(candidate / kMarkerFolder, ec)) {
      folder.path = fs::canonical(candidate, ec).string();
      return folder;
    }
  }
  return folder;
}

std::string VersionReport() {
  const std::string module = kernels::DefaultGpuModulePath();
  std::error_code ec;
  const bool module_present = fs::exists(module, ec);
  return std::string("tilescope ") + app::kVersion + "\nassets: " + FindAssetFolder().Describe() +
         "\nGPU module: " + module + (module_present ? "" : " (absent: built without CUDA)");
}

}  // namespace cli
