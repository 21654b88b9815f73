// input_file.h — the one way TileScope reads a file a user hands it (a lesson, test
// vectors, saved results, settings).
//
// A path can name anything: a directory, a device such as /dev/zero that never ends, a FIFO
// that never delivers, a file the user may not read, or a file far larger than any input
// we know. ReadInputFile refuses each by name with the reason, and never reads more than
// `max_bytes` (stated in the message), so a bad path costs a message, not the process. It
// never waits: a FIFO or a socket is refused without waiting for a writer, since the GUI
// reads on its window thread.
#pragma once
#include <cstdint>
#include <string>

namespace sim {

struct InputFile {
  std::string bytes;  // the whole file when error is empty
  std::string error;  // "PATH: <reason>" otherwise

  bool ok() const { return error.empty(); }
};

// Reads all of `path`, up to `max_bytes`. The error names the path and says why: missing,
// a directory, a pipe or socket, permission denied, a device with nothing to read now, or
// larger than the limit (given in the message, with the size when it is known).
InputFile ReadInputFile(const std::string& path, std::uint64_t max_bytes);

// Whether `name` is meant as a file (`--lesson NAME|FILE`): true when something is there, and
// also when the path cannot be checked for a reason other than its absence (a name too long,
// a symlink loop, a folder the user may not enter), so that ReadInputFile says why. Never
// throws, unlike std::filesystem::exists.
bool NamesAFile(const std::string& name);

// "64 MiB", "1 KiB", "100 bytes": a limit as messages state it.
std::string DescribeBytes(std::uint64_t bytes);

}  // namespace sim
