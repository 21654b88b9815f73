// gpu_module.h — the GPU module opened with dlopen, and a session over one shape's buffers.
//
// Used by the GPU worker program (tools/gpu_worker_main.cpp), which runs the kernels, and by
// ProbeGpu and the occupancy view, which only ask the device (no launch that could poison
// the app's context); public so tests can load a module from any path and see the message
// a missing or broken module gives. The rest of the app uses runner.h.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/gpu_abi.h"

namespace kernels {

struct GpuModule {
  std::string path;
  TsProbeFn probe = nullptr;
  TsSessionCreateFn session_create = nullptr;
  TsSessionDestroyFn session_destroy = nullptr;
  TsRunFn run = nullptr;
  TsRaceTrialFn race_trial = nullptr;
  TsKernelResourcesFn kernel_resources = nullptr;
  TsContextErrorFn context_error = nullptr;
  TsStudentRunFn student_run = nullptr;
  TsMmaFragmentFn mma_fragment = nullptr;
  TsL2BandwidthFn l2_bandwidth = nullptr;
  TsTestKernelFn test_kernel = nullptr;
  TsTestHoldMemoryFn test_hold_memory = nullptr;
};

// Opens the module at `path` and resolves its functions; checks its ABI version and that
// its kernel table is ours. On failure returns null and says why in `error` (the dlerror
// text included). The module stays loaded for the life of the process: CUDA's runtime
// does not support being unloaded while its context lives.
std::unique_ptr<GpuModule> LoadGpuModule(const std::string& path, std::string& error);

// The module ProbeGpu opened, when it found a device; null otherwise.
const GpuModule* ActiveGpuModule();

// One shape's device buffers (A, B, the cuBLAS reference C, the kernel's C).
class GpuSession {
 public:
  // With a and b null the inputs are seeded random values; otherwise copied from the host.
  static std::unique_ptr<GpuSession> Create(const GpuModule& module, const Shape& shape, std::uint64_t seed,
                                            const float* a, const float* b, std::string& error);
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  // Times `kernel` (its row in kKernelTable) and checks its C; `times_ms` gets one entry
  // per finished repetition. `cancelled` is asked before every launch.
  TsStatus Run(int kernel, int warmups, int reps, double tolerance, const std::function<bool()>& cancelled,
               TsKernelRun& run, std::vector<double>& times_ms, float* c_out, std::string& error);
  TsStatus RaceTrial(int kernel, int baseline, long long& differing, std::string& error);

 private:
  GpuSession(const GpuModule& module, TsSession* session) : module_(module), session_(session) {}
  const GpuModule& module_;
  TsSession* session_;
};

}  // namespace kernels
