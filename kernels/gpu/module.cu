// module.cu — libtilescope_gpu.so: the C interface of gpu_abi.h over CUDA and cuBLAS.
//
// Everything that touches the CUDA runtime lives in this module, which the app opens with
// dlopen, so the app itself starts on a PC without CUDA. Every CUDA call is checked and
// every failure becomes a message for the caller: errors are values, never exits.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>

#include "kernels/gpu/hopper_launchers.h"
#include "kernels/gpu/launchers.h"
#include "kernels/gpu/gpu_errors.h"
#include "kernels/gpu_abi.h"
#include "kernels/kernel_table.h"
#include "kernels/random_fill.h"

namespace {

using kernels::KernelFamily;
using kernels::gpu::CudaMessage;
using kernels::gpu::SetError;
using kernels::kKernelCount;
using kernels::kKernelTable;
using kernels::kMaxTileEdge;

constexpr int kThreadsPerBlock = 256;
constexpr int kMaxBlocks = 4096;  // grid-stride loops: enough blocks to fill any current GPU
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string CublasMessage(cublasStatus_t status) {
  return std::string(cublasGetStatusName(status)) + ": " + cublasGetStatusString(status);
}

std::string ShapeText(long long m, long long n, long long k) {
  if (m == n && n == k) return "n = " + std::to_string(m);
  return "M×N×K = " + std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k);
}

// --- Helper kernels: fills and comparisons, grid-stride over n elements. ---

__global__ void FillRandom(float* data, size_t count, unsigned long long seed, int which) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    data[i] = kernels::RandomInput(seed, which, i);
  }
}

// stats[0]: the largest |c − ref| as float bits (non-negative floats order like their bits,
// and a NaN's bits exceed infinity's, so a NaN wins); stats[1]: elements off by more than
// the tolerance, NaN included.
__global__ void CompareWithReference(const float* c, const float* ref, size_t count, float tolerance,
                                     unsigned long long* stats) {
  unsigned int max_bits = 0;
  unsigned long long wrong = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    float difference = fabsf(c[i] - ref[i]);
    if (isnan(difference)) difference = __int_as_float(0x7fc00000);  // a NaN with the sign bit clear
    max_bits = max(max_bits, __float_as_uint(difference));
    if (!(difference <= tolerance)) ++wrong;
  }
  atomicMax(reinterpret_cast<unsigned int*>(&stats[0]), max_bits);
  if (wrong != 0) atomicAdd(&stats[1], wrong);
}

// Elements whose bits differ: the race run asks "identical?", not "close?".
__global__ void CountDifferingBits(const float* c, const float* baseline, size_t count, unsigned long long* stats) {
  unsigned long long differing = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    if (__float_as_uint(c[i]) != __float_as_uint(baseline[i])) ++differing;
  }
  if (differing != 0) atomicAdd(&stats[1], differing);
}

// Test kernels (ts_test_kernel). The write lands 2^47 bytes (128 TiB) past a small
// allocation, beyond a Linux process's whole address space, so neither device memory nor
// host memory the GPU may reach (HMM) is there: an illegal address for certain, which
// poisons the context.
__global__ void WriteFarOutOfBounds(float* data) { data[size_t{1} << 45] = 1.0f; }

// Spins for `nanoseconds` by the global timer, whatever Cancel says: a launch that hangs.
__global__ void SpinFor(unsigned long long nanoseconds, int* sink) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
  *sink = 1;
}

__device__ __forceinline__ void StoreAs(float value, __nv_bfloat16* out) { *out = __float2bfloat16_rn(value); }
__device__ __forceinline__ void StoreAs(float value, float* out) { *out = value; }

// K-major copies of the operands for the rows that read them through tensor maps (and for
// cuBLAS BF16), made once per session and never timed: `out` holds `rows` rows of `padded`
// elements, element (r, c) the input's (r, c) (rounded to nearest even for BF16, unchanged
// for FP32), zeros past `cols`. With `transposed`, the input is cols×rows (B, K×N) and `out`
// its transpose (Bᵀ, N×K): K-major, as wgmma and cuBLAS's "TN" GEMM read both operands.
template <typename Element>
__global__ void ToKMajor(const float* in, Element* out, long long rows, long long cols, long long padded,
                         bool transposed) {
  const size_t count = static_cast<size_t>(rows * padded);
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    const long long r = static_cast<long long>(i) / padded, c = static_cast<long long>(i) % padded;
    const float value = c >= cols ? 0.0f : (transposed ? in[c * rows + r] : in[r * cols + c]);
    StoreAs(value, out + i);
  }
}

