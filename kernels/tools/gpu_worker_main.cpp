// tilescope-gpu-worker — the process that runs TileScope's kernels (gpu_worker.h).
//
// Started by kernels::GpuWorker with one end of a socket pair; opens the GPU module, says
// hello, then answers one request at a time (worker_protocol.h). A CUDA error that poisons
// the context is reported as a fault, and the worker exits: only a fresh process gets a
// working context back. It exits too when the app's end of the socket closes.
//
//   tilescope-gpu-worker --socket-fd FD --module PATH
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/gpu_module.h"
#include "kernels/registry.h"
#include "kernels/worker_protocol.h"

namespace {

using kernels::worker::Frame;
using kernels::worker::Outcome;
using kernels::worker::Reader;
using kernels::worker::Type;
using kernels::worker::Writer;

constexpr int kExitFault = 3;     // after a sticky CUDA error
constexpr int kExitProtocol = 4;  // the app sent something that is not a request

class Server {
 public:
  Server(int fd, std::unique_ptr<kernels::GpuModule> module) : fd_(fd), module_(std::move(module)) {
    ReadTestHooks();
  }

  // Serves requests until the app closes its end; returns the exit status.
  int Serve() {
    while (true) {
      std::optional<Frame> request = Next(true);
      if (!request) return 0;
      if (request->type == Type::kCancel) continue;  // it came after the run it meant had ended
      if (!Handle(*request)) return kExitProtocol;
    }
  }

 private:
  void ReadTestHooks() {
    const char* value = std::getenv(kernels::worker::kTestHooksVariable);
    test_hooks_ = value != nullptr;
    if (!test_hooks_) return;
    const std::string hook = value;
    const auto colon = hook.find(':');
    if (colon == std::string::npos) return;
    const kernels::KernelSpec* spec = kernels::FindKernel(hook.substr(colon + 1));
    if (spec == nullptr) return;
    const std::string kind = hook.substr(0, colon);
    if (kind == "fault") hooked_kernel_ = {kernels::KernelIndex(*spec), TS_TEST_FAULT};
    if (kind == "hang") hooked_kernel_ = {kernels::KernelIndex(*spec), TS_TEST_HANG};
  }

  // The next frame; nothing at the socket's end (or, with `block` false, when none is
  // waiting). Garbage ends the worker: the app is not what it expects.
  std::optional<Frame> Next(bool block) {
    std::array<char, 1 << 16> chunk{};
    while (true) {
      std::string garbage;
      if (std::optional<Frame> frame = kernels::worker::TakeFrame(inbox_, garbage)) return frame;
      if (!garbage.empty()) {
        std::fprintf(stderr, "tilescope-gpu-worker: %s\n", garbage.c_str());
        std::exit(kExitProtocol);
      }
      if (!block) {
        pollfd readable{fd_, POLLIN, 0};
        if (poll(&readable, 1, 0) <= 0) return std::nullopt;
      }
      const ssize_t count = read(fd_, chunk.data(), chunk.size());
      if (count > 0) {
        inbox_.append(chunk.data(), static_cast<std::size_t>(count));
        block = true;  // the rest of a frame follows at once
      } else if (count == 0 || errno != EINTR) {
        closed_ = true;
        return std::nullopt;
      }
    }
  }

  // Asked before every launch: a Cancel frame, or the app gone.
  bool Cancelled() {
    if (cancelled_ || closed_) return true;
    while (std::optional<Frame> frame = Next(false)) {
      if (frame->type != Type::kCancel) {
        std::fprintf(stderr, "tilescope-gpu-worker: a request arrived while another ran\n");
        std::exit(kExitProtocol);
      }
      cancelled_ = true;
    }
    return cancelled_ || closed_;
  }

  void Send(Type type, const std::string& payload) {
    const std::string bytes = kernels::worker::Encode(type, payload);
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t count = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (count < 0 && errno == EINTR) continue;
      if (count <= 0) std::exit(0);  // the app is gone: nobody to answer
      sent += static_cast<std::size_t>(count);
    }
  }

  void Reply(TsStatus status, const std::string& message, const Writer& body = {}) {
    // After a failure, a poisoned context is a fault: say so and leave, nothing here works.
    char fault[1024] = {};
    if (status == TS_ERROR && module_->context_error(fault, sizeof fault) != TS_OK) {
      Send(Type::kFault, Writer().PutString(fault).bytes());
      std::exit(kExitFault);
    }
    const Outcome outcome = status == TS_OK ? Outcome::kOk : status == TS_CANCELLED ? Outcome::kCancelled
                                                                                   : Outcome::kError;
    Writer writer;
    writer.Put<std::uint8_t>(static_cast<std::uint8_t>(outcome)).PutString(status == TS_OK ? "" : message);
    Send(Type::kReply, writer.bytes() + (status == TS_OK ? body.bytes() : std::string()));
  }

