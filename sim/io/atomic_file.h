// atomic_file.h — the one way TileScope writes a user's file (a lesson, results, a trace,
// an export, settings, a screenshot): all of the new file or all of the old one, never a
// mix, whatever stops the writer (a crash, a kill, a full disk, a file-size limit).
//
// The bytes go to a temporary file with a unique name in the same folder (so the rename
// cannot cross file systems), are flushed to the disk (fsync), and only then renamed over
// the target, after which the folder itself is flushed so the rename survives a power cut.
// A writer that fails removes its temporary file. A writer that is killed cannot: its
// temporary file stays, hidden (".NAME.<pid>.XXXXXX.tmp"), and the target is untouched;
// the next write of the same target removes it once that process is gone. A target that is a
// device or a pipe (/dev/null, /dev/stdout, a FIFO) is written in place.
#pragma once
#include <optional>
#include <string>

namespace sim {

// Streaming form, for writers that produce their bytes in pieces (a PNG encoder's
// callback, a large export). Nothing is visible at `path` until Commit() succeeds;
// destroying it uncommitted removes the temporary file.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // creates the temporary file; see error()
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // False once anything has failed; the first failure is kept in error().
  bool Write(const void* data, std::size_t size);
  bool Write(const std::string& text) { return Write(text.data(), text.size()); }
  // fsync, rename over the target, fsync the folder. False (with error()) on failure.
  bool Commit();
  // "cannot write PATH: <reason>", empty while all is well.
  const std::string& error() const { return error_; }
  // The temporary file's path, empty once committed or removed.
  const std::string& temporary_path() const { return temporary_; }

 private:
  bool Fail(const std::string& what, int error_number);
  void Discard();

  std::string path_;
  std::string temporary_;
  int fd_ = -1;
  bool in_place_ = false;  // a device or pipe: written directly, nothing to rename
  std::string error_;
};

// The whole file at once: nothing on success, otherwise "cannot write PATH: <reason>".
std::optional<std::string> WriteFileAtomically(const std::string& path, const std::string& contents);

}  // namespace sim
