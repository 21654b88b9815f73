// worker_protocol.h — the frames the app and its GPU worker process exchange over a socket.
//
// A CUDA fault such as an illegal address is sticky: it poisons the process's context, and
// only the process's exit clears it. So kernels run in a worker process (gpu_worker.h), and
// the two sides speak this small binary protocol: a 12-byte header (magic, version, type,
// payload length), then the payload, a sequence of host-endian numbers and length-prefixed
// strings and arrays (both ends are the same build on the same machine). A header that is
// not ours, another version or a payload beyond kMaxPayloadBytes is garbage, never trusted.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernels::worker {

constexpr std::uint32_t kMagic = 0x57475354;  // "TSGW" in little-endian bytes
constexpr std::uint16_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 12;
// A and B of the largest test-vector case verify reads, with room to spare.
constexpr std::uint32_t kMaxPayloadBytes = 1u << 31;

enum class Type : std::uint16_t {
  // worker → app
  kHello = 1,  // the module loaded (or why not): Reply
  kReply = 2,  // the answer to the request in flight: Reply, then the request's body
  kFault = 3,  // a sticky CUDA error: message; the worker exits after sending it
  // app → worker
  kOpenSession = 10,  // m, n, k, seed, then A and B (empty: seeded random inputs)
  kRun = 11,          // kernel, warm-ups, reps, tolerance, want C
  kRaceTrial = 12,    // kernel, baseline
  kCancel = 13,       // stop before the next launch (only read while a run is in flight)
  kStudentRun = 14,   // a student's kernel: StudentLaunch (gpu_worker.h); replies C and times
  kL2Bandwidth = 15,  // measure the device's L2 bandwidth; replies GB/s
  kTestFault = 20,    // test hooks, refused unless the worker's environment enables them
  kTestHoldMemory = 21,
};

// How a request ended (the first field of every kReply).
enum class Outcome : std::uint8_t { kOk = 0, kCancelled = 1, kError = 2 };

// The environment variable that enables the test hooks in a worker; its value may name a
// kernel the worker then replaces by a test kernel: "fault:NAME" (a write far out of
// bounds) or "hang:NAME" (a launch that spins and ignores Cancel).
constexpr const char* kTestHooksVariable = "TILESCOPE_GPU_WORKER_TEST";

struct Frame {
  Type type{};
  std::string payload;
};

// Header + payload, ready to write.
std::string Encode(Type type, const std::string& payload);

// Decodes the frame at the start of `buffer` and removes it: a frame, nothing when more
// bytes are needed, or an error (garbage) in `error`.
std::optional<Frame> TakeFrame(std::string& buffer, std::string& error);

// Builds a payload.
class Writer {
 public:
  template <typename T>
  Writer& Put(T value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    return *this;
  }
  Writer& PutString(const std::string& text);
  template <typename T>
  Writer& PutArray(const T* data, std::size_t count) {
    Put<std::uint64_t>(count);
    if (count != 0) bytes_.append(reinterpret_cast<const char*>(data), count * sizeof(T));
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// Reads a payload; a read past its end sets failed() and yields zeros, so a short or
// malformed payload is detected once, after the reads.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  template <typename T>
  T Get() {
    T value{};
    if (!Has(sizeof value)) return value;
    std::copy_n(bytes_.data() + offset_, sizeof value, reinterpret_cast<char*>(&value));
    offset_ += sizeof value;
    return value;
  }
  std::string GetString();
  template <typename T>
  std::vector<T> GetArray() {
    const auto count = Get<std::uint64_t>();
    if (failed_ || count > (bytes_.size() - offset_) / sizeof(T)) {
      failed_ = true;
      return {};
    }
    std::vector<T> values(static_cast<std::size_t>(count));
    if (count != 0) std::copy_n(bytes_.data() + offset_, count * sizeof(T), reinterpret_cast<char*>(values.data()));
    offset_ += count * sizeof(T);
    return values;
  }
  std::size_t Remaining() const { return bytes_.size() - offset_; }
  // True when a read ran past the end.
  bool overran() const { return failed_; }
  // True when a read ran past the end, or bytes are left over.
  bool failed() const { return failed_ || offset_ != bytes_.size(); }

 private:
  bool Has(std::size_t count) {
    if (!failed_ && bytes_.size() - offset_ >= count) return true;
    failed_ = true;
    return false;
  }
  const std::string& bytes_;
  std::size_t offset_ = 0;
  bool failed_ = false;
};

}  // namespace kernels::worker