// ts_mma_fragment's warp: fragments filled from the caller's cells (see gpu_abi.h), one mma,
// D stored where the caller's C cells say.
__global__ void MmaFragmentProbe(int operand, const int* cells, float* lanes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const int lane = static_cast<int>(threadIdx.x);
  const auto cell = [&](int which, int reg) { return cells + ((which * 32 + lane) * 4 + reg) * 2; };
  const auto on_diagonal = [&](int which, int reg) { return cell(which, reg)[0] == cell(which, reg)[1] ? 1.0f : 0.0f; };
  float a[4], b[2], d[4];
  const float c = 0.0f;
  for (int r = 0; r < 4; ++r) a[r] = operand == 0 ? float(4 * lane + r) : on_diagonal(0, r);
  for (int r = 0; r < 2; ++r) b[r] = operand == 1 ? float(4 * lane + r) : on_diagonal(1, r);
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])), "r"(__float_as_uint(a[3])),
        "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])), "f"(c), "f"(c), "f"(c), "f"(c));
  for (int r = 0; r < 4; ++r) {
    const int row = cell(2, r)[0], column = cell(2, r)[1];
    if (row >= 0 && row < 16 && column >= 0 && column < 8) lanes[row * 8 + column] = d[r];
  }
#endif
}

int BlocksFor(size_t count) {
  const size_t blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<int>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

}  // namespace

// One element type's K-major copies of the operands (ToKMajor): A (M×K) and Bᵀ (N×K), rows of
// `k_padded` elements, allocated when the first row that reads them runs.
struct KMajorOperands {
  void* a = nullptr;
  void* bt = nullptr;
  long long k_padded = 0;
};

// One shape's buffers. Sizes are padded (see Create) so that the unguarded kernel's
// out-of-range accesses stay inside the allocations.
struct TsSession {
  long long m = 0, n = 0, k = 0;
  size_t a_count = 0, b_count = 0, c_count = 0;  // allocated elements, padding included
  float* a = nullptr;
  float* b = nullptr;
  float* c_ref = nullptr;  // cuBLAS FP32's C
  float* c = nullptr;      // the kernel under test writes here
  float* c_baseline = nullptr;
  int baseline_kernel = -1;  // which kernel c_baseline holds
  unsigned long long* stats = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cublasHandle_t cublas = nullptr;
  int max_grid_x = 0, max_grid_y = 0, max_grid_z = 0;
  kernels::gpu::DeviceLimits limits;
  // The BF16 rows' operands and the FP32 ones of the TF32 rows that read tensor maps; the
  // tensor maps of the copy they describe (map_a_data) for the box rows they were made for.
  KMajorOperands bf16, fp32;
  CUtensorMap a_map{}, b_map{};
  const void* map_a_data = nullptr;
  int map_rows_a = 0, map_rows_b = 0;
};

