// occupancy.h — the occupancy view (sim/model/occupancy.h) for the GPU in this machine: its limits
// read from the device, a compiled kernel's registers from cudaFuncGetAttributes, and the
// device's own blocks-per-SM answer to check the model against.
#pragma once
#include <optional>
#include <string>

#include "kernels/device.h"
#include "kernels/kernel_table.h"
#include "sim/model/occupancy.h"

namespace kernels {

// The device's limits as the model takes them; the allocation rules (units, sub-partitions)
// follow its compute capability. Nullopt, with the reason, for no device or one before 7.5.
std::optional<sim::GpuLimits> LimitsOf(const DeviceInfo& device, std::string& reason);
std::optional<sim::GpuLimits> PresentGpuLimits(std::string& reason);

// What the device says about one compiled kernel.
struct DeviceKernelResources {
  int registers_per_thread = 0;  // cudaFuncGetAttributes::numRegs
  int static_shared_bytes = 0;   // cudaFuncGetAttributes::sharedSizeBytes
  int threads_per_block = 0;     // the block it launches with
  int blocks_per_sm = 0;         // cudaOccupancyMaxActiveBlocksPerMultiprocessor
};
std::optional<DeviceKernelResources> MeasureOnDevice(const KernelSpec& kernel, std::string& error);

// The occupancy of a teaching kernel on the present GPU: the model's arithmetic with the
// registers the device reports for its compiled kernel (the recorded figure where the
// device cannot say, e.g. a tile with no compiled kernel has neither).
struct PresentOccupancy {
  sim::GpuLimits gpu;
  sim::Occupancy occupancy;
  std::string registers_from;  // "cudaFuncGetAttributes" or "ptxas at build time" or "unknown"
};
std::optional<PresentOccupancy> OccupancyOnPresentGpu(const sim::KernelChoice& choice, std::string& reason);

}  // namespace kernels
