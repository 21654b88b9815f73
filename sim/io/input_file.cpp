#include "sim/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sim {
namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;

// Closes the descriptor on every way out of ReadInputFile.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string Reason(int error) {
  switch (error) {
    case ENOENT: return "no such file";
    case ENOTDIR: return "no such file (a part of the path is not a folder)";
    case EACCES: return "permission denied";
    case EISDIR: return "it is a folder, not a file";
    case EAGAIN: return "it is a device with nothing to read";
    default: return std::strerror(error);
  }
}

InputFile Refused(const std::string& path, const std::string& what) { return {"", path + ": " + what}; }

std::string TooLarge(std::uint64_t max_bytes) {
  return "larger than the limit of " + DescribeBytes(max_bytes) + " for this kind of file";
}

}  // namespace

std::string DescribeBytes(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

InputFile ReadInputFile(const std::string& path, std::uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO would wait for a writer (the GUI's window thread with it), and
  // reading a terminal for a line; this way neither blocks, and the FIFO is refused below.
  const Descriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return Refused(path, "cannot open: " + Reason(errno));
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) return Refused(path, "cannot read: " + Reason(errno));
  if (S_ISDIR(info.st_mode)) return Refused(path, "cannot read: " + Reason(EISDIR));
  if (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode)) {
    return Refused(path, "cannot read: it is a pipe or socket, not a file (write it to a file first)");
  }
  // A regular file's size is known up front: refuse before reading a byte. Devices and
  // pipes (/dev/zero, a FIFO) report no size, so the read loop below enforces the limit.
  if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    return Refused(path, "cannot read: " + std::to_string(info.st_size) + " bytes, " + TooLarge(max_bytes));
  }
  InputFile file;
  char chunk[kChunkBytes];
  for (;;) {
    const ssize_t got = read(fd.get(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Refused(path, "cannot read: " + Reason(errno));
    if (got == 0) break;
    if (file.bytes.size() + static_cast<std::size_t>(got) > max_bytes) {
      return Refused(path, "cannot read: " + TooLarge(max_bytes));
    }
    file.bytes.append(chunk, static_cast<std::size_t>(got));
  }
  return file;
}

bool NamesAFile(const std::string& name) {
  struct stat info {};
  return stat(name.c_str(), &info) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

}  // namespace sim