namespace {

void Release(TsSession* s) {
  if (s == nullptr) return;
  cudaFree(s->a);
  cudaFree(s->b);
  cudaFree(s->c_ref);
  cudaFree(s->c);
  cudaFree(s->c_baseline);
  for (const KMajorOperands* copies : {&s->bf16, &s->fp32}) {
    cudaFree(copies->a);
    cudaFree(copies->bt);
  }
  cudaFree(s->stats);
  if (s->cublas != nullptr) cublasDestroy(s->cublas);
  if (s->start != nullptr) cudaEventDestroy(s->start);
  if (s->stop != nullptr) cudaEventDestroy(s->stop);
  if (s->stream != nullptr) cudaStreamDestroy(s->stream);
  delete s;
}

// The first failing CUDA or cuBLAS call of a sequence, with what it was doing.
struct Check : kernels::gpu::CudaCheck {
  using CudaCheck::Ok;
  bool Ok(cublasStatus_t status, const char* what) {
    return CudaCheck::Ok(status == CUBLAS_STATUS_SUCCESS, what, [&] { return CublasMessage(status); });
  }
};

// C = A·B through cuBLAS. cuBLAS is column-major; a row-major M×N matrix is its N×M
// transpose, so row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: swap the operands. For BF16
// the operands are the session's copies: Bᵀ row-major (N×K) is column-major B, so it goes
// in transposed, and A row-major is column-major Aᵀ ("TN", both K-major).
cublasStatus_t CublasGemm(TsSession* s, KernelFamily family, float* c) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const int m = static_cast<int>(s->m), n = static_cast<int>(s->n), k = static_cast<int>(s->k);
  if (family == KernelFamily::kCublasFp32) {
    return cublasSgemm(s->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, s->b, n, s->a, k, &beta, c, n);
  }
  if (family == KernelFamily::kCublasBf16) {
    const int ld = static_cast<int>(s->bf16.k_padded);
    return cublasGemmEx(s->cublas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, s->bf16.bt, CUDA_R_16BF, ld, s->bf16.a,
                        CUDA_R_16BF, ld, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  return cublasGemmEx(s->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, s->b, CUDA_R_32F, n, s->a, CUDA_R_32F, k,
                      &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
}

// Fills `copies` from the session's A and B, as Element.
template <typename Element>
void CopyKMajor(const TsSession* s, const KMajorOperands& copies) {
  const size_t a_count = static_cast<size_t>(s->m * copies.k_padded), b_count = static_cast<size_t>(s->n * copies.k_padded);
  ToKMajor<<<BlocksFor(a_count), kThreadsPerBlock, 0, s->stream>>>(s->a, static_cast<Element*>(copies.a), s->m, s->k,
                                                                  copies.k_padded, false);
  ToKMajor<<<BlocksFor(b_count), kThreadsPerBlock, 0, s->stream>>>(s->b, static_cast<Element*>(copies.bt), s->n, s->k,
                                                                  copies.k_padded, true);
}

// Makes the session's K-major operands in BF16 (`bf16`) or FP32 if it has none yet; outside
// any timing.
bool EnsureKMajorOperands(TsSession* s, bool bf16, Check& check) {
  KMajorOperands& copies = bf16 ? s->bf16 : s->fp32;
  if (copies.a != nullptr) return true;
  const long long element_bytes = bf16 ? 2 : 4;
  copies.k_padded = kernels::KMajorRowElements(s->k, element_bytes);  // as the memory check counts them
  const size_t a_count = static_cast<size_t>(s->m * copies.k_padded), b_count = static_cast<size_t>(s->n * copies.k_padded);
  const char* what = bf16 ? "allocating A and B in BF16" : "allocating K-major copies of A and B";
  const bool ok = check.Ok(cudaMalloc(&copies.a, a_count * element_bytes), what) &&
                  check.Ok(cudaMalloc(&copies.bt, b_count * element_bytes), what);
  if (!ok) {
    cudaFree(copies.a);
    copies.a = nullptr;
    return false;
  }
  if (bf16) {
    CopyKMajor<__nv_bfloat16>(s, copies);
  } else {
    CopyKMajor<float>(s, copies);
  }
  return check.Ok(cudaGetLastError(), bf16 ? "converting A and B to BF16" : "copying A and B K-major");
}

// Encodes the tensor maps of the K-major operands in BF16 (`bf16`) or FP32 for `config`'s
// boxes, unless the session holds them already.
bool EnsureTensorMaps(TsSession* s, const kernels::gpu::LaunchConfig& config, bool bf16, Check& check) {
  const KMajorOperands& copies = bf16 ? s->bf16 : s->fp32;
  if (s->map_a_data == copies.a && s->map_rows_a == config.box_rows_a && s->map_rows_b == config.box_rows_b) {
    return true;
  }
  std::string error =
      kernels::gpu::EncodeKMajorTensorMap(s->a_map, copies.a, bf16, s->m, s->k, copies.k_padded, config.box_rows_a);
  if (error.empty()) {
    error = kernels::gpu::EncodeKMajorTensorMap(s->b_map, copies.bt, bf16, s->n, s->k, copies.k_padded,
                                                config.box_rows_b);
  }
  if (!error.empty()) {
    check.message = error;
    s->map_a_data = nullptr;
    return false;
  }
  s->map_a_data = copies.a;
  s->map_rows_a = config.box_rows_a;
  s->map_rows_b = config.box_rows_b;
  return true;
}

// How `kernel` (not a cuBLAS row) launches at this session's shape.
kernels::gpu::LaunchConfig ConfigFor(const TsSession* s, int kernel) {
  return kernels::gpu::LauncherFor(kernel).config(s->limits, static_cast<int>(s->m), static_cast<int>(s->n),
                                                  static_cast<int>(s->k));
}

// Why `kernel` cannot run on this device at all (a tensor-core rung on a GPU older than
// its instructions), or empty.
std::string DeviceError(const kernels::KernelSpec& spec, const kernels::gpu::DeviceLimits& device) {
  if (kernels::RunsOn(spec, device.cc_major, device.cc_minor)) return "";
  const std::string gpu = "this GPU is " + std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
  if (spec.only_that_architecture) {
    return std::string(spec.name) + " needs sm_" + std::to_string(spec.min_compute_capability) +
           " (compute capability " + std::to_string(spec.min_compute_capability / 10) + "." +
           std::to_string(spec.min_compute_capability % 10) + " exactly: its code is built for that GPU alone); " + gpu;
  }
  return std::string(spec.name) + " needs compute capability " + std::to_string(spec.min_compute_capability / 10) +
         "." + std::to_string(spec.min_compute_capability % 10) + " or newer; this GPU is " +
         std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
}

// Why `kernel` cannot run at this session's shape, or empty.
std::string LaunchLimitError(const TsSession* s, int kernel) {
  const kernels::KernelSpec& spec = kKernelTable[kernel];
  const std::string device = DeviceError(spec, s->limits);
  if (!device.empty()) return device;
  const long long int_max = std::numeric_limits<int>::max();
  if (kernels::IsCublasFamily(spec.family)) {
    if (s->m > int_max || s->n > int_max || s->k > int_max) return "cuBLAS takes dimensions below 2^31";
    return "";
  }
  // The teaching kernels index with int: row·K + col must not overflow.
  if (static_cast<long long>(s->a_count) > int_max || static_cast<long long>(s->b_count) > int_max ||
      static_cast<long long>(s->c_count) > int_max) {
    return std::string(spec.name) + " indexes with 32-bit int, and a matrix of " + ShapeText(s->m, s->n, s->k) +
           " has 2^31 elements or more";
  }
  const dim3 grid = ConfigFor(s, kernel).grid;
  if (grid.x > static_cast<unsigned>(s->max_grid_x) || grid.y > static_cast<unsigned>(s->max_grid_y) ||
      grid.z > static_cast<unsigned>(s->max_grid_z)) {
    return std::string(spec.name) + " at " + ShapeText(s->m, s->n, s->k) + " needs a grid of " +
           std::to_string(grid.x) + "×" + std::to_string(grid.y) + "×" + std::to_string(grid.z) +
           " blocks; the device allows " + std::to_string(s->max_grid_x) + "×" + std::to_string(s->max_grid_y) +
           "×" + std::to_string(s->max_grid_z);
  }
  return "";
}

// Launches `kernel` into c; a failure lands in `check`.
bool Launch(TsSession* s, int kernel, float* c, Check& check, const char* what) {
  const kernels::KernelSpec& spec = kKernelTable[kernel];
  if (kernels::IsCublasFamily(spec.family)) return check.Ok(CublasGemm(s, spec.family, c), what);
  const kernels::gpu::Operands operands{s->a, s->b, &s->a_map, &s->b_map};
  return check.Ok(kernels::gpu::LaunchWith(ConfigFor(s, kernel), s->stream, operands, c, static_cast<int>(s->m),
                                           static_cast<int>(s->n), static_cast<int>(s->k)),
                  what);
}

// Readies every kernel of `rows` for its launches at this session's shape, outside any
// timing: BF16 operands for BF16 rows (cuBLAS BF16 too), K-major FP32 ones for the TF32 rows
// that read tensor maps, the maps, shared memory limits.
bool Prepare(TsSession* s, std::initializer_list<int> rows, Check& check) {
  for (int kernel : rows) {
    const bool bf16 = kKernelTable[kernel].precision == kernels::Precision::kBf16;
    if (bf16 && !EnsureKMajorOperands(s, true, check)) return false;
    if (kernels::gpu::LauncherFor(kernel).config == nullptr) continue;
    const kernels::gpu::LaunchConfig config = ConfigFor(s, kernel);
    if (config.TakesTensorMaps() &&
        !(EnsureKMajorOperands(s, bf16, check) && EnsureTensorMaps(s, config, bf16, check))) {
      return false;
    }
    if (!check.Ok(kernels::gpu::PrepareLaunch(config), "raising the shared-memory limit")) return false;
  }
  return true;
}

bool ValidKernel(int kernel) { return kernel >= 0 && kernel < static_cast<int>(kKernelCount); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int ts_abi_version(void) { return TS_GPU_ABI_VERSION; }

__attribute__((visibility("default"))) int ts_kernel_count(void) { return static_cast<int>(kKernelCount); }

__attribute__((visibility("default"))) const char* ts_kernel_name(int kernel) {
  return ValidKernel(kernel) ? kKernelTable[kernel].name : "";
}

__attribute__((visibility("default"))) TsStatus ts_probe(TsDeviceInfo* info, char* error, size_t error_size) {
  *info = TsDeviceInfo{};
  cudaRuntimeGetVersion(&info->runtime_version);
  cudaDriverGetVersion(&info->driver_version);
  if (info->driver_version == 0) {
    SetError(error, error_size, "no NVIDIA driver is installed (libcuda.so.1 not found)");
    return TS_ERROR;
  }
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorInsufficientDriver) {
    SetError(error, error_size,
             "the NVIDIA driver supports CUDA " + std::to_string(info->driver_version / 1000) + "." +
                 std::to_string(info->driver_version % 1000 / 10) + ", older than this build's CUDA runtime " +
                 std::to_string(info->runtime_version / 1000) + "." +
                 std::to_string(info->runtime_version % 1000 / 10) + ": update the driver");
    return TS_ERROR;
  }
  if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
    SetError(error, error_size, "no CUDA device found");
    return TS_ERROR;
  }
  if (status != cudaSuccess) {
    SetError(error, error_size, "cannot query CUDA devices: " + CudaMessage(status));
    return TS_ERROR;
  }
  cudaDeviceProp prop{};
  Check check;
  if (!check.Ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") ||
      !check.Ok(cudaDeviceGetAttribute(&info->clock_khz, cudaDevAttrClockRate, 0), "clock rate") ||
      !check.Ok(cudaDeviceGetAttribute(&info->memory_clock_khz, cudaDevAttrMemoryClockRate, 0), "memory clock") ||
      !check.Ok(cudaDeviceGetAttribute(&info->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0), "bus width")) {
    SetError(error, error_size, check.message);
    return TS_ERROR;
  }
  std::snprintf(info->name, sizeof info->name, "%s", prop.name);
  info->cc_major = prop.major;
  info->cc_minor = prop.minor;
  info->sm_count = prop.multiProcessorCount;
  info->total_memory_bytes = prop.totalGlobalMem;
  info->max_grid_x = prop.maxGridSize[0];
  info->max_grid_y = prop.maxGridSize[1];
  info->max_threads_per_block = prop.maxThreadsPerBlock;
  info->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info->max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  info->registers_per_sm = prop.regsPerMultiprocessor;
  info->max_registers_per_block = prop.regsPerBlock;
  info->shared_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  info->max_shared_per_block_optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  info->shared_reserved_per_block = static_cast<int>(prop.reservedSharedMemPerBlock);
  return TS_OK;
}

__attribute__((visibility("default"))) TsStatus ts_kernel_resources(int kernel, TsKernelResources* resources,
                                                                    char* error, size_t error_size) {
  *resources = TsKernelResources{};
  if (!ValidKernel(kernel) || kernels::gpu::LauncherFor(kernel).config == nullptr) {
    SetError(error, error_size, "no compiled kernel number " + std::to_string(kernel) + " (cuBLAS has none)");
    return TS_ERROR;
  }
  kernels::gpu::DeviceLimits limits;
  Check check;
  if (!check.Ok(cudaDeviceGetAttribute(&limits.sm_count, cudaDevAttrMultiProcessorCount, 0), "SM count") ||
      !check.Ok(cudaDeviceGetAttribute(&limits.shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0),
                "shared memory per SM") ||
      !check.Ok(cudaDeviceGetAttribute(&limits.shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0),
                "shared memory per block") ||
      !check.Ok(cudaDeviceGetAttribute(&limits.cc_major, cudaDevAttrComputeCapabilityMajor, 0), "compute capability") ||
      !check.Ok(cudaDeviceGetAttribute(&limits.cc_minor, cudaDevAttrComputeCapabilityMinor, 0), "compute capability")) {
    SetError(error, error_size, check.message);
    return TS_ERROR;
  }
  // The block a launch uses does not depend on the shape for these rows; one tile's shape asks.
  const kernels::KernelSpec& spec = kKernelTable[kernel];
  const std::string device = DeviceError(spec, limits);
  if (!device.empty()) {
    SetError(error, error_size, device);
    return TS_ERROR;
  }
  const kernels::gpu::LaunchConfig config =
      kernels::gpu::LauncherFor(kernel).config(limits, spec.tile_m, spec.tile_n, spec.tile_k);
  cudaFuncAttributes attributes{};
  resources->threads_per_block = static_cast<int>(config.block.x * config.block.y * config.block.z);
  check.Ok(cudaFuncGetAttributes(&attributes, config.function), "cudaFuncGetAttributes") &&
      check.Ok(kernels::gpu::PrepareLaunch(config), "raising the shared-memory limit") &&
      check.Ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resources->blocks_per_sm, config.function,
                                                             resources->threads_per_block, config.shared_bytes),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!check.message.empty()) {
    SetError(error, error_size, std::string(spec.name) + ": " + check.message);
    return TS_ERROR;
  }
  resources->registers_per_thread = attributes.numRegs;
  resources->static_shared_bytes = static_cast<int>(attributes.sharedSizeBytes);
  return TS_OK;
}