  bool Handle(const Frame& request) {
    Reader reader(request.payload);
    cancelled_ = false;
    switch (request.type) {
      case Type::kOpenSession: return OpenSession(reader);
      case Type::kRun: return Run(reader);
      case Type::kRaceTrial: return RaceTrial(reader);
      case Type::kStudentRun: return StudentRun(reader);
      case Type::kL2Bandwidth: return L2Bandwidth();
      case Type::kTestFault: return TestFault();
      case Type::kTestHoldMemory: return TestHoldMemory(reader);
      default: return false;
    }
  }

  bool OpenSession(Reader& reader) {
    kernels::Shape shape;
    shape.m = reader.Get<std::int64_t>();
    shape.n = reader.Get<std::int64_t>();
    shape.k = reader.Get<std::int64_t>();
    const auto seed = reader.Get<std::uint64_t>();
    const std::vector<float> a = reader.GetArray<float>();
    const std::vector<float> b = reader.GetArray<float>();
    if (reader.failed()) return false;
    const bool given = !a.empty() || !b.empty();
    if (given && (a.size() != static_cast<std::size_t>(shape.m * shape.k) ||
                  b.size() != static_cast<std::size_t>(shape.k * shape.n))) {
      Reply(TS_ERROR, "A and B do not match the shape " + kernels::ToString(shape));
      return true;
    }
    session_.reset();  // its buffers first: the new shape may need the memory
    std::string error;
    session_ = kernels::GpuSession::Create(*module_, shape, seed, given ? a.data() : nullptr,
                                           given ? b.data() : nullptr, error);
    shape_ = shape;
    Reply(session_ ? TS_OK : TS_ERROR, error);
    return true;
  }

  bool Run(Reader& reader) {
    const auto kernel = reader.Get<std::int32_t>();
    const auto warmups = reader.Get<std::int32_t>();
    const auto reps = reader.Get<std::int32_t>();
    const auto tolerance = reader.Get<double>();
    const bool want_c = reader.Get<std::uint8_t>() != 0;
    if (reader.failed() || reps < 0 || warmups < 0) return false;
    if (!session_) {
      Reply(TS_ERROR, "no GPU session is open");
      return true;
    }
    if (hooked_kernel_.first == kernel) return TestKernel(hooked_kernel_.second);
    TsKernelRun run{};
    std::vector<double> times;
    std::vector<float> c(want_c ? static_cast<std::size_t>(shape_.m * shape_.n) : 0);
    std::string error;
    const TsStatus status = session_->Run(kernel, warmups, reps, tolerance, [this] { return Cancelled(); }, run,
                                          times, want_c ? c.data() : nullptr, error);
    Writer body;
    body.Put<std::int32_t>(run.reps_done).Put<double>(run.max_abs_error).Put<std::int64_t>(run.wrong_elements);
    body.Put<std::int32_t>(run.occupancy_blocks_per_sm).Put<std::int32_t>(run.threads_per_block);
    body.PutArray(times.data(), times.size()).PutArray(c.data(), c.size());
    Reply(status, error, body);
    return true;
  }

  bool RaceTrial(Reader& reader) {
    const auto kernel = reader.Get<std::int32_t>();
    const auto baseline = reader.Get<std::int32_t>();
    if (reader.failed()) return false;
    if (!session_) {
      Reply(TS_ERROR, "no GPU session is open");
      return true;
    }
    if (hooked_kernel_.first == kernel) return TestKernel(hooked_kernel_.second);
    long long differing = 0;
    std::string error;
    const TsStatus status = session_->RaceTrial(kernel, baseline, differing, error);
    Reply(status, error, Writer().Put<std::int64_t>(differing));
    return true;
  }

  bool L2Bandwidth() {
    double gbs = 0.0;
    char message[1024] = {};
    const TsStatus status = module_->l2_bandwidth(&gbs, message, sizeof message);
    Reply(status, message, Writer().Put<double>(gbs));
    return true;
  }

