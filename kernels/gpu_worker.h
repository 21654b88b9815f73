// gpu_worker.h — the app's side of the GPU worker process (worker_protocol.h says why one).
//
// A GpuWorker starts `tilescope-gpu-worker` (beside the GPU module) at its first request and
// talks to it over a socket pair. It watches the worker: a sticky CUDA error it reports, its
// death (a signal or an exit, seen as the socket's end and reaped with waitpid), garbage on
// the socket, or no answer within a grace period after Cancel all end that worker, and the
// request gets a message that names what happened, the kernel and the shape. A fresh worker
// is started at once; the session (shape and inputs) is reopened in it before its next
// request. No zombie stays (every child is reaped), no descriptor leaks into other children
// (SOCK_CLOEXEC; the worker closes what it inherited), and a write to a dead worker is an
// error, not SIGPIPE (MSG_NOSIGNAL). One thread at a time uses a GpuWorker.
#pragma once
#include <sys/types.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/gpu_abi.h"
#include "kernels/worker_protocol.h"

namespace kernels {

struct GpuWorkerOptions {
  std::string executable;   // the worker program
  std::string module_path;  // handed to it: the GPU module it opens
  // How long a worker may take to stop after Cancel (or to exit when closed) before it is
  // killed: a launch of the largest sweep kernels takes well under a second.
  std::chrono::milliseconds grace{3000};
  // How long the worker may take to open the module and say hello (CUDA and cuBLAS load).
  std::chrono::milliseconds start_timeout{60000};
};

// The worker program beside the GPU module (DefaultGpuModulePath's folder).
std::string DefaultGpuWorkerPath();
GpuWorkerOptions DefaultGpuWorkerOptions();

// A student's kernel for the worker to compile with NVRTC and run once (then time), as
// TsStudentLaunch says; the arrays are the worker's to copy.
struct StudentLaunch {
  std::string source;  // the file without its host code (sim::cuda::KernelFile::device_source)
  std::string file_name;
  std::string name_expression;
  std::vector<std::string> options;
  Shape shape;
  std::array<int, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::vector<std::int32_t> argument_kinds, argument_values;  // per parameter
  std::vector<float> a, b;
  int warmups = 0, reps = 0;
};

struct StudentRunResult {
  std::vector<float> c;         // after the first launch, from a zeroed C
  std::vector<double> times_ms;  // one per timed launch
};

class GpuWorker {
 public:
  using Cancelled = std::function<bool()>;

  explicit GpuWorker(GpuWorkerOptions options);
  ~GpuWorker();  // closes the socket, waits up to the grace period, then kills; reaps
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  // Buffers for one shape in the worker: seeded random inputs, or A (M×K) and B (K×N)
  // copied. Replaces the last session. The error (out of memory, no worker) or nothing.
  std::optional<std::string> OpenSession(const Shape& shape, std::uint64_t seed, std::vector<float> a = {},
                                         std::vector<float> b = {});

  // What GpuSession::Run and RaceTrial do, in the worker. `cancelled` is asked while the
  // request is in flight; once it says yes, Cancel is sent and the worker has the grace
  // period to answer. c_out, when given, receives C (M×N).
  TsStatus Run(int kernel, int warmups, int reps, double tolerance, const Cancelled& cancelled, TsKernelRun& run,
               std::vector<double>& times_ms, std::vector<float>* c_out, std::string& error);
  TsStatus RaceTrial(int kernel, int baseline, const Cancelled& cancelled, long long& differing, std::string& error);
  // Needs no session. A compile error, a fault (the worker then restarts) or a launch that
  // does not end before `cancelled` says so (the worker is then ended) is TS_ERROR or
  // TS_CANCELLED with the message.
  TsStatus RunStudent(const StudentLaunch& launch, const Cancelled& cancelled, StudentRunResult& result, std::string& error);

  // The device's L2 bandwidth in GB/s, measured in the worker (gpu_abi.h, TsL2BandwidthFn).
  // Needs no session.
  TsStatus MeasureL2Bandwidth(double& gbs, std::string& error);

  // Test hooks (the worker refuses them unless worker::kTestHooksVariable is set in its
  // environment): a kernel that writes far out of bounds, and holding all but `leave_bytes`
  // of the device's free memory until the worker ends.
  TsStatus TestFault(std::string& error);
  TsStatus TestHoldMemory(std::uint64_t leave_bytes, std::uint64_t& held_bytes, std::string& error);

  // The running worker's process id, or -1; how many workers were ended and replaced.
  pid_t pid() const { return pid_; }
  int restarts() const { return restarts_; }

 private:
  // How a wait for a frame ended: a frame; no answer within the grace period after Cancel;
  // the worker gone (the socket's end, garbage, or no answer in time: `why` says which).
  enum class Wait { kFrame, kCancelled, kGone };
  // Starts a worker when none runs and waits for its hello; the error or nothing.
  std::optional<std::string> EnsureStarted();
  // Sends `request` and waits for its reply frame; any other end fills `error` with what
  // happened (`doing` names the work: "while running tiled16 at 512×512×512").
  TsStatus Exchange(worker::Type type, const std::string& payload, const Cancelled& cancelled,
                    const std::string& doing, worker::Frame& reply, std::string& error);
  // Reopens the session in a fresh worker; false with `error` when that fails.
  bool EnsureSession(std::string& error);
  bool Send(const std::string& bytes);
  Wait ReadFrame(worker::Frame& frame, const Cancelled& cancelled, std::chrono::steady_clock::time_point deadline,
                 std::string& why);
  // Ends the worker (SIGKILL at once when `kill`, else once the grace period passes without
  // its exit) and reaps it; returns how it ended ("killed by signal 11, Segmentation fault").
  std::string Stop(bool kill);
  // After a worker was ended mid-request: starts a fresh one and says so ("; a fresh worker
  // was started"), to end the request's message.
  std::string Restart();

  GpuWorkerOptions options_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string inbox_;  // bytes read but not yet a whole frame
  int restarts_ = 0;
  // The session to reopen in a fresh worker.
  bool have_session_ = false;
  bool session_open_ = false;
  Shape shape_;
  std::uint64_t seed_ = 0;
  std::vector<float> a_, b_;
};

}  // namespace kernels