__attribute__((visibility("default"))) void ts_session_destroy(TsSession* session) { Release(session); }

__attribute__((visibility("default"))) TsSession* ts_session_create(long long m, long long n, long long k,
                                                                    unsigned long long seed, const float* a,
                                                                    const float* b, char* error,
                                                                    size_t error_size) {
  auto* s = new TsSession;
  s->m = m;
  s->n = n;
  s->k = k;
  const kernels::DeviceBuffers buffers = kernels::BuffersFor(m, n, k);  // padded: see kernel_table.h
  s->a_count = static_cast<size_t>(buffers.a);
  s->b_count = static_cast<size_t>(buffers.b);
  s->c_count = static_cast<size_t>(buffers.c);
  const double needed = buffers.Bytes();
  Check check;
  size_t free_bytes = 0, total_bytes = 0;
  if (!check.Ok(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo")) {
    SetError(error, error_size, check.message);
    Release(s);
    return nullptr;
  }
  if (needed > static_cast<double>(free_bytes)) {
    char text[256];
    std::snprintf(text, sizeof text, "out of memory at %s: A, B and two C need %.1f GiB, the device has %.1f GiB free",
                  ShapeText(m, n, k).c_str(), needed / kGiB, free_bytes / kGiB);
    SetError(error, error_size, text);
    Release(s);
    return nullptr;
  }
  cudaDeviceProp prop{};
  const bool ok =
      check.Ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") &&
      check.Ok(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking), "cudaStreamCreate") &&
      check.Ok(cudaEventCreate(&s->start), "cudaEventCreate") && check.Ok(cudaEventCreate(&s->stop), "cudaEventCreate") &&
      check.Ok(cudaMalloc(&s->a, s->a_count * sizeof(float)), "allocating A") &&
      check.Ok(cudaMalloc(&s->b, s->b_count * sizeof(float)), "allocating B") &&
      check.Ok(cudaMalloc(&s->c_ref, s->c_count * sizeof(float)), "allocating the reference C") &&
      check.Ok(cudaMalloc(&s->c, s->c_count * sizeof(float)), "allocating C") &&
      check.Ok(cudaMalloc(&s->stats, 2 * sizeof(unsigned long long)), "allocating counters") &&
      check.Ok(cublasCreate(&s->cublas), "cublasCreate") && check.Ok(cublasSetStream(s->cublas, s->stream), "cublasSetStream");
  if (ok) {
    s->max_grid_x = prop.maxGridSize[0];
    s->max_grid_y = prop.maxGridSize[1];
    s->max_grid_z = prop.maxGridSize[2];
    s->limits.sm_count = prop.multiProcessorCount;
    s->limits.shared_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
    s->limits.shared_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
    s->limits.clusters = prop.major >= 9;
    s->limits.cc_major = prop.major;
    s->limits.cc_minor = prop.minor;
    // The padding is filled too: what an out-of-range read sees is then seeded, not stale.
    FillRandom<<<BlocksFor(s->a_count), kThreadsPerBlock, 0, s->stream>>>(s->a, s->a_count, seed, 0);
    FillRandom<<<BlocksFor(s->b_count), kThreadsPerBlock, 0, s->stream>>>(s->b, s->b_count, seed, 1);
    check.Ok(cudaGetLastError(), "filling A and B");
  }
  if (ok && a != nullptr && b != nullptr) {
    check.Ok(cudaMemcpyAsync(s->a, a, m * k * sizeof(float), cudaMemcpyHostToDevice, s->stream), "copying A") &&
        check.Ok(cudaMemcpyAsync(s->b, b, k * n * sizeof(float), cudaMemcpyHostToDevice, s->stream), "copying B");
  }
  if (check.message.empty() && s->m <= std::numeric_limits<int>::max() && s->n <= std::numeric_limits<int>::max() &&
      s->k <= std::numeric_limits<int>::max()) {
    check.Ok(CublasGemm(s, KernelFamily::kCublasFp32, s->c_ref), "cuBLAS reference") &&
        check.Ok(cudaStreamSynchronize(s->stream), "computing the cuBLAS reference");
  } else if (check.message.empty()) {
    check.message = "cuBLAS takes dimensions below 2^31";
  }
  if (!check.message.empty()) {
    // A failed allocation names the shape, so a sweep's table says which size ran out.
    SetError(error, error_size, ShapeText(m, n, k) + ": " + check.message);
    Release(s);
    return nullptr;
  }
  return s;
}

