// The GPU worker's protocol and the app's supervision of it, on any machine: the worker
// here is tests/kernels/fake_gpu_worker.cpp, which crashes, faults, hangs or answers
// garbage on request (gpu_test.cpp has the real faults on a device).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>

#include "kernels/device.h"
#include "kernels/gpu_worker.h"
#include "kernels/registry.h"
#include "kernels/worker_protocol.h"

namespace kernels {
namespace {

using Clock = std::chrono::steady_clock;

// --- The protocol ---

TEST(WorkerProtocol, AFrameRoundTripsAndWaitsForItsLastByte) {
  worker::Writer writer;
  const std::vector<float> values = {1.5f, -2.0f};
  writer.Put<std::int32_t>(-7).Put<double>(0.25).PutString("tiled16").PutArray(values.data(), values.size());
  const std::string bytes = worker::Encode(worker::Type::kRun, writer.bytes());
  std::string error;
  std::string partial = bytes.substr(0, bytes.size() - 1);
  EXPECT_FALSE(worker::TakeFrame(partial, error));
  EXPECT_TRUE(error.empty()) << "a frame cut short is not garbage yet: " << error;
  std::string whole = bytes + "next";
  const std::optional<worker::Frame> frame = worker::TakeFrame(whole, error);
  ASSERT_TRUE(frame);
  EXPECT_EQ(whole, "next") << "the frame is taken, what follows stays";
  EXPECT_EQ(frame->type, worker::Type::kRun);
  worker::Reader reader(frame->payload);
  EXPECT_EQ(reader.Get<std::int32_t>(), -7);
  EXPECT_EQ(reader.Get<double>(), 0.25);
  EXPECT_EQ(reader.GetString(), "tiled16");
  EXPECT_EQ(reader.GetArray<float>(), values);
  EXPECT_FALSE(reader.failed());
}

TEST(WorkerProtocol, GarbageIsNamed) {
  const std::string good = worker::Encode(worker::Type::kReply, "");
  const auto error_of = [](std::string bytes) {
    std::string error;
    EXPECT_FALSE(worker::TakeFrame(bytes, error));
    return error;
  };
  EXPECT_NE(error_of("HTTP/1.1 200 OK\r\n\r\n").find("not a TileScope worker frame"), std::string::npos);
  std::string other_version = good;
  other_version[4] = 9;
  EXPECT_EQ(error_of(other_version), "protocol version 9, this program speaks 1");
  std::string unknown_type = good;
  unknown_type[6] = 99;
  EXPECT_EQ(error_of(unknown_type), "unknown frame type 99");
  std::string huge = good;
  huge[11] = static_cast<char>(0xff);  // a length of 4 GiB − 1
  EXPECT_NE(error_of(huge).find("above the limit"), std::string::npos);
}

TEST(WorkerProtocol, AShortPayloadFailsTheReaderOnce) {
  worker::Writer writer;
  writer.Put<std::uint64_t>(1000);  // an array's count with no elements after it
  worker::Reader reader(writer.bytes());
  EXPECT_TRUE(reader.GetArray<double>().empty());
  EXPECT_EQ(reader.Get<std::int32_t>(), 0);
  EXPECT_TRUE(reader.failed());
  const std::string extra = worker::Writer().Put<std::int32_t>(1).Put<std::int32_t>(2).bytes();
  worker::Reader left_over(extra);
  left_over.Get<std::int32_t>();
  EXPECT_FALSE(left_over.overran());
  EXPECT_TRUE(left_over.failed()) << "bytes left over are a malformed payload too";
}

// --- Supervision, with the fake worker ---

// The build puts the programs side by side, so they are found from this one's folder (as
// the app finds its worker), wherever the build folder travels.
std::string BesideTheWorker(const std::string& name) {
  const std::string worker = DefaultGpuWorkerPath();
  return worker.substr(0, worker.rfind('/') + 1) + name;
}
const std::string kFakeWorker = BesideTheWorker("fake_gpu_worker");

GpuWorkerOptions Fake(const std::string& mode) {
  GpuWorkerOptions options;
  options.executable = kFakeWorker;
  options.module_path = mode;
  options.grace = std::chrono::milliseconds(300);
  options.start_timeout = std::chrono::milliseconds(10000);  // generous: CI's 2 cores are busy
  return options;
}

const Shape kShape = Shape::Square(64);
const int kTiled16 = KernelIndex(*FindKernel("tiled16"));
const int kTiled2 = KernelIndex(*FindKernel("tiled2"));

TsStatus RunTiled16(GpuWorker& worker, std::string& error, const GpuWorker::Cancelled& cancelled = {}) {
  TsKernelRun run{};
  std::vector<double> times;
  return worker.Run(kTiled16, 1, 2, 0.0, cancelled ? cancelled : [] { return false; }, run, times, nullptr, error);
}

// The process `pid` is gone and reaped: no zombie stays.
bool Reaped(pid_t pid) { return pid > 0 && waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD; }

TEST(GpuWorker, AWorkingWorkerAnswersRunsAndRaceTrials) {
  GpuWorker worker(Fake("ok"));
  ASSERT_FALSE(worker.OpenSession(kShape, 1));
  TsKernelRun run{};
  std::vector<double> times;
  std::string error;
  ASSERT_EQ(worker.Run(kTiled16, 1, 2, 0.0, [] { return false; }, run, times, nullptr, error), TS_OK) << error;
  EXPECT_EQ(run.reps_done, 2);
  EXPECT_EQ(times, (std::vector<double>{1.5, 1.5}));
  EXPECT_EQ(run.threads_per_block, 256);
  long long differing = 0;
  ASSERT_EQ(worker.RaceTrial(kTiled16, kTiled2, [] { return false; }, differing, error), TS_OK) << error;
  EXPECT_EQ(differing, 7);
  EXPECT_EQ(worker.restarts(), 0);
}

TEST(GpuWorker, ACrashIsReportedAndAFreshWorkerAnswersTheNextRequestInTheSameSession) {
  GpuWorker worker(Fake("crash-on-run"));
  ASSERT_FALSE(worker.OpenSession(kShape, 1));
  const pid_t first = worker.pid();
  std::string error;
  EXPECT_EQ(RunTiled16(worker, error), TS_ERROR);
  EXPECT_EQ(error,
            "the GPU worker ended (killed by signal 11, Segmentation fault) while running tiled16 at 64×64×64; a "
            "fresh worker was started");
  EXPECT_TRUE(Reaped(first));
  EXPECT_GT(worker.pid(), 0);
  EXPECT_NE(worker.pid(), first);
  EXPECT_EQ(worker.restarts(), 1);
  // The fake answers race trials in any mode, but only in an open session: the session was
  // reopened in the fresh worker.
  long long differing = 0;
  EXPECT_EQ(worker.RaceTrial(kTiled16, kTiled2, [] { return false; }, differing, error), TS_OK) << error;
  EXPECT_EQ(differing, 7);
}

TEST(GpuWorker, AStickyFaultNamesTheCudaErrorTheKernelAndTheShape) {
  GpuWorker worker(Fake("fault-on-run"));
  ASSERT_FALSE(worker.OpenSession(Shape{37, 29, 53}, 1));
  const pid_t first = worker.pid();
  std::string error;
  EXPECT_EQ(RunTiled16(worker, error), TS_ERROR);
  EXPECT_EQ(error,
            "the GPU worker faulted: cudaErrorIllegalAddress: an illegal memory access was encountered while running "
            "tiled16 at 37×29×53; a fresh worker was started");
  EXPECT_TRUE(Reaped(first));
  long long differing = 0;
  EXPECT_EQ(worker.RaceTrial(kTiled16, kTiled2, [] { return false; }, differing, error), TS_OK) << error;
}

TEST(GpuWorker, AWorkerThatIgnoresCancelIsKilledAfterTheGracePeriod) {
  GpuWorker worker(Fake("hang-on-run"));
  ASSERT_FALSE(worker.OpenSession(kShape, 1));
  const pid_t first = worker.pid();
  const Clock::time_point start = Clock::now();
  const auto cancel_at = start + std::chrono::milliseconds(200);
  std::string error;
  EXPECT_EQ(RunTiled16(worker, error, [&] { return Clock::now() >= cancel_at; }), TS_CANCELLED);
  const double seconds = std::chrono::duration<double>(Clock::now() - cancel_at).count();
  EXPECT_GE(seconds, 0.3) << "the grace period is waited out";
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(error,
            "the GPU worker did not stop within 0.3 s of Cancel while running tiled16 at 64×64×64: it was ended; a "
            "fresh worker was started");
  EXPECT_TRUE(Reaped(first));
  EXPECT_EQ(worker.restarts(), 1);
}

TEST(GpuWorker, AWorkerThatStopsAtCancelIsKept) {
  GpuWorkerOptions options = Fake("slow-run");
  options.grace = std::chrono::milliseconds(3000);  // it answers well inside: kept, not killed
  GpuWorker worker(options);
  ASSERT_FALSE(worker.OpenSession(kShape, 1));
  const pid_t first = worker.pid();
  const auto cancel_at = Clock::now() + std::chrono::milliseconds(250);
  std::string error;
  EXPECT_EQ(RunTiled16(worker, error, [&] { return Clock::now() >= cancel_at; }), TS_CANCELLED);
  // Within a launch or so of 100 ms, far from the run's 5 s.
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - cancel_at).count(), 2.0);
  EXPECT_EQ(worker.pid(), first);
  EXPECT_EQ(worker.restarts(), 0);
}

