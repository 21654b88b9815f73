// A stand-in for tilescope-gpu-worker that needs no GPU: it speaks the worker protocol and
// misbehaves as its --module argument says, so gpu_worker_test can check how the app's side
// supervises a worker on any machine.
//
//   ok              answers every request (two 1.5 ms reps, nothing wrong; 7 differing)
//   crash-on-run    dies by SIGSEGV when asked to run
//   fault-on-run    reports a sticky CUDA error and exits, as the real worker does
//   hang-on-run     never answers a run and ignores Cancel
//   garbage-on-run  answers a run with bytes that are not a frame
//   slow-run        a run of 50 launches of 100 ms, stopping at Cancel between them
//   exit-at-start   exits with status 7 before its hello
//   silent-at-start never says hello
//   exit-on-session exits as soon as a session's request header arrives, unread
//   sockets         answers a run with an error naming how many sockets it holds open
#include <dirent.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "kernels/worker_protocol.h"

namespace {

using kernels::worker::Frame;
using kernels::worker::Outcome;
using kernels::worker::Type;
using kernels::worker::Writer;

int fd = -1;
std::string inbox;

void Send(Type type, const std::string& payload) {
  const std::string bytes = kernels::worker::Encode(type, payload);
  if (send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(bytes.size())) std::exit(0);
}

void Reply(Outcome outcome, const std::string& message, const std::string& body = "") {
  Writer writer;
  writer.Put<std::uint8_t>(static_cast<std::uint8_t>(outcome)).PutString(message);
  Send(Type::kReply, writer.bytes() + body);
}

// The next frame, or exit at the socket's end. With `header_only`, returns as soon as a
// header is in, payload unread (its type alone matters then).
Frame Next(bool header_only = false) {
  char chunk[4096];
  while (true) {
    std::string garbage;
    if (header_only && inbox.size() >= kernels::worker::kHeaderBytes) {
      std::uint16_t type = 0;
      std::memcpy(&type, inbox.data() + 6, sizeof type);
      return Frame{static_cast<Type>(type), ""};
    }
    if (auto frame = kernels::worker::TakeFrame(inbox, garbage)) return *frame;
    const ssize_t count = read(fd, chunk, sizeof chunk);
    if (count <= 0) std::exit(0);
    inbox.append(chunk, static_cast<std::size_t>(count));
  }
}

bool CancelArrived() {
  pollfd readable{fd, POLLIN, 0};
  if (poll(&readable, 1, 0) <= 0) return false;
  return Next().type == Type::kCancel;
}

int OpenSockets() {
  int sockets = 0;
  DIR* dir = opendir("/proc/self/fd");
  while (dirent* entry = readdir(dir)) {
    char target[256] = {};
    const std::string path = std::string("/proc/self/fd/") + entry->d_name;
    if (readlink(path.c_str(), target, sizeof target - 1) > 0 && std::strncmp(target, "socket:", 7) == 0) ++sockets;
  }
  closedir(dir);
  return sockets;
}

std::string RunBody(int reps) {
  Writer body;
  std::vector<double> times(static_cast<std::size_t>(reps), 1.5);
  body.Put<std::int32_t>(reps).Put<double>(0.0).Put<std::int64_t>(0).Put<std::int32_t>(8).Put<std::int32_t>(256);
  body.PutArray(times.data(), times.size()).PutArray<float>(nullptr, 0);
  return body.bytes();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    std::printf("usage: fake_gpu_worker --socket-fd FD --module MODE (gpu_worker_test starts it)\n");
    return 0;
  }
  if (argc != 5) {
    std::fprintf(stderr, "fake_gpu_worker: unexpected arguments: %s\n", argc > 1 ? argv[1] : "(none)");
    return 2;
  }
  fd = std::atoi(argv[2]);
  const std::string mode = argv[4];
  if (mode == "exit-at-start") return 7;
  if (mode == "silent-at-start") std::this_thread::sleep_for(std::chrono::hours(1));
  Send(Type::kHello, Writer().Put<std::uint8_t>(0).PutString("").bytes());
  bool session = false;  // as the real worker, it answers runs only in an open session
  while (true) {
    const Frame request = Next(mode == "exit-on-session");
    if (request.type == Type::kCancel) continue;
    if (request.type == Type::kOpenSession) {
      if (mode == "exit-on-session") return 0;
      session = true;
      Reply(Outcome::kOk, "");
      continue;
    }
    if (!session) {
      Reply(Outcome::kError, "no GPU session is open");
      continue;
    }
    if (request.type == Type::kRaceTrial) {
      Reply(Outcome::kOk, "", Writer().Put<std::int64_t>(7).bytes());
      continue;
    }
    if (request.type != Type::kRun) return 4;
    if (mode == "crash-on-run") {
      const rlimit no_core{0, 0};
      setrlimit(RLIMIT_CORE, &no_core);  // a test's crash leaves no core file behind
      // The default action, not a handler's: under AddressSanitizer its SEGV handler would
      // report the crash and abort (signal 6), and the report would fail the sanitized run.
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    if (mode == "fault-on-run") {
      Send(Type::kFault, Writer().PutString("cudaErrorIllegalAddress: an illegal memory access was encountered").bytes());
      return 3;
    }
    if (mode == "hang-on-run") std::this_thread::sleep_for(std::chrono::hours(1));
    if (mode == "garbage-on-run") {
      const std::string junk = "HTTP/1.1 200 OK\r\n\r\n";
      if (send(fd, junk.data(), junk.size(), MSG_NOSIGNAL) < 0) return 0;
      std::this_thread::sleep_for(std::chrono::hours(1));
    }
    if (mode == "sockets") {
      Reply(Outcome::kError, "sockets open: " + std::to_string(OpenSockets()));
      continue;
    }
    if (mode == "slow-run") {
      bool cancelled = false;
      for (int launch = 0; launch < 50 && !(cancelled = CancelArrived()); ++launch) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      if (cancelled) {
        Reply(Outcome::kCancelled, "");
        continue;
      }
    }
    Reply(Outcome::kOk, "", RunBody(2));
  }
}