__attribute__((visibility("default"))) TsStatus ts_run(TsSession* s, int kernel, int warmups, int reps,
                                                       double tolerance, TsCancelFn cancel, void* cancel_user,
                                                       TsKernelRun* run, float* c_out, char* error,
                                                       size_t error_size) {
  run->reps_done = 0;
  if (!ValidKernel(kernel)) {
    SetError(error, error_size, "no kernel number " + std::to_string(kernel));
    return TS_ERROR;
  }
  const std::string limit = LaunchLimitError(s, kernel);
  if (!limit.empty()) {
    SetError(error, error_size, limit);
    return TS_ERROR;
  }
  run->threads_per_block = 0;
  run->occupancy_blocks_per_sm = 0;
  Check check;
  Prepare(s, {kernel}, check);
  if (check.message.empty() && kernels::gpu::LauncherFor(kernel).config != nullptr) {
    const kernels::gpu::LaunchConfig config = ConfigFor(s, kernel);
    run->threads_per_block = static_cast<int>(config.block.x * config.block.y * config.block.z);
    check.Ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&run->occupancy_blocks_per_sm, config.function,
                                                               run->threads_per_block, config.shared_bytes),
                 "occupancy");
  }
  const size_t c_elements = static_cast<size_t>(s->m * s->n);
  // Poison C with NaN bits: an element the kernel never writes then fails verification.
  check.Ok(cudaMemsetAsync(s->c, 0xFF, s->c_count * sizeof(float), s->stream), "poisoning C");
  for (int i = 0; i < warmups && check.message.empty(); ++i) {
    if (cancel(cancel_user)) return TS_CANCELLED;
    Launch(s, kernel, s->c, check, "warm-up launch") && check.Ok(cudaStreamSynchronize(s->stream), "warm-up");
  }
  for (int i = 0; i < reps && check.message.empty(); ++i) {
    if (cancel(cancel_user)) return TS_CANCELLED;
    float ms = 0;
    // Events around the launch alone: nothing of the runner's own work is timed.
    if (check.Ok(cudaEventRecord(s->start, s->stream), "cudaEventRecord") &&
        Launch(s, kernel, s->c, check, "launch") && check.Ok(cudaEventRecord(s->stop, s->stream), "cudaEventRecord") &&
        check.Ok(cudaEventSynchronize(s->stop), "kernel") && check.Ok(cudaEventElapsedTime(&ms, s->start, s->stop), "timing")) {
      run->times_ms[run->reps_done++] = ms;
    }
  }
  if (check.message.empty()) {
    unsigned long long stats[2] = {0, 0};
    check.Ok(cudaMemsetAsync(s->stats, 0, sizeof stats, s->stream), "clearing counters") &&
        check.Ok((CompareWithReference<<<BlocksFor(c_elements), kThreadsPerBlock, 0, s->stream>>>(
                      s->c, s->c_ref, c_elements, static_cast<float>(tolerance), s->stats),
                  cudaGetLastError()),
                 "comparing with cuBLAS") &&
        check.Ok(cudaMemcpyAsync(stats, s->stats, sizeof stats, cudaMemcpyDeviceToHost, s->stream), "reading counters") &&
        check.Ok(cudaStreamSynchronize(s->stream), "comparing with cuBLAS");
    float max_error = 0;
    const unsigned int bits = static_cast<unsigned int>(stats[0]);
    std::memcpy(&max_error, &bits, sizeof max_error);
    run->max_abs_error = max_error;
    run->wrong_elements = static_cast<long long>(stats[1]);
  }
  if (check.message.empty() && c_out != nullptr) {
    check.Ok(cudaMemcpy(c_out, s->c, c_elements * sizeof(float), cudaMemcpyDeviceToHost), "copying C back");
  }
  if (!check.message.empty()) {
    SetError(error, error_size, std::string(kKernelTable[kernel].name) + " at " + ShapeText(s->m, s->n, s->k) + ": " +
                                    check.message);
    return TS_ERROR;
  }
  return TS_OK;
}

