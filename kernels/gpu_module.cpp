#include "kernels/gpu_module.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstring>

#include "kernels/device.h"
#include "kernels/kernel_table.h"

namespace kernels {
namespace {

constexpr const char* kModuleFileName = "libtilescope_gpu.so";
constexpr std::size_t kErrorSize = 1024;

template <typename Fn>
bool Resolve(void* handle, const char* symbol, Fn& fn, std::string& error) {
  fn = reinterpret_cast<Fn>(dlsym(handle, symbol));
  if (fn != nullptr) return true;
  error = std::string("the GPU module lacks ") + symbol + ": " + dlerror();
  return false;
}

// A module built from another kernel table would run the wrong kernel for an index.
bool CheckKernelTable(void* handle, std::string& error) {
  TsAbiVersionFn abi_version = nullptr;
  TsKernelCountFn kernel_count = nullptr;
  TsKernelNameFn kernel_name = nullptr;
  if (!Resolve(handle, "ts_abi_version", abi_version, error) ||
      !Resolve(handle, "ts_kernel_count", kernel_count, error) ||
      !Resolve(handle, "ts_kernel_name", kernel_name, error)) {
    return false;
  }
  if (abi_version() != TS_GPU_ABI_VERSION) {
    error = "the GPU module speaks interface version " + std::to_string(abi_version()) + ", this program " +
            std::to_string(TS_GPU_ABI_VERSION) + ": rebuild them together";
    return false;
  }
  bool same = kernel_count() == static_cast<int>(kKernelCount);
  for (std::size_t i = 0; same && i < kKernelCount; ++i) {
    same = std::strcmp(kernel_name(static_cast<int>(i)), kKernelTable[i].name) == 0;
  }
  if (!same) error = "the GPU module was built with a different kernel table: rebuild it with this program";
  return same;
}

int CancelTrampoline(void* user) { return (*static_cast<const std::function<bool()>*>(user))() ? 1 : 0; }

std::string ExecutableDir() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return ".";
  std::string exe(path.data(), static_cast<std::size_t>(length));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

[[maybe_unused]] DeviceInfo ToDeviceInfo(const TsDeviceInfo& raw) {  // unused in a browser (Probe)
  DeviceInfo info;
  info.name = raw.name;
  info.cc_major = raw.cc_major;
  info.cc_minor = raw.cc_minor;
  info.sm_count = raw.sm_count;
  info.clock_mhz = raw.clock_khz / 1000.0;
  info.memory_clock_mhz = raw.memory_clock_khz / 1000.0;
  info.bus_width_bits = raw.bus_width_bits;
  info.total_memory_bytes = raw.total_memory_bytes;
  // Bytes per second: two transfers per memory clock, bus width / 8 bytes each.
  info.memory_bandwidth_gbs = 2.0 * raw.memory_clock_khz * 1e3 * (raw.bus_width_bits / 8.0) / 1e9;
  info.fp32_lanes_per_sm = Fp32LanesPerSm(raw.cc_major, raw.cc_minor);
  info.fp32_peak_gflops = raw.sm_count * info.fp32_lanes_per_sm * 2.0 * info.clock_mhz / 1e3;
  info.max_grid_x = raw.max_grid_x;
  info.max_grid_y = raw.max_grid_y;
  info.max_threads_per_block = raw.max_threads_per_block;
  info.max_threads_per_sm = raw.max_threads_per_sm;
  info.max_blocks_per_sm = raw.max_blocks_per_sm;
  info.registers_per_sm = raw.registers_per_sm;
  info.max_registers_per_block = raw.max_registers_per_block;
  info.shared_per_sm = raw.shared_per_sm;
  info.max_shared_per_block_optin = raw.max_shared_per_block_optin;
  info.shared_reserved_per_block = raw.shared_reserved_per_block;
  return info;
}

struct ProbedModule {
  GpuStatus status;
  std::unique_ptr<GpuModule> module;
};

ProbedModule Probe(const std::string& path) {
  ProbedModule probed;
  GpuStatus& status = probed.status;
  status.module_path = path;
#ifdef __EMSCRIPTEN__
  // The one place the browser build turns the GPU off: a page cannot load a CUDA module, nor
  // start the GPU worker process that would run it (gpu_worker.h), as nothing runs without the GPU.
  status.reason = "TileScope in a browser cannot reach a GPU; the desktop app runs the kernels";
  status.detail = "a web page cannot load " + path;
  return probed;
#else
  if (access(path.c_str(), F_OK) != 0) {
    status.reason = "this build of TileScope has no CUDA support";
    status.detail = "no GPU runner module at " + path;
    return probed;
  }
  std::string error;
  std::unique_ptr<GpuModule> module = LoadGpuModule(path, error);
  if (!module) {
    status.reason = "the GPU runner module cannot be loaded: a missing libcudart or libcublas means the CUDA runtime "
                    "is not installed";
    status.detail = error;
    return probed;
  }
  TsDeviceInfo raw{};
  char message[kErrorSize] = {};
  const TsStatus probe_status = module->probe(&raw, message, sizeof message);
  status.runtime_version = CudaVersionString(raw.runtime_version);
  status.driver_version = CudaVersionString(raw.driver_version);
  if (probe_status != TS_OK) {
    status.reason = message;
    return probed;
  }
  status.available = true;
  status.device = ToDeviceInfo(raw);
  probed.module = std::move(module);
  return probed;
#endif
}

ProbedModule& ProbedDefault() {
  static ProbedModule probed = Probe(DefaultGpuModulePath());
  return probed;
}

}  // namespace

int Fp32LanesPerSm(int cc_major, int cc_minor) {
  switch (cc_major) {
    case 7: return cc_minor == 5 ? 64 : 0;  // Turing; Volta and older are below nvcc 13's floor
    case 8: return cc_minor == 0 ? 64 : 128;  // A100: 64; Ampere GA10x and Ada: 128
    case 9: return 128;                       // Hopper
    case 10:
    case 12: return 128;  // Blackwell
    default: return 0;
  }
}

int TensorFlopsPerSmPerClock(int cc_major, int cc_minor, Precision precision) {
  if (precision == Precision::kFp32) return 0;
  const int bf16 = cc_major == 9 && cc_minor == 0 ? 4096 : cc_major == 8 && cc_minor == 0 ? 2048 : 0;
  return precision == Precision::kTf32 ? bf16 / 2 : bf16;  // TF32 runs at half BF16's rate on both
}

double PeakGflops(const DeviceInfo& device, Precision precision) {
  if (precision == Precision::kFp32) return device.fp32_peak_gflops;
  return device.sm_count * double(TensorFlopsPerSmPerClock(device.cc_major, device.cc_minor, precision)) *
         device.clock_mhz / 1e3;
}

const char* PeakName(Precision precision) {
  switch (precision) {
    case Precision::kTf32: return "TF32 tensor peak";
    case Precision::kBf16: return "BF16 tensor peak";
    case Precision::kFp32: break;
  }
  return "FP32 peak";
}

std::string CudaVersionString(int version) {
  if (version <= 0) return "";
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// Installed, the binary is <prefix>/bin/tilescope and the module <prefix>/lib/tilescope/gpu/
// (packaging/Install.cmake); in the build tree both sit in the build folder. Decided by the
// binary's folder, not by which file exists: a build without CUDA has no module anywhere,
// and its message should name the place this layout keeps it.
std::string DefaultGpuModulePath() {
  const std::string dir = ExecutableDir();
  const bool installed = dir.size() >= 4 && dir.compare(dir.size() - 4, 4, "/bin") == 0;
  return installed ? dir.substr(0, dir.size() - 4) + "/lib/tilescope/gpu/" + kModuleFileName
                   : dir + "/" + kModuleFileName;
}

std::unique_ptr<GpuModule> LoadGpuModule(const std::string& path, std::string& error) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    error = "cannot load the GPU runner module: " + std::string(dlerror());
    return nullptr;
  }
  auto module = std::make_unique<GpuModule>();
  module->path = path;
  const bool ok = CheckKernelTable(handle, error) && Resolve(handle, "ts_probe", module->probe, error) &&
                  Resolve(handle, "ts_session_create", module->session_create, error) &&
                  Resolve(handle, "ts_session_destroy", module->session_destroy, error) &&
                  Resolve(handle, "ts_run", module->run, error) &&
                  Resolve(handle, "ts_race_trial", module->race_trial, error) &&
                  Resolve(handle, "ts_kernel_resources", module->kernel_resources, error) &&
                  Resolve(handle, "ts_context_error", module->context_error, error) &&
                  Resolve(handle, "ts_student_run", module->student_run, error) &&
                  Resolve(handle, "ts_mma_fragment", module->mma_fragment, error) &&
                  Resolve(handle, "ts_l2_bandwidth", module->l2_bandwidth, error) &&
                  Resolve(handle, "ts_test_kernel", module->test_kernel, error) &&
                  Resolve(handle, "ts_test_hold_memory", module->test_hold_memory, error);
  if (!ok) {
    error = path + ": " + error;
    return nullptr;
  }
  return module;
}

