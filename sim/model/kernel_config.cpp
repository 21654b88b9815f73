#include "sim/model/kernel_config.h"

#include <array>
#include <cmath>
#include <utility>

#include "sim/model/random.h"

namespace sim {
namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> ParseName(const std::string& text, const std::array<std::pair<const char*, Enum>, N>& names) {
  for (const auto& [name, value] : names) {
    if (text == name) return value;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<const char*, KernelKind>, 3> kKernelNames{
    {{"tiled", KernelKind::kTiled}, {"rect", KernelKind::kTiledRect}, {"naive", KernelKind::kNaive}}};
constexpr std::array<std::pair<const char*, SyncKind>, 3> kSyncNames{
    {{"syncthreads", SyncKind::kSyncthreads}, {"syncwarp", SyncKind::kSyncwarp}, {"off", SyncKind::kNone}}};
constexpr std::array<std::pair<const char*, TileCount>, 2> kTileCountNames{
    {{"ceil", TileCount::kCeil}, {"floor", TileCount::kFloor}}};
constexpr std::array<std::pair<const char*, SharedLayout>, 2> kLayoutNames{
    {{"row-major", SharedLayout::kRowMajor}, {"transposed", SharedLayout::kTransposed}}};
constexpr std::array<std::pair<const char*, SchedulerKind>, 4> kSchedulerNames{
    {{"realistic", SchedulerKind::kRealistic},
     {"thread", SchedulerKind::kThreadOrder},
     {"random", SchedulerKind::kRandom},
     {"race", SchedulerKind::kRaceExposing}}};
constexpr std::array<std::pair<const char*, FillKind>, 4> kFillNames{{{"sequence", FillKind::kSequence},
                                                                      {"random", FillKind::kRandom},
                                                                      {"identity", FillKind::kIdentity},
                                                                      {"values", FillKind::kExplicit}}};

template <typename Enum, std::size_t N>
const char* NameOf(Enum value, const std::array<std::pair<const char*, Enum>, N>& names) {
  for (const auto& [name, candidate] : names) {
    if (candidate == value) return name;
  }
  return "?";
}

template <typename Enum, std::size_t N>
std::string JoinNames(const std::array<std::pair<const char*, Enum>, N>& names) {
  std::string joined;
  for (const auto& [name, value] : names) joined += (joined.empty() ? "" : ", ") + std::string(name);
  return joined;
}

std::string Quoted(const std::string& what, long long value) { return what + " = " + std::to_string(value); }

std::optional<ValidationError> CheckPositive(const char* field, long long value, long long limit) {
  if (value < 1) return ValidationError{field, Quoted(field, value) + " is too small: it must be at least 1"};
  if (value > limit) {
    return ValidationError{field, Quoted(field, value) + " is too large: the limit is " + std::to_string(limit)};
  }
  return std::nullopt;
}

std::optional<ValidationError> CheckFill(const char* field, const MatrixFill& fill, int rows, int cols) {
  if (fill.kind != FillKind::kExplicit) return std::nullopt;
  const std::size_t want = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (fill.values.size() != want) {
    return ValidationError{field, std::string(field) + " has " + std::to_string(fill.values.size()) + " values: a " +
                                      std::to_string(rows) + "×" + std::to_string(cols) + " matrix needs " +
                                      std::to_string(want)};
  }
  // JSON has no inf or NaN: such a lesson would save as null and never open again.
  for (std::size_t i = 0; i < fill.values.size(); ++i) {
    if (!std::isfinite(fill.values[i])) {
      return ValidationError{field, std::string(field) + ".values[" + std::to_string(i) +
                                        "] = " + std::to_string(fill.values[i]) + " is not a finite number"};
    }
  }
  return std::nullopt;
}

}  // namespace

TileShape KernelConfig::Tiles() const {
  if (kernel == KernelKind::kTiledRect) return rect;
  return {tile, tile, tile};
}

std::optional<ValidationError> ValidateKernel(const KernelConfig& config) {
  if (auto error = ValidateShape(config)) return error;
  return ValidateInputs(config);
}

std::optional<ValidationError> ValidateShape(const KernelConfig& config) {
  for (const auto& [field, value] : {std::pair{"m", config.m}, std::pair{"n", config.n}, std::pair{"k", config.k}}) {
    if (auto error = CheckPositive(field, value, kMaxDimension)) return error;
  }
  if (config.kernel == KernelKind::kNaive) {
    for (const auto& [field, kind] : {std::pair{"barrier1", config.barrier1}, std::pair{"barrier2", config.barrier2}}) {
      if (kind != SyncKind::kSyncthreads) {
        return ValidationError{field, std::string(field) + " = " + Name(kind) +
                                          ": the barriers belong to the tiled kernels; the naive kernel has none"};
      }
    }
  }
  if (config.bs_layout != SharedLayout::kRowMajor && config.kernel != KernelKind::kTiled) {
    return ValidationError{"bs_layout", std::string("bs_layout = ") + Name(config.bs_layout) +
                                            ": only the square tiled kernel (02_tiled.cu) has the transposed Bs variant"};
  }
  const TileShape tiles = config.Tiles();
  if (config.kernel == KernelKind::kTiledRect) {
    for (const auto& [field, value] : {std::pair{"tm", tiles.tm}, std::pair{"tn", tiles.tn}, std::pair{"tk", tiles.tk}}) {
      if (auto error = CheckPositive(field, value, kMaxThreadsPerBlock)) return error;
    }
  } else if (auto error = CheckPositive("tile", config.tile, kMaxThreadsPerBlock)) {
    return error;
  }
  const long long block_threads = static_cast<long long>(tiles.tm) * tiles.tn;
  if (block_threads > kMaxThreadsPerBlock) {
    return ValidationError{config.kernel == KernelKind::kTiledRect ? "tn" : "tile",
                           "a block of " + std::to_string(tiles.tn) + "×" + std::to_string(tiles.tm) + " = " +
                               std::to_string(block_threads) + " threads is too large: the limit is " +
                               std::to_string(kMaxThreadsPerBlock) + " threads per block"};
  }
  if (config.kernel != KernelKind::kNaive) {
    const long long shared_bytes =
        4ll * (static_cast<long long>(tiles.tm) * tiles.tk + static_cast<long long>(tiles.tk) * tiles.tn);
    if (shared_bytes > kMaxSharedBytesPerBlock) {
      return ValidationError{config.kernel == KernelKind::kTiledRect ? "tk" : "tile",
                             "shared tiles As and Bs take " + std::to_string(shared_bytes) +
                                 " bytes per block: the limit is " + std::to_string(kMaxSharedBytesPerBlock) +
                                 " bytes (48 KiB)"};
    }
  }
  return std::nullopt;
}

std::optional<ValidationError> ValidateInputs(const KernelConfig& config) {
  if (auto error = CheckFill("fill_a", config.fill_a, config.m, config.k)) return error;
  return CheckFill("fill_b", config.fill_b, config.k, config.n);
}

const char* Name(KernelKind kind) { return NameOf(kind, kKernelNames); }
const char* Name(SyncKind kind) { return NameOf(kind, kSyncNames); }
const char* SourceText(SyncKind kind) {
  switch (kind) {
    case SyncKind::kSyncthreads:
      return "__syncthreads()";
    case SyncKind::kSyncwarp:
      return "__syncwarp()";
    case SyncKind::kNone:
      return "off";
  }
  return "?";
}
const char* Name(TileCount kind) { return NameOf(kind, kTileCountNames); }
const char* Name(SharedLayout layout) { return NameOf(layout, kLayoutNames); }
const char* Name(SchedulerKind kind) { return NameOf(kind, kSchedulerNames); }
const char* Name(FillKind kind) { return NameOf(kind, kFillNames); }
std::optional<KernelKind> ParseKernelKind(const std::string& text) { return ParseName(text, kKernelNames); }
std::optional<SyncKind> ParseSyncKind(const std::string& text) { return ParseName(text, kSyncNames); }
std::optional<TileCount> ParseTileCount(const std::string& text) { return ParseName(text, kTileCountNames); }
std::optional<SharedLayout> ParseSharedLayout(const std::string& text) { return ParseName(text, kLayoutNames); }
std::optional<SchedulerKind> ParseSchedulerKind(const std::string& text) { return ParseName(text, kSchedulerNames); }
std::optional<FillKind> ParseFillKind(const std::string& text) { return ParseName(text, kFillNames); }
std::string KernelKindNames() { return JoinNames(kKernelNames); }
std::string SyncKindNames() { return JoinNames(kSyncNames); }
std::string TileCountNames() { return JoinNames(kTileCountNames); }
std::string SharedLayoutNames() { return JoinNames(kLayoutNames); }
std::string SchedulerKindNames() { return JoinNames(kSchedulerNames); }

std::vector<float> FillMatrix(const MatrixFill& fill, int rows, int cols) {
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<float> values(count, 0.0f);
  switch (fill.kind) {
    case FillKind::kSequence:
      for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i + 1);
      break;
    case FillKind::kRandom: {
      SplitMix64 random(fill.seed);
      for (float& value : values) value = random.SignedUnit();
      break;
    }
    case FillKind::kIdentity:
      for (int i = 0; i < rows && i < cols; ++i) values[static_cast<std::size_t>(i) * cols + i] = 1.0f;
      break;
    case FillKind::kExplicit:
      values = fill.values;
      values.resize(count, 0.0f);
      break;
  }
  return values;
}

}  // namespace sim