  // A student's kernel (GpuWorker::RunStudent): no session, its own buffers.
  bool StudentRun(Reader& reader) {
    const std::string source = reader.GetString();
    const std::string file_name = reader.GetString();
    const std::string name = reader.GetString();
    const auto option_count = reader.Get<std::uint64_t>();
    std::vector<std::string> options;
    for (std::uint64_t i = 0; i < option_count && !reader.overran(); ++i) options.push_back(reader.GetString());
    TsStudentLaunch launch{};
    launch.m = reader.Get<std::int64_t>();
    launch.n = reader.Get<std::int64_t>();
    launch.k = reader.Get<std::int64_t>();
    const std::vector<std::int32_t> grid = reader.GetArray<std::int32_t>();
    const std::vector<std::int32_t> block = reader.GetArray<std::int32_t>();
    const std::vector<std::int32_t> kinds = reader.GetArray<std::int32_t>();
    const std::vector<std::int32_t> values = reader.GetArray<std::int32_t>();
    const std::vector<float> a = reader.GetArray<float>();
    const std::vector<float> b = reader.GetArray<float>();
    launch.warmups = reader.Get<std::int32_t>();
    launch.reps = reader.Get<std::int32_t>();
    if (reader.failed() || grid.size() != 3 || block.size() != 3 || kinds.size() != values.size() || launch.reps < 0 ||
        launch.warmups < 0 || launch.m < 1 || launch.n < 1 || launch.k < 1 ||
        a.size() != static_cast<std::size_t>(launch.m * launch.k) || b.size() != static_cast<std::size_t>(launch.k * launch.n)) {
      return false;
    }
    std::vector<const char*> option_texts;
    for (const std::string& o : options) option_texts.push_back(o.c_str());
    launch.source = source.c_str();
    launch.file_name = file_name.c_str();
    launch.name_expression = name.c_str();
    launch.options = option_texts.data();
    launch.option_count = static_cast<int>(option_texts.size());
    std::copy(grid.begin(), grid.end(), launch.grid);
    std::copy(block.begin(), block.end(), launch.block);
    launch.argument_kinds = kinds.data();
    launch.argument_values = values.data();
    launch.parameter_count = static_cast<int>(kinds.size());
    launch.a = a.data();
    launch.b = b.data();
    std::vector<float> c(static_cast<std::size_t>(launch.m * launch.n));
    std::vector<double> times(static_cast<std::size_t>(launch.reps));
    char message[16384] = {};
    const TsStatus status = module_->student_run(&launch, c.data(), times.data(), message, sizeof message);
    Writer body;
    body.PutArray(c.data(), c.size()).PutArray(times.data(), times.size());
    Reply(status, message, body);
    return true;
  }

  bool TestKernel(TsTestKernel which) {
    if (!test_hooks_) {
      Reply(TS_ERROR, std::string("test hooks are off (") + kernels::worker::kTestHooksVariable + " is not set)");
      return true;
    }
    char message[1024] = {};
    const TsStatus status = module_->test_kernel(which, message, sizeof message);
    Reply(status, message);
    return true;
  }

  bool TestFault() { return TestKernel(TS_TEST_FAULT); }

  bool TestHoldMemory(Reader& reader) {
    const auto leave = reader.Get<std::uint64_t>();
    if (reader.failed()) return false;
    if (!test_hooks_) {
      Reply(TS_ERROR, std::string("test hooks are off (") + kernels::worker::kTestHooksVariable + " is not set)");
      return true;
    }
    unsigned long long held = 0;
    char message[1024] = {};
    const TsStatus status = module_->test_hold_memory(leave, &held, message, sizeof message);
    Reply(status, message, Writer().Put<std::uint64_t>(held));
    return true;
  }

  int fd_;
  std::unique_ptr<kernels::GpuModule> module_;
  std::unique_ptr<kernels::GpuSession> session_;
  kernels::Shape shape_;
  std::string inbox_;
  bool cancelled_ = false;
  bool closed_ = false;
  bool test_hooks_ = false;
  std::pair<int, TsTestKernel> hooked_kernel_{-1, TS_TEST_FAULT};
};

}  // namespace

int main(int argc, char** argv) {
  constexpr const char* kUsage =
      "usage: tilescope-gpu-worker --socket-fd FD --module PATH\n"
      "Runs TileScope's GPU kernels for the app, which starts it; not meant to be run by hand.\n";
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    std::printf("%s", kUsage);
    return 0;
  }
  if (argc != 5 || std::strcmp(argv[1], "--socket-fd") != 0 || std::strcmp(argv[3], "--module") != 0) {
    std::fprintf(stderr, "tilescope-gpu-worker: unexpected arguments:");
    for (int i = 1; i < argc; ++i) std::fprintf(stderr, " %s", argv[i]);
    std::fprintf(stderr, "\n%s", kUsage);
    return 2;
  }
  char* end = nullptr;
  const long fd = std::strtol(argv[2], &end, 10);
  if (*end != '\0' || fd < 3 || fd > 1024) {
    std::fprintf(stderr, "tilescope-gpu-worker: --socket-fd %s is not a descriptor above 2\n", argv[2]);
    return 2;
  }
  // Whatever else the app left open is not ours to hold; stdout goes to stderr, so a stray
  // print in a library cannot reach the socket or the app's own output.
  if (fd > 3) close_range(3, static_cast<unsigned>(fd) - 1, 0);
  close_range(static_cast<unsigned>(fd) + 1, ~0u, 0);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  // A terminal's Ctrl+C reaches the whole foreground process group, this worker too: the app
  // decides what it means (cancel the sweep, sent here as a Cancel frame, or quit, which
  // closes the socket and ends the worker).
  std::signal(SIGINT, SIG_IGN);
  std::string error;
  std::unique_ptr<kernels::GpuModule> module = kernels::LoadGpuModule(argv[4], error);
  Writer hello;
  hello.Put<std::uint8_t>(static_cast<std::uint8_t>(module ? Outcome::kOk : Outcome::kError)).PutString(error);
  const std::string bytes = kernels::worker::Encode(Type::kHello, hello.bytes());
  if (send(static_cast<int>(fd), bytes.data(), bytes.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(bytes.size())) {
    return 1;
  }
  if (!module) return 1;
  return Server(static_cast<int>(fd), std::move(module)).Serve();
}
