#include "sim/model/occupancy.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "sim/model/kernel_source_data.h"

namespace sim {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kBytesPerFloat = 4;
constexpr int kKiB = 1024;
// The naive kernel's only compiled block edge (kernels/kernel_table.h: kNaiveBlock).
constexpr int kCompiledNaiveBlock = 16;

int CeilDiv(int a, int b) { return (a + b - 1) / b; }
int RoundUp(int a, int unit) { return CeilDiv(a, unit) * unit; }

// The programming guide's table, per compute capability: resident threads, warps and blocks
// per SM, the register file, and shared memory per SM and per block (opt-in maximum).
GpuLimits Classroom(const char* key, const char* name, int major, int minor, int threads_per_sm, int blocks_per_sm,
                    int shared_per_sm_kib, int shared_per_block_kib) {
  GpuLimits limits;
  limits.key = key;
  limits.name = name;
  limits.cc_major = major;
  limits.cc_minor = minor;
  limits.max_threads_per_block = 1024;
  limits.max_threads_per_sm = threads_per_sm;
  limits.max_warps_per_sm = threads_per_sm / kWarpLanes;
  limits.max_blocks_per_sm = blocks_per_sm;
  limits.registers_per_sm = 64 * kKiB;
  limits.max_registers_per_block = 64 * kKiB;
  limits.max_registers_per_thread = 255;
  limits.shared_per_sm = shared_per_sm_kib * kKiB;
  limits.max_shared_per_block = shared_per_block_kib * kKiB;
  FillAllocationRules(limits);
  return limits;
}

const nlohmann::json& RecordedTable() {
  static const nlohmann::json table = nlohmann::json::parse(embedded::kKernelResources, nullptr, false);
  return table;
}

const nlohmann::json* RecordedKernel(std::string_view name) {
  const nlohmann::json& table = RecordedTable();
  if (!table.is_object() || !table.contains("kernels")) return nullptr;
  const auto found = table["kernels"].find(std::string(name));
  return found == table["kernels"].end() ? nullptr : &*found;
}

ResourceLimit Limit(Resource resource, int blocks, std::string working) {
  return {resource, true, blocks, std::move(working)};
}

ResourceLimit RegisterLimit(const BlockDemand& demand, const GpuLimits& gpu, int warps, int& per_warp) {
  if (demand.registers_per_thread <= 0) return {Resource::kRegisters, false, INT_MAX, "registers per thread unknown"};
  per_warp = RoundUp(demand.registers_per_thread * kWarpLanes, gpu.register_unit);
  const std::string rounded = std::to_string(demand.registers_per_thread) + " regs × 32 lanes → " +
                              std::to_string(per_warp) + " per warp (units of " + std::to_string(gpu.register_unit) + ")";
  // The hardware checks a block's registers as if its warps filled every sub-partition evenly.
  const int assumed = per_warp * RoundUp(warps, gpu.sub_partitions);
  if (demand.registers_per_thread > gpu.max_registers_per_thread || assumed > gpu.max_registers_per_block) {
    return Limit(Resource::kRegisters, 0, rounded + "; a block needs more than " +
                                              std::to_string(gpu.max_registers_per_block) + " registers");
  }
  const int per_partition = gpu.registers_per_sm / gpu.sub_partitions;
  const int warps_per_partition = per_partition / per_warp;
  const int blocks = warps_per_partition * gpu.sub_partitions / warps;
  return Limit(Resource::kRegisters, blocks,
               rounded + "; " + std::to_string(per_partition) + " per sub-partition / " + std::to_string(per_warp) +
                   " = " + std::to_string(warps_per_partition) + " warps × " + std::to_string(gpu.sub_partitions) +
                   " / " + std::to_string(warps) + " warps per block = " + std::to_string(blocks));
}

ResourceLimit SharedLimit(const BlockDemand& demand, const GpuLimits& gpu, int& per_block) {
  if (demand.shared_bytes == 0) {
    per_block = 0;
    return {Resource::kSharedMemory, false, INT_MAX, "no shared memory"};
  }
  per_block = RoundUp(demand.shared_bytes + gpu.shared_reserved_per_block, gpu.shared_unit);
  std::string working = std::to_string(demand.shared_bytes) + " B";
  if (gpu.shared_reserved_per_block > 0) working += " + " + std::to_string(gpu.shared_reserved_per_block) + " B reserved";
  working += " → " + std::to_string(per_block) + " B (units of " + std::to_string(gpu.shared_unit) + " B)";
  if (demand.shared_bytes > gpu.max_shared_per_block) {
    return Limit(Resource::kSharedMemory, 0, working + "; more than " + std::to_string(gpu.max_shared_per_block) +
                                                 " B per block");
  }
  const int blocks = gpu.shared_per_sm / per_block;
  return Limit(Resource::kSharedMemory, blocks,
               working + "; " + std::to_string(gpu.shared_per_sm) + " B per SM / " + std::to_string(per_block) +
                   " = " + std::to_string(blocks));
}

}  // namespace

