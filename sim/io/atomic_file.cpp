#include "sim/io/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

namespace sim {
namespace {

constexpr const char* kTemporarySuffix = ".tmp";
constexpr mode_t kDefaultUmask = 022;

// A symlinked target (settings kept in a dotfiles folder) is written where the link points,
// so the link survives; any other path is used as given.
std::string ResolveTarget(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

std::string FolderOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The process's umask without changing it: umask() can only be read by setting it, which
// would race with other threads creating files. Linux reports it in /proc/self/status.
mode_t CurrentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return kDefaultUmask;
}

// ".NAME.<pid>.": what every temporary file for NAME starts with; the writer's process id
// tells a killed writer's leftover from a live writer's file.
std::string TemporaryPrefix(const std::string& name) { return "." + name + "."; }

// Removes the temporary files of writers of the same target that were killed before they
// could clean up (their process is gone), so crashes do not pile up hidden files.
void RemoveLeftovers(const std::string& folder, const std::string& name) {
  DIR* listing = opendir(folder.c_str());
  if (listing == nullptr) return;
  const std::string prefix = TemporaryPrefix(name);
  while (const dirent* entry = readdir(listing)) {
    const std::string file = entry->d_name;
    if (file.rfind(prefix, 0) != 0 || file.size() < prefix.size() + std::strlen(kTemporarySuffix) ||
        file.compare(file.size() - std::strlen(kTemporarySuffix), std::string::npos, kTemporarySuffix) != 0) {
      continue;
    }
    char* end = nullptr;
    const long pid = std::strtol(file.c_str() + prefix.size(), &end, 10);
    if (pid <= 0 || *end != '.') continue;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) unlink((folder + "/" + file).c_str());
  }
  closedir(listing);
}

// mkstemp makes the file 0600; the new file should look like one the user saved normally:
// the old file's mode when replacing one, otherwise what open(0666) would have given.
mode_t ModeFor(const std::string& target) {
  struct stat info {};
  if (stat(target.c_str(), &info) == 0) return info.st_mode & 07777;
  return 0666 & ~CurrentUmask();
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(ResolveTarget(path)) {
  const std::string folder = FolderOf(path_);
  const std::string name = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
  // A folder is named as one before anything is tried in its parent: otherwise a parent the
  // user may not write to would be the message ("cannot create a temporary file in ..."), not
  // that the path names a folder.
  struct stat target {};
  const bool exists = stat(path_.c_str(), &target) == 0;
  if (name.empty() || (exists && S_ISDIR(target.st_mode))) {
    Fail("it is a folder, not a file", 0);
    return;
  }
  // A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written where it is: renaming a
  // temporary file over it would replace the device node with a plain file (as root, over
  // /dev/null itself), and there is no old content to keep.
  if (exists && !S_ISREG(target.st_mode)) {
    fd_ = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) Fail("cannot open it", errno);
    in_place_ = true;
    return;
  }
  RemoveLeftovers(folder, name);
  std::string pattern = folder + "/" + TemporaryPrefix(name) + std::to_string(getpid()) + ".XXXXXX" + kTemporarySuffix;
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  fd_ = mkostemps(buffer.data(), static_cast<int>(std::strlen(kTemporarySuffix)), O_CLOEXEC);
  if (fd_ < 0) {
    Fail("cannot create a temporary file in " + folder, errno);
    return;
  }
  temporary_ = buffer.data();
  if (fchmod(fd_, ModeFor(path_)) != 0) Fail("cannot set the temporary file's mode", errno);
}

AtomicFile::~AtomicFile() { Discard(); }

bool AtomicFile::Fail(const std::string& what, int error_number) {
  if (error_.empty()) {
    error_ = "cannot write " + path_ + ": " + what +
             (error_number != 0 ? std::string(": ") + std::strerror(error_number) : "");
  }
  Discard();
  return false;
}

void AtomicFile::Discard() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) unlink(temporary_.c_str());
  temporary_.clear();
}

bool AtomicFile::Write(const void* data, std::size_t size) {
  if (!error_.empty()) return false;
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = write(fd_, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    // A full disk (ENOSPC) or a file-size limit (EFBIG, when SIGXFSZ is ignored) end here.
    if (written < 0) return Fail("writing failed", errno);
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool AtomicFile::Commit() {
  if (!error_.empty()) return false;
  if (in_place_) {
    const int fd = fd_;
    fd_ = -1;
    return close(fd) == 0 || Fail("closing failed", errno);
  }
  // The data must be on the disk before the rename makes it the file: otherwise a power cut
  // after the rename can leave the new name pointing at an empty file.
  if (fsync(fd_) != 0) return Fail("flushing to the disk failed", errno);
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) return Fail("closing failed", errno);
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) return Fail("cannot replace it", errno);
  temporary_.clear();
  // The rename lives in the folder: flush it too. The file is already complete in place, so
  // a folder that cannot be flushed (some file systems refuse fsync on folders) is no error.
  const int folder = open(FolderOf(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    fsync(folder);
    close(folder);
  }
  return true;
}

std::optional<std::string> WriteFileAtomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  if (file.Write(contents) && file.Commit()) return std::nullopt;
  return file.error();
}

}  // namespace sim
