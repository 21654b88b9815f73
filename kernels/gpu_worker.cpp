#include "kernels/gpu_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include "kernels/device.h"
#include "kernels/kernel_table.h"

extern char** environ;

namespace kernels {
namespace {

using Clock = std::chrono::steady_clock;
using worker::Frame;
using worker::Outcome;
using worker::Type;

constexpr const char* kWorkerFileName = "tilescope-gpu-worker";
// The worker finds its end of the socket here (its argument says so too).
constexpr int kWorkerFd = 3;
// How often a wait looks at Cancel: short against a launch, long against a poll's cost.
constexpr std::chrono::milliseconds kPollStep{20};

std::string ShapeText(const Shape& shape) {
  return std::to_string(shape.m) + "×" + std::to_string(shape.n) + "×" + std::to_string(shape.k);
}

std::string KernelName(int kernel) {
  if (kernel >= 0 && kernel < static_cast<int>(kKernelCount)) return kKernelTable[kernel].name;
  return "kernel number " + std::to_string(kernel);
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "killed by signal " + std::to_string(signal) + ", " + strsignal(signal);
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "wait status " + std::to_string(status);
}

int PollMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<long long>(0, std::min<long long>(left.count(), kPollStep.count())));
}

}  // namespace

std::string DefaultGpuWorkerPath() {
  const std::string module = DefaultGpuModulePath();
  const auto slash = module.rfind('/');
  return (slash == std::string::npos ? std::string(".") : module.substr(0, slash)) + "/" + kWorkerFileName;
}

GpuWorkerOptions DefaultGpuWorkerOptions() {
  GpuWorkerOptions options;
  options.executable = DefaultGpuWorkerPath();
  options.module_path = DefaultGpuModulePath();
  return options;
}

GpuWorker::GpuWorker(GpuWorkerOptions options) : options_(std::move(options)) {}

GpuWorker::~GpuWorker() { Stop(false); }

std::optional<std::string> GpuWorker::EnsureStarted() {
  if (pid_ > 0) return std::nullopt;
  std::array<int, 2> ends{};
  // CLOEXEC: another child (a second runner's worker) must not hold this socket open, or
  // this worker's death would never read as the socket's end.
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    return "cannot create a socket for the GPU worker: " + std::string(std::strerror(errno));
  }
  // Above kWorkerFd, so dup2 onto kWorkerFd always makes a fresh descriptor without CLOEXEC.
  const int child_end = fcntl(ends[1], F_DUPFD_CLOEXEC, kWorkerFd + 1);
  close(ends[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_end, kWorkerFd);
  const std::string fd_text = std::to_string(kWorkerFd);
  std::vector<char*> argv = {const_cast<char*>(options_.executable.c_str()), const_cast<char*>("--socket-fd"),
                             const_cast<char*>(fd_text.c_str()), const_cast<char*>("--module"),
                             const_cast<char*>(options_.module_path.c_str()), nullptr};
  pid_t pid = -1;
  const int spawned = child_end < 0 ? errno
                                    : posix_spawn(&pid, options_.executable.c_str(), &actions, nullptr, argv.data(),
                                                  environ);
  posix_spawn_file_actions_destroy(&actions);
  if (child_end >= 0) close(child_end);
  if (spawned != 0) {
    close(ends[0]);
    return "cannot start the GPU worker " + options_.executable + ": " + std::strerror(spawned);
  }
  pid_ = pid;
  fd_ = ends[0];
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) | O_NONBLOCK);
  inbox_.clear();
  Frame hello;
  std::string why;
  const Wait waited = ReadFrame(hello, {}, Clock::now() + options_.start_timeout, why);
  if (waited == Wait::kFrame && hello.type != Type::kHello) {
    Stop(true);
    return "the GPU worker " + options_.executable + " did not start with a hello";
  }
  if (waited != Wait::kFrame) {
    // No reason read off the socket means it closed: the worker exited; otherwise kill it.
    const std::string how = Stop(!why.empty());
    return "the GPU worker " + options_.executable + " " + (why.empty() ? "ended at its start (" + how + ")" : why);
  }
  worker::Reader reader(hello.payload);
  const auto outcome = static_cast<Outcome>(reader.Get<std::uint8_t>());
  const std::string message = reader.GetString();
  if (reader.failed() || outcome != Outcome::kOk) {
    Stop(false);
    return reader.failed() ? "the GPU worker's hello was malformed" : message;
  }
  return std::nullopt;
}

