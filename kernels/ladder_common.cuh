// ladder_common.cuh — what every rung of the kernel ladder (04_… to 12_…) shares: guarded
// loads and stores of row-major matrices, and the cp.async copy the later rungs use.
//
// Every rung computes C(M×N) = A(M×K) · B(K×N), all row-major, for any M, N, K: a tile
// that hangs over an edge reads zeros there and stores only its elements inside C. A
// 128-bit access needs its address 16-byte aligned, so the vector paths are taken only
// when a row's length is a multiple of 4 floats and the matrix starts 16-byte aligned;
// otherwise the same chunk goes element by element.
#pragma once
#include <cstdint>

namespace ladder {

// Floats one 128-bit access moves.
constexpr int kVec = 4;

// An SM's register file (sm_70 to sm_90), in 32-bit registers.
constexpr int kRegistersPerSm = 64 * 1024;

// The blocks per SM to promise __launch_bounds__ so that the compiler keeps each of
// `threads` threads within `registers` registers (at least 1).
constexpr int BlocksWithin(int threads, int registers) {
  return kRegistersPerSm / (threads * registers) > 0 ? kRegistersPerSm / (threads * registers) : 1;
}

// True when 128-bit accesses to a row-major matrix with `cols` columns stay aligned.
__device__ __forceinline__ bool VectorAligned(const float* matrix, int cols) {
  return cols % kVec == 0 && (reinterpret_cast<std::uintptr_t>(matrix) % (kVec * sizeof(float))) == 0;
}

// Element (row, col) of a rows×cols row-major matrix, or 0 outside it.
__device__ __forceinline__ float LoadGuarded(const float* matrix, int rows, int cols, int row, int col) {
  return (row < rows && col < cols) ? matrix[row * cols + col] : 0.0f;
}

// Elements (row, col … col+3): one 128-bit load when the chunk lies inside and aligned,
// else element by element with zeros outside.
__device__ __forceinline__ float4 LoadFloat4Guarded(const float* matrix, int rows, int cols, int row, int col,
                                                    bool aligned) {
  if (aligned && row < rows && col + kVec <= cols) {
    return *reinterpret_cast<const float4*>(matrix + row * cols + col);
  }
  return make_float4(LoadGuarded(matrix, rows, cols, row, col), LoadGuarded(matrix, rows, cols, row, col + 1),
                     LoadGuarded(matrix, rows, cols, row, col + 2), LoadGuarded(matrix, rows, cols, row, col + 3));
}

// Stores (row, col … col+3) of C, only the elements inside it.
__device__ __forceinline__ void StoreFloat4Guarded(float* matrix, int rows, int cols, int row, int col, float4 value,
                                                   bool aligned) {
  if (row >= rows) return;
  float* out = matrix + row * cols + col;
  if (aligned && col + kVec <= cols) {
    *reinterpret_cast<float4*>(out) = value;
    return;
  }
  const float parts[kVec] = {value.x, value.y, value.z, value.w};
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    if (col + i < cols) out[i] = parts[i];
  }
}

// --- cp.async (sm_80 and later): global → shared without passing through registers. ---
// Before sm_80 (classroom GPUs, sm_75) the same calls copy through registers at once, so
// the rungs that use them still build and compute the same C there, only without overlap.

__device__ __forceinline__ unsigned SharedAddress(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}

// Copies `bytes` of 16 from `source` and zero-fills the rest of the 16 bytes at `target`
// (bytes = 0: zeros only; `source` must still be a valid address, it is not read).
__device__ __forceinline__ void CopyAsync16(float* target, const float* source, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  *reinterpret_cast<float4*>(target) =
      bytes > 0 ? *reinterpret_cast<const float4*>(source) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#else
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(SharedAddress(target)), "l"(source), "r"(bytes));
#endif
}

// The 4-byte form, for rows whose length is not a multiple of 4 floats.
__device__ __forceinline__ void CopyAsync4(float* target, const float* source, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  *target = bytes > 0 ? *source : 0.0f;
#else
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(SharedAddress(target)), "l"(source), "r"(bytes));
#endif
}

// Copies elements (row, col … col+3) of a rows×cols matrix to `target`, zeros outside it.
__device__ __forceinline__ void CopyFloat4Async(float* target, const float* matrix, int rows, int cols, int row,
                                                int col, bool aligned) {
  if (aligned) {
    const bool inside = row < rows && col < cols;  // aligned rows: a chunk is wholly in or out
    CopyAsync16(target, inside ? matrix + row * cols + col : matrix, inside ? 16 : 0);
    return;
  }
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    const bool inside = row < rows && col + i < cols;
    CopyAsync4(target + i, inside ? matrix + row * cols + col + i : matrix, inside ? 4 : 0);
  }
}

// Closes the group of copies this thread issued since the last commit.
__device__ __forceinline__ void CommitCopies() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

// Waits until at most `kPending` of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void WaitCopies() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

}  // namespace ladder
