// student_kernel.cu — ts_student_run (gpu_abi.h): a student's kernel file compiled with NVRTC
// for the present GPU and launched as the model's check launched it.
//
// NVRTC compiles straight to the device's own SASS (sm_XY), so no PTX JIT stands between
// the source and the GPU, and with nvcc's default --fmad=true: the FMA contraction the model
// follows (sim/cuda/fma_rule.cpp) is the one this build makes. The library is loaded with the
// runtime's cudaLibrary* calls, so the module needs no driver-API link of its own.
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <string>
#include <vector>

#include "kernels/gpu/gpu_errors.h"
#include "kernels/gpu_abi.h"

namespace {

using kernels::gpu::SetError;

// The first failing CUDA or NVRTC call of a sequence, with what it was doing.
struct Check : kernels::gpu::CudaCheck {
  using CudaCheck::Ok;
  bool Ok(nvrtcResult status, const char* what) {
    return CudaCheck::Ok(status == NVRTC_SUCCESS, what, [&] { return std::string(nvrtcGetErrorString(status)); });
  }
};

// The compiled kernel: SASS for this GPU and the name NVRTC gave the kernel in it.
struct Compiled {
  std::vector<char> cubin;
  std::string lowered_name;
};

bool Compile(const TsStudentLaunch& launch, Compiled& out, Check& check) {
  int device = 0, major = 0, minor = 0;
  if (!check.Ok(cudaGetDevice(&device), "cudaGetDevice") ||
      !check.Ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "compute capability") ||
      !check.Ok(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "compute capability")) {
    return false;
  }
  nvrtcProgram program = nullptr;
  if (!check.Ok(nvrtcCreateProgram(&program, launch.source, launch.file_name, 0, nullptr, nullptr), "NVRTC")) return false;
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  std::vector<const char*> options{arch.c_str(), "--std=c++17", "--fmad=true", "-lineinfo"};
  for (int i = 0; i < launch.option_count; ++i) options.push_back(launch.options[i]);
  nvrtcAddNameExpression(program, launch.name_expression);
  const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  if (compiled != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(program, &log_size);
    std::string log(log_size, '\0');
    if (log_size > 0) nvrtcGetProgramLog(program, &log[0]);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    check.message = "NVRTC could not compile it:\n" + log;
    nvrtcDestroyProgram(&program);
    return false;
  }
  const char* lowered = nullptr;
  size_t cubin_size = 0;
  if (check.Ok(nvrtcGetLoweredName(program, launch.name_expression, &lowered), "finding the kernel in NVRTC's output") &&
      check.Ok(nvrtcGetCUBINSize(program, &cubin_size), "NVRTC's code")) {
    out.lowered_name = lowered;
    out.cubin.resize(cubin_size);
    check.Ok(nvrtcGetCUBIN(program, out.cubin.data()), "NVRTC's code");
  }
  nvrtcDestroyProgram(&program);
  return check.message.empty();
}

// Device buffers and the loaded library of one run; freed whatever happens.
struct Run {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Run() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    if (stream != nullptr) cudaStreamDestroy(stream);
    if (library != nullptr) cudaLibraryUnload(library);
  }
};

bool Launch(const TsStudentLaunch& l, Run& run, void** arguments, Check& check) {
  const dim3 grid(static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]), static_cast<unsigned>(l.grid[2]));
  const dim3 block(static_cast<unsigned>(l.block[0]), static_cast<unsigned>(l.block[1]), static_cast<unsigned>(l.block[2]));
  return check.Ok(cudaLaunchKernel(reinterpret_cast<const void*>(run.kernel), grid, block, arguments, 0, run.stream), "launch");
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) TsStatus ts_student_run(const TsStudentLaunch* l, float* c_out, double* times_ms,
                                                               char* error, size_t error_size) {
  Check check;
  Compiled compiled;
  if (!Compile(*l, compiled, check)) {
    SetError(error, error_size, check.message);
    return TS_ERROR;
  }
  Run run;
  const size_t a_bytes = static_cast<size_t>(l->m * l->k) * sizeof(float);
  const size_t b_bytes = static_cast<size_t>(l->k * l->n) * sizeof(float);
  const size_t c_bytes = static_cast<size_t>(l->m * l->n) * sizeof(float);
  check.Ok(cudaLibraryLoadData(&run.library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
           "loading the compiled kernel") &&
      check.Ok(cudaLibraryGetKernel(&run.kernel, run.library, compiled.lowered_name.c_str()), "finding the kernel") &&
      check.Ok(cudaStreamCreateWithFlags(&run.stream, cudaStreamNonBlocking), "cudaStreamCreate") &&
      check.Ok(cudaEventCreate(&run.start), "cudaEventCreate") && check.Ok(cudaEventCreate(&run.stop), "cudaEventCreate") &&
      check.Ok(cudaMalloc(&run.a, a_bytes), "allocating A") && check.Ok(cudaMalloc(&run.b, b_bytes), "allocating B") &&
      check.Ok(cudaMalloc(&run.c, c_bytes), "allocating C") &&
      check.Ok(cudaMemcpyAsync(run.a, l->a, a_bytes, cudaMemcpyHostToDevice, run.stream), "copying A") &&
      check.Ok(cudaMemcpyAsync(run.b, l->b, b_bytes, cudaMemcpyHostToDevice, run.stream), "copying B") &&
      check.Ok(cudaMemsetAsync(run.c, 0, c_bytes, run.stream), "zeroing C");
  // The launch's arguments: each parameter's value, read by cudaLaunchKernel through a pointer.
  std::vector<float*> pointers(static_cast<size_t>(l->parameter_count), nullptr);
  std::vector<int> values(static_cast<size_t>(l->parameter_count), 0);
  std::vector<void*> arguments(static_cast<size_t>(l->parameter_count), nullptr);
  for (int i = 0; i < l->parameter_count; ++i) {
    const int kind = l->argument_kinds[i];
    values[i] = l->argument_values[i];
    pointers[i] = kind == TS_ARG_A ? run.a : kind == TS_ARG_B ? run.b : run.c;
    arguments[i] = kind == TS_ARG_INT ? static_cast<void*>(&values[i]) : static_cast<void*>(&pointers[i]);
  }
  check.message.empty() && Launch(*l, run, arguments.data(), check) && check.Ok(cudaStreamSynchronize(run.stream), "the kernel") &&
      check.Ok(cudaMemcpy(c_out, run.c, c_bytes, cudaMemcpyDeviceToHost), "copying C back");
  for (int i = 0; i < l->warmups && check.message.empty(); ++i) {
    Launch(*l, run, arguments.data(), check) && check.Ok(cudaStreamSynchronize(run.stream), "warm-up");
  }
  for (int i = 0; i < l->reps && check.message.empty(); ++i) {
    float ms = 0;
    // Events around the launch alone.
    check.Ok(cudaEventRecord(run.start, run.stream), "cudaEventRecord") && Launch(*l, run, arguments.data(), check) &&
        check.Ok(cudaEventRecord(run.stop, run.stream), "cudaEventRecord") && check.Ok(cudaEventSynchronize(run.stop), "the kernel") &&
        check.Ok(cudaEventElapsedTime(&ms, run.start, run.stop), "timing");
    times_ms[i] = ms;
  }
  if (!check.message.empty()) {
    SetError(error, error_size, check.message);
    return TS_ERROR;
  }
  return TS_OK;
}

}  // extern "C"
