// device.h — is there a GPU to run on, and what is it. Plain C++: the answer comes from
// the GPU module, opened at run time, so a PC without CUDA gets a reason, not a crash.
#pragma once
#include <cstdint>
#include <string>

#include "kernels/kernel_table.h"

namespace kernels {

struct DeviceInfo {
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double clock_mhz = 0;  // from cudaDevAttrClockRate (CUDA 13 dropped cudaDeviceProp::clockRate)
  double memory_clock_mhz = 0;
  int bus_width_bits = 0;
  std::uint64_t total_memory_bytes = 0;
  double memory_bandwidth_gbs = 0;  // 2 (double data rate) · memory clock · bus width; 0 if unknown
  int fp32_lanes_per_sm = 0;        // from the table in Fp32LanesPerSm; 0 if the cc is unknown
  double fp32_peak_gflops = 0;      // SMs · lanes · 2 (an FMA is two flops) · clock
  // Measured, not derived: a buffer that fits in L2 read over and over by every SM (the GPU
  // module's probe, run by a sweep); 0 where it was not measured (results saved before).
  double l2_bandwidth_gbs = 0;
  int max_grid_x = 0;
  int max_grid_y = 0;
  // What one SM holds, for the occupancy view (kernels/occupancy.h).
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int max_registers_per_block = 0;
  int shared_per_sm = 0;
  int max_shared_per_block_optin = 0;
  int shared_reserved_per_block = 0;
};

// FP32 lanes per SM by compute capability (CUDA C Programming Guide, arithmetic
// instructions table); 0 for a capability the table does not know.
int Fp32LanesPerSm(int cc_major, int cc_minor);

// Dense tensor-core flops per SM per clock with TF32 or BF16 inputs and FP32 accumulation,
// by compute capability, from NVIDIA's datasheets: A100 312 (BF16) and 156 (TF32) TFLOPS at
// 108 SMs and 1410 MHz; H100 SXM 989.4 and 494.7 at 132 SMs and 1830 MHz. 0 for FP32 and for
// a capability the table does not know (GeForce parts of one capability halve the rate).
int TensorFlopsPerSmPerClock(int cc_major, int cc_minor, Precision precision);

// The device's peak in `precision`: the FP32 peak on the CUDA cores, or SMs · tensor flops
// per SM per clock · clock on the tensor cores, at the same clock as the FP32 peak (so above
// a datasheet that quotes the tensor cores at a lower clock); 0 where unknown.
double PeakGflops(const DeviceInfo& device, Precision precision);
// "FP32 peak", "TF32 tensor peak", "BF16 tensor peak".
const char* PeakName(Precision precision);

struct GpuStatus {
  bool available = false;
  // Why not, when not, in words a student at the window needs (module missing, libcudart
  // missing, no driver, no device): no file paths, which the GUI would show to the room.
  std::string reason;
  // What an administrator needs besides: the module file looked for or the loader's own
  // error, paths included; "" when the reason says it all. The command line and About show it.
  std::string detail;
  DeviceInfo device;
  std::string runtime_version;  // "13.0", or empty
  std::string driver_version;   // CUDA version the driver supports, "13.0", or empty
  std::string module_path;

  // "reason (detail)", or the reason alone.
  std::string Explained() const { return detail.empty() ? reason : reason + " (" + detail + ")"; }
};

// Opens libtilescope_gpu.so (DefaultGpuModulePath) once and asks it for device 0.
// Cached: later calls return the same object. Thread-safe.
const GpuStatus& ProbeGpu();

// The same, for the module at `path`, not cached (tests, and a hint where the module is).
GpuStatus ProbeGpuModuleAt(const std::string& path);

// Where ProbeGpu looks for the module, from the executable's path (/proc/self/exe):
// <prefix>/lib/tilescope/gpu/ for an installed <prefix>/bin/tilescope, else beside the binary.
std::string DefaultGpuModulePath();

// "13.0" from CUDA's 13000.
std::string CudaVersionString(int version);

}  // namespace kernels
