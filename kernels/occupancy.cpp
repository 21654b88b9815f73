#include "kernels/occupancy.h"

#include "kernels/gpu_module.h"
#include "kernels/registry.h"

namespace kernels {

std::optional<sim::GpuLimits> LimitsOf(const DeviceInfo& device, std::string& reason) {
  sim::GpuLimits gpu;
  gpu.key = "present";
  gpu.name = device.name + " (cc " + std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor) + ")";
  gpu.cc_major = device.cc_major;
  gpu.cc_minor = device.cc_minor;
  gpu.max_threads_per_block = device.max_threads_per_block;
  gpu.max_threads_per_sm = device.max_threads_per_sm;
  gpu.max_warps_per_sm = device.max_threads_per_sm / 32;
  gpu.max_blocks_per_sm = device.max_blocks_per_sm;
  gpu.registers_per_sm = device.registers_per_sm;
  gpu.max_registers_per_block = device.max_registers_per_block;
  gpu.max_registers_per_thread = 255;  // every architecture nvcc 13 targets
  gpu.shared_per_sm = device.shared_per_sm;
  gpu.max_shared_per_block = device.max_shared_per_block_optin;
  gpu.shared_reserved_per_block = device.shared_reserved_per_block;
  if (!sim::FillAllocationRules(gpu)) {
    reason = gpu.name + ": the occupancy rules are known from compute capability 7.5 on";
    return std::nullopt;
  }
  // The device's own reservation wins over the capability's rule (FillAllocationRules
  // keeps a nonzero one).
  gpu.shared_reserved_per_block = device.shared_reserved_per_block;
  return gpu;
}

std::optional<sim::GpuLimits> PresentGpuLimits(std::string& reason) {
  const GpuStatus& status = ProbeGpu();
  if (!status.available) {
    reason = status.reason;
    return std::nullopt;
  }
  return LimitsOf(status.device, reason);
}

std::optional<DeviceKernelResources> MeasureOnDevice(const KernelSpec& kernel, std::string& error) {
  const GpuModule* module = ActiveGpuModule();
  if (module == nullptr) {
    error = ProbeGpu().reason;
    return std::nullopt;
  }
  TsKernelResources raw{};
  char message[1024] = {};
  if (module->kernel_resources(KernelIndex(kernel), &raw, message, sizeof message) != TS_OK) {
    error = message;
    return std::nullopt;
  }
  return DeviceKernelResources{raw.registers_per_thread, raw.static_shared_bytes, raw.threads_per_block,
                               raw.blocks_per_sm};
}

std::optional<PresentOccupancy> OccupancyOnPresentGpu(const sim::KernelChoice& choice, std::string& reason) {
  std::optional<sim::GpuLimits> gpu = PresentGpuLimits(reason);
  if (!gpu) return std::nullopt;
  PresentOccupancy present{*gpu, {}, "unknown"};
  sim::BlockDemand demand = sim::DemandOf(choice);
  std::string ignored;
  const KernelSpec* compiled = FindKernel(sim::CompiledKernelName(choice));
  const std::optional<DeviceKernelResources> measured =
      compiled != nullptr ? MeasureOnDevice(*compiled, ignored) : std::nullopt;
  if (measured) {
    demand.registers_per_thread = measured->registers_per_thread;
    present.registers_from = "cudaFuncGetAttributes";
  } else if (auto recorded = sim::RecordedRegisters(sim::CompiledKernelName(choice), gpu->cc_major, gpu->cc_minor)) {
    demand.registers_per_thread = *recorded;
    present.registers_from = "ptxas at build time";
  }
  present.occupancy = sim::ComputeOccupancy(demand, *gpu);
  return present;
}

}  // namespace kernels