const std::vector<GpuLimits>& ClassroomGpus() {
  static const std::vector<GpuLimits> gpus = {
      Classroom("t4", "T4 (cc 7.5)", 7, 5, 1024, 16, 64, 64),
      Classroom("a100", "A100 (cc 8.0)", 8, 0, 2048, 32, 164, 163),
      Classroom("rtx4090", "RTX 4090 (cc 8.9)", 8, 9, 1536, 24, 100, 99),
      Classroom("h100", "H100 (cc 9.0)", 9, 0, 2048, 32, 228, 227),
  };
  return gpus;
}

const GpuLimits* FindClassroomGpu(std::string_view key) {
  for (const GpuLimits& gpu : ClassroomGpus()) {
    if (gpu.key == key) return &gpu;
  }
  return nullptr;
}

std::string ClassroomGpuKeys() {
  std::string keys;
  for (const GpuLimits& gpu : ClassroomGpus()) keys += (keys.empty() ? "" : ", ") + gpu.key;
  return keys;
}

bool FillAllocationRules(GpuLimits& limits) {
  const int cc = limits.cc_major * 10 + limits.cc_minor;
  if (cc < 75) return false;
  limits.register_unit = 256;
  limits.sub_partitions = 4;
  // Turing allocates shared memory in 256-byte units and reserves none per block; Ampere
  // and later allocate in 128-byte units and keep 1 KiB of every block's share.
  limits.shared_unit = cc < 80 ? 256 : 128;
  if (cc >= 80 && limits.shared_reserved_per_block == 0) limits.shared_reserved_per_block = kKiB;
  return true;
}

KernelChoice KernelChoice::Of(const KernelConfig& config) { return {config.kernel, config.Tiles()}; }

std::string CompiledKernelName(const KernelChoice& choice) {
  const TileShape& t = choice.tiles;
  switch (choice.kind) {
    case KernelKind::kNaive:
      return t.tm == kCompiledNaiveBlock && t.tn == kCompiledNaiveBlock ? "naive" : "";
    case KernelKind::kTiledRect:
      return "rect" + std::to_string(t.tm) + "x" + std::to_string(t.tn) + "x" + std::to_string(t.tk);
    case KernelKind::kTiled:
      break;
  }
  return "tiled" + std::to_string(t.tm);
}

BlockDemand DemandOf(const KernelChoice& choice) {
  const TileShape& t = choice.tiles;
  BlockDemand demand;
  demand.threads = t.tm * t.tn;
  demand.shared_bytes = choice.kind == KernelKind::kNaive ? 0 : kBytesPerFloat * (t.tm * t.tk + t.tk * t.tn);
  return demand;
}

std::optional<int> RecordedRegisters(std::string_view name, int cc_major, int cc_minor) {
  const nlohmann::json* kernel = RecordedKernel(name);
  if (kernel == nullptr || !kernel->contains("registers")) return std::nullopt;
  // A GPU runs the SASS of the newest compiled architecture not above its own.
  const int cc = cc_major * 10 + cc_minor;
  int best_arch = 0;
  std::optional<int> registers;
  for (const auto& [arch, count] : (*kernel)["registers"].items()) {
    const int value = std::atoi(arch.c_str() + (arch.rfind("sm_", 0) == 0 ? 3 : 0));
    if (value <= cc && value > best_arch && count.is_number_integer()) {
      best_arch = value;
      registers = count.get<int>();
    }
  }
  return registers;
}

std::optional<int> RecordedSharedBytes(std::string_view name) {
  const nlohmann::json* kernel = RecordedKernel(name);
  if (kernel == nullptr || !kernel->contains("shared_bytes") || !(*kernel)["shared_bytes"].is_number_integer()) {
    return std::nullopt;
  }
  return (*kernel)["shared_bytes"].get<int>();
}

std::string RecordedResourcesSource() {
  const nlohmann::json& table = RecordedTable();
  if (!table.is_object() || !table.contains("source") || !table["source"].is_string()) return "no recorded table";
  return table["source"].get<std::string>();
}

const char* Name(Resource resource) {
  switch (resource) {
    case Resource::kThreads: return "threads";
    case Resource::kWarps: return "warps";
    case Resource::kBlocks: return "blocks";
    case Resource::kRegisters: return "registers";
    case Resource::kSharedMemory: return "shared memory";
  }
  return "?";
}