bool GpuWorker::Send(const std::string& bytes) {
  std::size_t sent = 0;
  const Clock::time_point deadline = Clock::now() + options_.start_timeout;
  while (sent < bytes.size()) {
    // MSG_NOSIGNAL: a worker that died makes this EPIPE, not a SIGPIPE that ends the app.
    const ssize_t count = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (count > 0) {
      sent += static_cast<std::size_t>(count);
      continue;
    }
    if (count < 0 && errno == EINTR) continue;
    if (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
    if (Clock::now() >= deadline) return false;
    pollfd writable{fd_, POLLOUT, 0};
    poll(&writable, 1, PollMs(deadline));
  }
  return true;
}

GpuWorker::Wait GpuWorker::ReadFrame(Frame& frame, const Cancelled& cancelled, Clock::time_point deadline,
                                     std::string& why) {
  bool cancel_sent = false;
  Clock::time_point cancel_deadline{};
  std::array<char, 1 << 16> chunk{};
  while (true) {
    std::string garbage;
    if (std::optional<Frame> taken = worker::TakeFrame(inbox_, garbage)) {
      frame = std::move(*taken);
      return Wait::kFrame;
    }
    if (!garbage.empty()) {
      why = "answered garbage (" + garbage + ")";
      return Wait::kGone;
    }
    if (!cancel_sent && cancelled && cancelled()) {
      cancel_sent = true;
      cancel_deadline = Clock::now() + options_.grace;
      Send(worker::Encode(Type::kCancel, ""));
    }
    const Clock::time_point limit = cancel_sent ? std::min(deadline, cancel_deadline) : deadline;
    if (Clock::now() >= limit) {
      const double seconds = std::chrono::duration<double>(options_.grace).count();
      char text[96];
      std::snprintf(text, sizeof text, "did not stop within %.1f s of Cancel", seconds);
      why = cancel_sent ? text : "did not answer in time";
      return cancel_sent ? Wait::kCancelled : Wait::kGone;
    }
    pollfd readable{fd_, POLLIN, 0};
    if (poll(&readable, 1, PollMs(limit)) <= 0) continue;
    const ssize_t count = read(fd_, chunk.data(), chunk.size());
    if (count > 0) {
      inbox_.append(chunk.data(), static_cast<std::size_t>(count));
    } else if (count == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
      return Wait::kGone;  // the socket's end: the worker exited or was killed
    }
  }
}

std::string GpuWorker::Stop(bool kill) {
  if (pid_ <= 0) return "";
  // The worker reads the socket's end and exits on its own; only a stuck one is killed.
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  inbox_.clear();
  int status = 0;
  pid_t reaped = 0;
  const Clock::time_point deadline = Clock::now() + options_.grace;
  while (!kill && (reaped = waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (reaped != pid_) {
    ::kill(pid_, SIGKILL);
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
  session_open_ = false;
  return DescribeExit(status);
}

std::string GpuWorker::Restart() {
  ++restarts_;
  const std::optional<std::string> error = EnsureStarted();
  return error ? "; starting a fresh worker failed: " + *error : "; a fresh worker was started";
}

TsStatus GpuWorker::Exchange(Type type, const std::string& payload, const Cancelled& cancelled,
                             const std::string& doing, Frame& reply, std::string& error) {
  if (std::optional<std::string> start_error = EnsureStarted()) {
    error = *start_error;
    return TS_ERROR;
  }
  std::string why;
  const Wait waited = Send(worker::Encode(type, payload))
                          ? ReadFrame(reply, cancelled, Clock::time_point::max(), why)
                          : Wait::kGone;
  if (waited == Wait::kCancelled) {
    Stop(true);
    error = "the GPU worker " + why + " " + doing + ": it was ended" + Restart();
    return TS_CANCELLED;
  }
  if (waited == Wait::kGone) {
    const std::string how = Stop(!why.empty());
    error = "the GPU worker " + (why.empty() ? "ended (" + how + ")" : why) + " " + doing + Restart();
    return TS_ERROR;
  }
  worker::Reader reader(reply.payload);
  if (reply.type == Type::kFault) {
    const std::string fault = reader.GetString();
    Stop(false);
    error = "the GPU worker faulted: " + fault + " " + doing + Restart();
    return TS_ERROR;
  }
  const auto outcome = static_cast<Outcome>(reader.Get<std::uint8_t>());
  const std::string message = reader.GetString();
  if (reply.type != Type::kReply || reader.overran() || !(outcome == Outcome::kOk || outcome == Outcome::kCancelled ||
                                      outcome == Outcome::kError)) {
    Stop(true);
    error = "the GPU worker answered garbage (an unexpected frame) " + doing + Restart();
    return TS_ERROR;
  }
  reply.payload.erase(0, reply.payload.size() - reader.Remaining());
  if (outcome == Outcome::kCancelled) return TS_CANCELLED;
  if (outcome == Outcome::kError) {
    error = message;
    return TS_ERROR;
  }
  return TS_OK;
}

std::optional<std::string> GpuWorker::OpenSession(const Shape& shape, std::uint64_t seed, std::vector<float> a,
                                                  std::vector<float> b) {
  have_session_ = true;
  session_open_ = false;
  shape_ = shape;
  seed_ = seed;
  a_ = std::move(a);
  b_ = std::move(b);
  std::string error;
  if (!EnsureSession(error)) return error;
  return std::nullopt;
}

bool GpuWorker::EnsureSession(std::string& error) {
  if (!have_session_) {
    error = "no GPU session is open";
    return false;
  }
  if (session_open_ && pid_ > 0) return true;
  worker::Writer writer;
  writer.Put<std::int64_t>(shape_.m).Put<std::int64_t>(shape_.n).Put<std::int64_t>(shape_.k).Put<std::uint64_t>(seed_);
  writer.PutArray(a_.data(), a_.size()).PutArray(b_.data(), b_.size());
  Frame reply;
  if (Exchange(Type::kOpenSession, writer.bytes(), {}, "while preparing buffers at " + ShapeText(shape_), reply,
               error) != TS_OK) {
    return false;
  }
  session_open_ = true;
  return true;
}

TsStatus GpuWorker::Run(int kernel, int warmups, int reps, double tolerance, const Cancelled& cancelled,
                        TsKernelRun& run, std::vector<double>& times_ms, std::vector<float>* c_out,
                        std::string& error) {
  run = TsKernelRun{};
  times_ms.clear();
  if (!EnsureSession(error)) return TS_ERROR;
  worker::Writer writer;
  writer.Put<std::int32_t>(kernel).Put<std::int32_t>(warmups).Put<std::int32_t>(reps).Put<double>(tolerance);
  writer.Put<std::uint8_t>(c_out != nullptr ? 1 : 0);
  Frame reply;
  const TsStatus status = Exchange(Type::kRun, writer.bytes(), cancelled,
                                   "while running " + KernelName(kernel) + " at " + ShapeText(shape_), reply, error);
  if (status != TS_OK) return status;
  worker::Reader reader(reply.payload);
  run.reps_done = reader.Get<std::int32_t>();
  run.max_abs_error = reader.Get<double>();
  run.wrong_elements = reader.Get<std::int64_t>();
  run.occupancy_blocks_per_sm = reader.Get<std::int32_t>();
  run.threads_per_block = reader.Get<std::int32_t>();
  times_ms = reader.GetArray<double>();
  std::vector<float> c = reader.GetArray<float>();
  if (reader.failed() || static_cast<int>(times_ms.size()) != run.reps_done) {
    error = "the GPU worker's answer to " + KernelName(kernel) + " was malformed";
    return TS_ERROR;
  }
  if (c_out != nullptr) *c_out = std::move(c);
  run.times_ms = times_ms.data();
  return TS_OK;
}

TsStatus GpuWorker::RaceTrial(int kernel, int baseline, const Cancelled& cancelled, long long& differing,
                              std::string& error) {
  if (!EnsureSession(error)) return TS_ERROR;
  worker::Writer writer;
  writer.Put<std::int32_t>(kernel).Put<std::int32_t>(baseline);
  Frame reply;
  const TsStatus status = Exchange(Type::kRaceTrial, writer.bytes(), cancelled,
                                   "while running " + KernelName(kernel) + " at " + ShapeText(shape_), reply, error);
  if (status != TS_OK) return status;
  worker::Reader reader(reply.payload);
  differing = reader.Get<std::int64_t>();
  if (reader.failed()) {
    error = "the GPU worker's race trial answer was malformed";
    return TS_ERROR;
  }
  return TS_OK;
}

TsStatus GpuWorker::RunStudent(const StudentLaunch& launch, const Cancelled& cancelled, StudentRunResult& result,
                               std::string& error) {
  worker::Writer writer;
  writer.PutString(launch.source).PutString(launch.file_name).PutString(launch.name_expression);
  writer.Put<std::uint64_t>(launch.options.size());
  for (const std::string& option : launch.options) writer.PutString(option);
  writer.Put<std::int64_t>(launch.shape.m).Put<std::int64_t>(launch.shape.n).Put<std::int64_t>(launch.shape.k);
  writer.PutArray(launch.grid.data(), 3).PutArray(launch.block.data(), 3);
  writer.PutArray(launch.argument_kinds.data(), launch.argument_kinds.size());
  writer.PutArray(launch.argument_values.data(), launch.argument_values.size());
  writer.PutArray(launch.a.data(), launch.a.size()).PutArray(launch.b.data(), launch.b.size());
  writer.Put<std::int32_t>(launch.warmups).Put<std::int32_t>(launch.reps);
  Frame reply;
  const TsStatus status = Exchange(Type::kStudentRun, writer.bytes(), cancelled,
                                   "while running " + launch.name_expression + " at " + ShapeText(launch.shape), reply, error);
  if (status != TS_OK) return status;
  worker::Reader reader(reply.payload);
  result.c = reader.GetArray<float>();
  result.times_ms = reader.GetArray<double>();
  if (reader.failed() || result.c.size() != static_cast<std::size_t>(launch.shape.m * launch.shape.n)) {
    error = "the GPU worker's answer to " + launch.name_expression + " was malformed";
    return TS_ERROR;
  }
  return TS_OK;
}

TsStatus GpuWorker::MeasureL2Bandwidth(double& gbs, std::string& error) {
  Frame reply;
  const TsStatus status = Exchange(Type::kL2Bandwidth, "", {}, "while measuring L2 bandwidth", reply, error);
  if (status != TS_OK) return status;
  worker::Reader reader(reply.payload);
  gbs = reader.Get<double>();
  if (reader.failed()) {
    error = "the GPU worker's L2 bandwidth answer was malformed";
    return TS_ERROR;
  }
  return TS_OK;
}

TsStatus GpuWorker::TestFault(std::string& error) {
  Frame reply;
  return Exchange(Type::kTestFault, "", {}, "while running the test's faulting kernel", reply, error);
}

TsStatus GpuWorker::TestHoldMemory(std::uint64_t leave_bytes, std::uint64_t& held_bytes, std::string& error) {
  worker::Writer writer;
  writer.Put<std::uint64_t>(leave_bytes);
  Frame reply;
  const TsStatus status = Exchange(Type::kTestHoldMemory, writer.bytes(), {}, "while filling device memory", reply,
                                   error);
  if (status != TS_OK) return status;
  worker::Reader reader(reply.payload);
  held_bytes = reader.Get<std::uint64_t>();
  return TS_OK;
}

}  // namespace kernels