TEST(GpuWorker, GarbageEndsTheWorker) {
  GpuWorker worker(Fake("garbage-on-run"));
  ASSERT_FALSE(worker.OpenSession(kShape, 1));
  const pid_t first = worker.pid();
  std::string error;
  EXPECT_EQ(RunTiled16(worker, error), TS_ERROR);
  EXPECT_EQ(error.rfind("the GPU worker answered garbage (not a TileScope worker frame", 0), 0u) << error;
  EXPECT_NE(error.find("while running tiled16 at 64×64×64; a fresh worker was started"), std::string::npos) << error;
  EXPECT_TRUE(Reaped(first));
}

TEST(GpuWorker, AWorkerThatCannotStartIsNamed) {
  GpuWorkerOptions missing = Fake("ok");
  missing.executable = "/nonexistent/tilescope-gpu-worker";
  EXPECT_EQ(GpuWorker(missing).OpenSession(kShape, 1),
            "cannot start the GPU worker /nonexistent/tilescope-gpu-worker: No such file or directory");
  EXPECT_EQ(GpuWorker(Fake("exit-at-start")).OpenSession(kShape, 1),
            "the GPU worker " + kFakeWorker + " ended at its start (exit status 7)");
  GpuWorkerOptions silent_options = Fake("silent-at-start");
  silent_options.start_timeout = std::chrono::milliseconds(500);
  GpuWorker silent(silent_options);
  const Clock::time_point start = Clock::now();
  EXPECT_EQ(silent.OpenSession(kShape, 1), "the GPU worker " + kFakeWorker + " did not answer in time");
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5.0);
  EXPECT_EQ(silent.pid(), -1) << "killed and reaped";
}