__attribute__((visibility("default"))) TsStatus ts_race_trial(TsSession* s, int kernel, int baseline,
                                                              long long* differing, char* error, size_t error_size) {
  if (!ValidKernel(kernel) || !ValidKernel(baseline)) {
    SetError(error, error_size, "no such kernel number");
    return TS_ERROR;
  }
  for (int checked : {kernel, baseline}) {
    const std::string limit = LaunchLimitError(s, checked);
    if (!limit.empty()) {
      SetError(error, error_size, limit);
      return TS_ERROR;
    }
  }
  Check check;
  Prepare(s, {kernel, baseline}, check);
  if (check.message.empty() && s->baseline_kernel != baseline) {
    if (s->c_baseline == nullptr) check.Ok(cudaMalloc(&s->c_baseline, s->c_count * sizeof(float)), "allocating the baseline C");
    check.message.empty() && Launch(s, baseline, s->c_baseline, check, "baseline launch") &&
        check.Ok(cudaStreamSynchronize(s->stream), "baseline kernel");
    if (check.message.empty()) s->baseline_kernel = baseline;
  }
  const size_t c_elements = static_cast<size_t>(s->m * s->n);
  unsigned long long stats[2] = {0, 0};
  check.message.empty() && check.Ok(cudaMemsetAsync(s->c, 0xFF, s->c_count * sizeof(float), s->stream), "poisoning C") &&
      Launch(s, kernel, s->c, check, "launch") &&
      check.Ok(cudaMemsetAsync(s->stats, 0, sizeof stats, s->stream), "clearing counters") &&
      check.Ok((CountDifferingBits<<<BlocksFor(c_elements), kThreadsPerBlock, 0, s->stream>>>(s->c, s->c_baseline,
                                                                                              c_elements, s->stats),
                cudaGetLastError()),
               "comparing with the baseline") &&
      check.Ok(cudaMemcpyAsync(stats, s->stats, sizeof stats, cudaMemcpyDeviceToHost, s->stream), "reading counters") &&
      check.Ok(cudaStreamSynchronize(s->stream), "race trial");
  if (!check.message.empty()) {
    SetError(error, error_size, std::string(kKernelTable[kernel].name) + " at " + ShapeText(s->m, s->n, s->k) + ": " +
                                    check.message);
    return TS_ERROR;
  }
  *differing = static_cast<long long>(stats[1]);
  return TS_OK;
}

