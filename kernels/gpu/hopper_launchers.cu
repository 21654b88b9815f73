// hopper_launchers.cu — launch configurations and tensor maps of the sm_90a rungs. Compiled
// for sm_90a only (kernels/CMakeLists.txt), so that wgmma and the TMA copies compile; the
// kernels' bodies are empty for any other target (they test __CUDA_ARCH_FEAT_SM90_ALL).
#include <cudaTypedefs.h>

#include "kernels/14_wgmma_bf16.cu"
#include "kernels/15_warp_specialized.cu"
#include "kernels/16_wgmma_tf32.cu"
#include "kernels/17_staged_epilogue.cu"
#include "kernels/gpu/hopper_launchers.h"

namespace kernels::gpu {
namespace {

static_assert(wgmma_bf16::kBK * wgmma_bf16::kElementBytes == kHopperBoxBytes &&
                  warp_specialized::Pipeline::kBK * warp_specialized::Pipeline::kElementBytes == kHopperBoxBytes &&
                  wgmma_tf32::Pipeline::kBK * wgmma_tf32::Pipeline::kElementBytes == kHopperBoxBytes &&
                  staged_epilogue::Pipeline::kBK * staged_epilogue::Pipeline::kElementBytes == kHopperBoxBytes,
              "14 to 17 read one box row per stage row");

unsigned Blocks(long long extent, int tile) { return static_cast<unsigned>((extent + tile - 1) / tile); }

// The driver's cuTensorMapEncodeTiled, through the runtime: the module links no libcuda.
PFN_cuTensorMapEncodeTiled_v12000 EncodeTiled(std::string& error) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
    error = "the driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12 or newer)";
    return nullptr;
  }
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}

// A persistent grid of at most one block per SM, for a kernel of block tile kBM × kBN.
template <int kBM, int kBN>
LaunchConfig PersistentConfig(const void* function, int threads, unsigned shared_bytes, const DeviceLimits& device,
                              int m, int n) {
  LaunchConfig config;
  config.function = function;
  const unsigned tiles = Blocks(n, kBN) * Blocks(m, kBM);
  config.grid = dim3(tiles < static_cast<unsigned>(device.sm_count) ? tiles : static_cast<unsigned>(device.sm_count));
  config.block = dim3(threads);
  config.shared_bytes = shared_bytes;
  config.box_rows_a = kBM;
  config.box_rows_b = kBN;
  return config;
}

}  // namespace

LaunchConfig WgmmaBf16Config(const DeviceLimits&, int m, int n, int) {
  namespace w = wgmma_bf16;
  LaunchConfig config;
  config.function = reinterpret_cast<const void*>(wgmma_bf16_matmul);
  config.grid = dim3(Blocks(n, w::kBN), Blocks(m, w::kBM));
  config.block = dim3(w::kThreads);
  config.shared_bytes = w::kSharedBytes;
  config.box_rows_a = w::kBM;
  config.box_rows_b = w::kBN;
  return config;
}

LaunchConfig WarpSpecializedConfig(const DeviceLimits& device, int m, int n, int) {
  using P = warp_specialized::Pipeline;
  return PersistentConfig<P::kBM, P::kBN>(reinterpret_cast<const void*>(warp_specialized_matmul), P::kThreads,
                                          P::kSharedBytes, device, m, n);
}

LaunchConfig WgmmaTf32Config(const DeviceLimits& device, int m, int n, int) {
  using P = wgmma_tf32::Pipeline;
  return PersistentConfig<P::kBM, P::kBN>(reinterpret_cast<const void*>(wgmma_tf32_matmul), P::kThreads,
                                          P::kSharedBytes, device, m, n);
}

LaunchConfig StagedEpilogueConfig(const DeviceLimits& device, int m, int n, int) {
  using P = staged_epilogue::Pipeline;
  return PersistentConfig<P::kBM, P::kBN>(reinterpret_cast<const void*>(staged_epilogue_matmul), P::kThreads,
                                          P::kSharedBytes, device, m, n);
}

std::string EncodeKMajorTensorMap(CUtensorMap& map, const void* data, bool bf16, long long rows, long long cols,
                                  long long row_stride, int box_rows) {
  std::string error;
  const PFN_cuTensorMapEncodeTiled_v12000 encode = EncodeTiled(error);
  if (encode == nullptr) return error;
  const cuuint64_t element_bytes = bf16 ? 2 : 4;
  const cuuint64_t sizes[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_stride) * element_bytes};  // bytes from row to row
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(kHopperBoxBytes / element_bytes),
                             static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult status =
      encode(&map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<void*>(data),
             sizes, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status == CUDA_SUCCESS) return "";
  return "cuTensorMapEncodeTiled failed (CUresult " + std::to_string(static_cast<int>(status)) + ") for a " +
         std::to_string(rows) + "×" + std::to_string(cols) + (bf16 ? " BF16" : " FP32") + " matrix";
}

}  // namespace kernels::gpu
