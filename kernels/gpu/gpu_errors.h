// gpu_errors.h — errors as values in the GPU module's C entry points (gpu_abi.h), said once for
// its three files (module.cu, student_kernel.cu, l2_probe.cu): a message written into the
// caller's buffer, and the first failing CUDA call of a sequence with what it was doing. Each
// file adds its own library's overload (cuBLAS, NVRTC) and its own wording.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <utility>

namespace kernels::gpu {

// Writes `message` into the caller's buffer, cut to its size.
inline void SetError(char* error, size_t size, const std::string& message) {
  if (error == nullptr || size == 0) return;
  std::snprintf(error, size, "%s", message.c_str());
}

// "cudaErrorMemoryAllocation: out of memory".
inline std::string CudaMessage(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

// The first failing call of a sequence: once a call failed, Ok() is false for every later one,
// so a chain of `check.Ok(...) && ...` stops there and `message` says what failed first.
struct CudaCheck {
  explicit CudaCheck(std::string context = "") : context(std::move(context)) {}
  std::string context;  // before each message: "measuring L2 bandwidth, "
  std::string message;
  bool Ok(cudaError_t status, const char* what) { return Ok(status == cudaSuccess, what, [&] { return CudaMessage(status); }); }

 protected:
  // For another library's status: `succeeded`, else `describe()` names the failure.
  template <typename Describe>
  bool Ok(bool succeeded, const char* what, const Describe& describe) {
    if (succeeded || !message.empty()) return message.empty();
    message = context + what + ": " + describe();
    return false;
  }
};

}  // namespace kernels::gpu