__attribute__((visibility("default"))) TsStatus ts_mma_fragment(int operand, const int* cells, float* lanes,
                                                                char* error, size_t error_size) {
  constexpr int kCellInts = 3 * 32 * 4 * 2, kLanesFloats = 16 * 8;
  int major = 0;
  Check check;
  if (operand < 0 || operand > 1) check.message = "no operand " + std::to_string(operand) + " to probe (0 A, 1 B)";
  check.Ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), "compute capability");
  if (check.message.empty() && major < 8) check.message = "mma.sync with TF32 needs compute capability 8.0 or newer";
  int* device_cells = nullptr;
  float* device_lanes = nullptr;
  check.message.empty() && check.Ok(cudaMalloc(&device_cells, kCellInts * sizeof(int)), "allocating the cells") &&
      check.Ok(cudaMalloc(&device_lanes, kLanesFloats * sizeof(float)), "allocating the result") &&
      check.Ok(cudaMemcpy(device_cells, cells, kCellInts * sizeof(int), cudaMemcpyHostToDevice), "copying the cells") &&
      check.Ok(cudaMemset(device_lanes, 0xFF, kLanesFloats * sizeof(float)), "poisoning the result with NaN") &&
      check.Ok((MmaFragmentProbe<<<1, 32>>>(operand, device_cells, device_lanes), cudaGetLastError()), "mma probe") &&
      check.Ok(cudaMemcpy(lanes, device_lanes, kLanesFloats * sizeof(float), cudaMemcpyDeviceToHost), "mma probe");
  cudaFree(device_cells);
  cudaFree(device_lanes);
  if (check.message.empty()) return TS_OK;
  SetError(error, error_size, check.message);
  return TS_ERROR;
}