const GpuStatus& ProbeGpu() { return ProbedDefault().status; }

GpuStatus ProbeGpuModuleAt(const std::string& path) { return Probe(path).status; }

const GpuModule* ActiveGpuModule() { return ProbedDefault().module.get(); }

std::unique_ptr<GpuSession> GpuSession::Create(const GpuModule& module, const Shape& shape, std::uint64_t seed,
                                               const float* a, const float* b, std::string& error) {
  char message[kErrorSize] = {};
  TsSession* session = module.session_create(shape.m, shape.n, shape.k, seed, a, b, message, sizeof message);
  if (session == nullptr) {
    error = message;
    return nullptr;
  }
  return std::unique_ptr<GpuSession>(new GpuSession(module, session));
}

GpuSession::~GpuSession() { module_.session_destroy(session_); }

TsStatus GpuSession::Run(int kernel, int warmups, int reps, double tolerance,
                         const std::function<bool()>& cancelled, TsKernelRun& run, std::vector<double>& times_ms,
                         float* c_out, std::string& error) {
  times_ms.assign(static_cast<std::size_t>(reps), 0.0);
  run = TsKernelRun{};
  run.times_ms = times_ms.data();
  char message[kErrorSize] = {};
  const TsStatus status = module_.run(session_, kernel, warmups, reps, tolerance, CancelTrampoline,
                                      const_cast<std::function<bool()>*>(&cancelled), &run, c_out, message,
                                      sizeof message);
  times_ms.resize(static_cast<std::size_t>(run.reps_done));
  if (status == TS_ERROR) error = message;
  return status;
}

TsStatus GpuSession::RaceTrial(int kernel, int baseline, long long& differing, std::string& error) {
  char message[kErrorSize] = {};
  const TsStatus status = module_.race_trial(session_, kernel, baseline, &differing, message, sizeof message);
  if (status == TS_ERROR) error = message;
  return status;
}

}  // namespace kernels