// A worker that exits while the app still writes a large request: the write fails with
// EPIPE, not a SIGPIPE that would end this test program.
TEST(GpuWorker, WritingToADeadWorkerIsAnErrorNotSigpipe) {
  GpuWorker worker(Fake("exit-on-session"));
  const std::int64_t size = 1024;  // A and B of 4 MiB each: far more than a socket buffers
  const std::optional<std::string> error =
      worker.OpenSession(Shape::Square(size), 0, std::vector<float>(size * size, 1.0f),
                         std::vector<float>(size * size, 2.0f));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("the GPU worker ended (exit status 0) while preparing buffers at 1024×1024×1024", 0), 0u)
      << *error;
}

// The app's ends of the sockets are close-on-exec: a second worker, started while the first
// runs, holds its own socket and no other.
TEST(GpuWorker, NoSocketLeaksIntoAnotherWorker) {
  GpuWorker first(Fake("sockets"));
  GpuWorker second(Fake("sockets"));
  ASSERT_FALSE(first.OpenSession(kShape, 1));
  ASSERT_FALSE(second.OpenSession(kShape, 1));
  std::string error;
  EXPECT_EQ(RunTiled16(second, error), TS_ERROR);
  EXPECT_EQ(error, "sockets open: 1");
}

TEST(GpuWorker, TheWorkerSitsBesideTheModule) {
  const std::string module = DefaultGpuModulePath();
  const std::string folder = module.substr(0, module.rfind('/') + 1);
  EXPECT_EQ(DefaultGpuWorkerPath(), folder + "tilescope-gpu-worker");
  EXPECT_EQ(DefaultGpuWorkerOptions().module_path, module);
}

// The real worker program (the build's, beside this test), on any machine: a module it cannot open is its hello's error,
// which the request that started it reports.
TEST(GpuWorker, TheRealWorkerReportsAModuleItCannotOpen) {
  GpuWorkerOptions options;
  options.executable = DefaultGpuWorkerPath();
  options.module_path = ::testing::TempDir() + "nowhere/libtilescope_gpu.so";
  GpuWorker worker(options);
  const std::optional<std::string> error = worker.OpenSession(kShape, 1);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("cannot load the GPU runner module: " + options.module_path, 0), 0u) << *error;
  EXPECT_EQ(worker.pid(), -1) << "it exited and was reaped";
}

TEST(GpuWorker, TheDestructorEndsAndReapsTheWorker) {
  pid_t pid = -1;
  {
    GpuWorker worker(Fake("ok"));
    ASSERT_FALSE(worker.OpenSession(kShape, 1));
    pid = worker.pid();
  }
  EXPECT_TRUE(Reaped(pid));
}

}  // namespace
}  // namespace kernels
