/* gpu_abi.h — the C interface between the plain C++ `kernels` library and the GPU module
 * libtilescope_gpu.so, which the app opens with dlopen at run time (gpu_module.cpp).
 *
 * Plain C so the two sides need not share a C++ ABI; only what crosses is here. A kernel
 * is named by its row in kKernelTable (kernel_table.h); the loader checks the module's
 * table names against its own, so a module from another build is refused, not misused.
 * Functions that can fail return a TsStatus and write a message into `error`. */
#ifndef TILESCOPE_KERNELS_GPU_ABI_H
#define TILESCOPE_KERNELS_GPU_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TS_GPU_ABI_VERSION 5

typedef enum TsStatus { TS_OK = 0, TS_CANCELLED = 1, TS_ERROR = 2 } TsStatus;

typedef struct TsDeviceInfo {
  char name[256];
  int cc_major;
  int cc_minor;
  int sm_count;
  int clock_khz;         /* cudaDevAttrClockRate */
  int memory_clock_khz;  /* cudaDevAttrMemoryClockRate; 0 where the device does not say */
  int bus_width_bits;    /* cudaDevAttrGlobalMemoryBusWidth */
  unsigned long long total_memory_bytes;
  int max_grid_x;
  int max_grid_y;
  int runtime_version; /* cudaRuntimeGetVersion: 1000·major + 10·minor */
  int driver_version;  /* cudaDriverGetVersion; 0 without a driver */
  /* What one SM holds (the occupancy view's limits for the present GPU). */
  int max_threads_per_block;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int registers_per_sm;
  int max_registers_per_block;
  int shared_per_sm;               /* bytes: cudaDevAttrMaxSharedMemoryPerMultiprocessor */
  int max_shared_per_block_optin;  /* bytes */
  int shared_reserved_per_block;   /* bytes: cudaDevAttrReservedSharedMemoryPerBlock */
} TsDeviceInfo;

/* What the compiled kernel asks of an SM (cudaFuncGetAttributes), and how many of its
 * blocks the device says fit on one (cudaOccupancyMaxActiveBlocksPerMultiprocessor at the
 * block size it launches with). */
typedef struct TsKernelResources {
  int registers_per_thread;
  int static_shared_bytes;
  int threads_per_block;
  int blocks_per_sm;
} TsKernelResources;

/* Nonzero asks the module to stop before its next launch. */
typedef int (*TsCancelFn)(void* user);

typedef struct TsKernelRun {
  double* times_ms;   /* caller's buffer of `reps` entries */
  int reps_done;
  double max_abs_error;  /* vs cuBLAS FP32; NaN if an element is NaN or never written */
  long long wrong_elements;  /* |C − C_ref| > tolerance, NaN included */
  int occupancy_blocks_per_sm; /* 0 for cuBLAS */
  int threads_per_block;
} TsKernelRun;

typedef struct TsSession TsSession;

typedef int (*TsAbiVersionFn)(void);
typedef int (*TsKernelCountFn)(void);
typedef const char* (*TsKernelNameFn)(int kernel);

/* Device 0's description, or why there is none (no driver, driver too old, no device). */
typedef TsStatus (*TsProbeFn)(TsDeviceInfo* info, char* error, size_t error_size);

/* Resources of `kernel` (a teaching or ladder row; cuBLAS rows are an error). */
typedef TsStatus (*TsKernelResourcesFn)(int kernel, TsKernelResources* resources, char* error, size_t error_size);

/* Buffers for C = A·B at one shape, and the cuBLAS FP32 reference C. With a and b null,
 * A and B are seeded random values in [-1, 1) (random_fill.h); otherwise copied from the
 * host (row-major M×K and K×N). Fails with a message on a lack of memory. */
typedef TsSession* (*TsSessionCreateFn)(long long m, long long n, long long k, unsigned long long seed,
                                        const float* a, const float* b, char* error, size_t error_size);
typedef void (*TsSessionDestroyFn)(TsSession* session);

/* Warm-ups, then `reps` launches each timed by CUDA events, then C checked against the
 * reference. `cancel` is asked before every launch. With c_out set, C (M×N) is copied
 * there. */