__attribute__((visibility("default"))) TsStatus ts_context_error(char* error, size_t error_size) {
  // A non-sticky error (a bad launch configuration) is cleared by reading it; a sticky one
  // stays and fails every later call, so the second synchronize still reports it.
  cudaGetLastError();
  const cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess) return TS_OK;
  cudaGetLastError();
  const cudaError_t again = cudaDeviceSynchronize();
  if (again == cudaSuccess) return TS_OK;
  SetError(error, error_size, CudaMessage(again));
  return TS_ERROR;
}

__attribute__((visibility("default"))) TsStatus ts_test_kernel(int which, char* error, size_t error_size) {
  int* buffer = nullptr;
  Check check;
  if (check.Ok(cudaMalloc(&buffer, sizeof(float)), "allocating the test buffer")) {
    if (which == TS_TEST_FAULT) {
      WriteFarOutOfBounds<<<1, 1>>>(reinterpret_cast<float*>(buffer));
    } else {
      constexpr unsigned long long kMinute = 60ull * 1000 * 1000 * 1000;
      SpinFor<<<1, 1>>>(kMinute, buffer);
    }
    check.Ok(cudaGetLastError(), "test launch") && check.Ok(cudaDeviceSynchronize(), "test kernel");
    cudaFree(buffer);
  }
  if (check.message.empty()) return TS_OK;
  SetError(error, error_size, check.message);
  return TS_ERROR;
}

__attribute__((visibility("default"))) TsStatus ts_test_hold_memory(unsigned long long leave_bytes,
                                                                    unsigned long long* held_bytes, char* error,
                                                                    size_t error_size) {
  *held_bytes = 0;
  size_t free_bytes = 0, total_bytes = 0;
  Check check;
  if (check.Ok(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo") && free_bytes > leave_bytes) {
    void* held = nullptr;  // kept until the process ends: that is the point
    if (check.Ok(cudaMalloc(&held, free_bytes - leave_bytes), "holding device memory")) {
      *held_bytes = free_bytes - leave_bytes;
    }
  }
  if (check.message.empty()) return TS_OK;
  SetError(error, error_size, check.message);
  return TS_ERROR;
}

}  // extern "C"