Occupancy ComputeOccupancy(const BlockDemand& demand, const GpuLimits& gpu) {
  Occupancy o;
  o.demand = demand;
  if (demand.threads <= 0) {
    o.cannot_launch = "a block needs at least one thread";
    return o;
  }
  o.warps_per_block = CeilDiv(demand.threads, kWarpLanes);
  o.live_lanes_in_last_warp = demand.threads - (o.warps_per_block - 1) * kWarpLanes;
  const int threads = demand.threads;
  const int warps = o.warps_per_block;
  o.limits.push_back(Limit(Resource::kThreads, gpu.max_threads_per_sm / threads,
                           std::to_string(gpu.max_threads_per_sm) + " threads / " + std::to_string(threads) + " = " +
                               std::to_string(gpu.max_threads_per_sm / threads)));
  o.limits.push_back(Limit(Resource::kWarps, gpu.max_warps_per_sm / warps,
                           std::to_string(gpu.max_warps_per_sm) + " warps / " + std::to_string(warps) +
                               " per block = " + std::to_string(gpu.max_warps_per_sm / warps)));
  o.limits.push_back(Limit(Resource::kBlocks, gpu.max_blocks_per_sm,
                           "at most " + std::to_string(gpu.max_blocks_per_sm) + " blocks per SM"));
  o.limits.push_back(RegisterLimit(demand, gpu, warps, o.registers_per_warp));
  o.limits.push_back(SharedLimit(demand, gpu, o.shared_per_block));
  if (threads > gpu.max_threads_per_block) {
    o.cannot_launch = std::to_string(threads) + " threads: more than " + std::to_string(gpu.max_threads_per_block) +
                      " per block";
    return o;
  }
  o.blocks_per_sm = INT_MAX;
  for (const ResourceLimit& limit : o.limits) o.blocks_per_sm = std::min(o.blocks_per_sm, limit.blocks);
  for (const ResourceLimit& limit : o.limits) {
    if (limit.known && limit.blocks == o.blocks_per_sm) o.limiting.push_back(limit.resource);
  }
  if (o.blocks_per_sm == 0) {
    for (const ResourceLimit& limit : o.limits) {
      if (limit.blocks == 0) o.cannot_launch = limit.working;
    }
  }
  o.active_warps = o.blocks_per_sm * warps;
  o.warp_occupancy = double(o.active_warps) / gpu.max_warps_per_sm;
  return o;
}

Occupancy OccupancyOf(const KernelChoice& choice, const GpuLimits& gpu) {
  BlockDemand demand = DemandOf(choice);
  demand.registers_per_thread = RecordedRegisters(CompiledKernelName(choice), gpu.cc_major, gpu.cc_minor).value_or(0);
  return ComputeOccupancy(demand, gpu);
}

int BlocksPerSm(const KernelChoice& choice, const GpuLimits& gpu) { return OccupancyOf(choice, gpu).blocks_per_sm; }

std::string LimitingText(const Occupancy& occupancy) {
  if (!occupancy.cannot_launch.empty()) return "cannot launch: " + occupancy.cannot_launch;
  std::string text;
  for (std::size_t i = 0; i < occupancy.limiting.size(); ++i) {
    if (i > 0) text += i + 1 == occupancy.limiting.size() ? " and " : ", ";
    text += Name(occupancy.limiting[i]);
  }
  return text;
}

std::string WarpFill(const Occupancy& occupancy) {
  const int warps = occupancy.warps_per_block;
  const int last = occupancy.live_lanes_in_last_warp;
  if (warps == 0) return "no warps";
  if (last == kWarpLanes) return warps == 1 ? "one full warp" : std::to_string(warps) + " full warps";
  const std::string partial = std::to_string(last) + " live lanes of 32 (" + std::to_string(kWarpLanes - last) + " idle)";
  if (warps == 1) return "one warp, " + partial;
  return std::to_string(warps) + " warps, the last with " + partial;
}

std::string Describe(const KernelChoice& choice) {
  const TileShape& t = choice.tiles;
  switch (choice.kind) {
    case KernelKind::kNaive:
      return "naive, " + std::to_string(t.tn) + "×" + std::to_string(t.tm) + " block";
    case KernelKind::kTiledRect:
      return "rect, TM " + std::to_string(t.tm) + " TN " + std::to_string(t.tn) + " TK " + std::to_string(t.tk);
    case KernelKind::kTiled:
      break;
  }
  return "tiled, TILE " + std::to_string(t.tm);
}

nlohmann::json OccupancyJson(const Occupancy& o, const GpuLimits& gpu) {
  nlohmann::json out;
  out["gpu"] = gpu.key;
  out["name"] = gpu.name;
  out["threads_per_block"] = o.demand.threads;
  out["warps_per_block"] = o.warps_per_block;
  out["live_lanes_in_last_warp"] = o.live_lanes_in_last_warp;
  out["shared_bytes_per_block"] = o.demand.shared_bytes;
  out["shared_bytes_allocated"] = o.shared_per_block;
  out["registers_per_thread"] = o.demand.registers_per_thread > 0 ? nlohmann::json(o.demand.registers_per_thread)
                                                                   : nlohmann::json(nullptr);
  nlohmann::json limits = nlohmann::json::object();
  for (const ResourceLimit& limit : o.limits) {
    limits[Name(limit.resource)] = {{"blocks", limit.known ? nlohmann::json(limit.blocks) : nlohmann::json(nullptr)},
                                    {"working", limit.working}};
  }
  out["limits"] = limits;
  out["blocks_per_sm"] = o.blocks_per_sm;
  nlohmann::json limiting = nlohmann::json::array();
  for (Resource resource : o.limiting) limiting.push_back(Name(resource));
  out["limiting"] = limiting;
  out["active_warps"] = o.active_warps;
  out["max_warps_per_sm"] = gpu.max_warps_per_sm;
  if (!o.cannot_launch.empty()) out["cannot_launch"] = o.cannot_launch;
  return out;
}

}  // namespace sim