typedef TsStatus (*TsRunFn)(TsSession* session, int kernel, int warmups, int reps, double tolerance,
                            TsCancelFn cancel, void* cancel_user, TsKernelRun* run, float* c_out, char* error,
                            size_t error_size);

/* One race trial: runs `kernel` and counts elements of C not bit-identical to the result
 * of `baseline` (computed once per session and baseline). */
typedef TsStatus (*TsRaceTrialFn)(TsSession* session, int kernel, int baseline, long long* differing, char* error,
                                  size_t error_size);

/* A student's kernel file (already stripped of host code) compiled with NVRTC for the present
 * GPU and launched as the model's check launched it: A and B copied in, C zeroed (as after
 * cudaMemset), one launch whose C is copied to `c_out` (M×N), then `warmups` and `reps` more
 * launches, each of the latter timed by CUDA events into `times_ms`. A compile error is
 * TS_ERROR with NVRTC's log. */
typedef enum TsArgumentKind { TS_ARG_INT = 0, TS_ARG_A = 1, TS_ARG_B = 2, TS_ARG_C = 3 } TsArgumentKind;
typedef struct TsStudentLaunch {
  const char* source;
  const char* file_name;        /* NVRTC's messages name it */
  const char* name_expression;  /* "tiled" or "tiled<16>" */
  const char* const* options;   /* extra NVRTC options ("-DTILE=16") */
  int option_count;
  long long m, n, k;
  int grid[3];
  int block[3];
  const int* argument_kinds;  /* per kernel parameter: a TsArgumentKind */
  const int* argument_values; /* the int's value, for TS_ARG_INT */
  int parameter_count;
  const float* a; /* M×K */
  const float* b; /* K×N */
  int warmups;
  int reps;
} TsStudentLaunch;
typedef TsStatus (*TsStudentRunFn)(const TsStudentLaunch* launch, float* c_out, double* times_ms, char* error,
                                   size_t error_size);

/* Whether the process's CUDA context still works after an error: TS_OK, or TS_ERROR with
 * the sticky error (an illegal address, a launch failure) that only the process's exit
 * clears. The GPU worker asks after every failure and exits on a sticky one. */
typedef TsStatus (*TsContextErrorFn)(char* error, size_t error_size);

/* One mma.sync.aligned.m16n8k8 TF32 on one warp, to see where the tensor cores place each
 * lane's fragment: lane l puts 4·l + r into register r of its fragment of `operand` (0 A,
 * 1 B); the other is an identity (B = I for A's probe: D = A; A's rows 0–7 = I for B's:
 * D's rows 0–7 = B), C is zero. `cells` says where register r of lane l lies in operand o's
 * matrix (o: 0 A, 1 B, 2 C and D), as the caller's layout claims: cells[((o·32 + l)·4 + r)·2]
 * its row, the next int its column (4 slots per lane; B uses 2). The identity is placed, and
 * D stored into `lanes` (16×8, row-major), by those cells; a cell outside the matrix is not
 * stored. So `lanes` equals the claimed layout of the operand only if the claims for it, for
 * the identity's operand and for D all hold on this GPU. Needs sm_80. */
typedef TsStatus (*TsMmaFragmentFn)(int operand, const int* cells, float* lanes, char* error, size_t error_size);

/* The device's L2 bandwidth in GB/s, measured: a buffer held in L2 read over and over by
 * every SM (l2_probe.cu). A few milliseconds of the GPU. */
typedef TsStatus (*TsL2BandwidthFn)(double* gbs, char* error, size_t error_size);

/* Test hooks, reached only through the worker's test entry (worker_protocol.h): */
typedef enum TsTestKernel {
  TS_TEST_FAULT = 0, /* a write far out of bounds: an illegal address, for certain */
  TS_TEST_HANG = 1   /* a launch that spins for a minute, deaf to Cancel */
} TsTestKernel;
typedef TsStatus (*TsTestKernelFn)(int which, char* error, size_t error_size);
/* Allocates all but `leave_bytes` of the device's free memory and keeps it until the
 * process ends: another program's allocation, for the out-of-memory test. */
typedef TsStatus (*TsTestHoldMemoryFn)(unsigned long long leave_bytes, unsigned long long* held_bytes, char* error,
                                       size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* TILESCOPE_KERNELS_GPU_ABI_H */
