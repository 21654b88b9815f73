// kernel_config.h — what the model runs: sizes, tiles, kernel variant, barriers, guard,
// scheduler, seed and how A and B are filled. Plain values; ValidateKernel() says what is
// wrong with one, naming the value and the limit, so the CLI and the GUI show the same
// message. A lesson (sim/lesson/lesson_config.h) is one of these with a name; whether the
// lesson also fits in memory beside what the app runs with it is the lesson layer's to judge
// (sim/lesson/validation.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/model/sync_kind.h"

namespace sim {

// The three kernels of kernels/: 01_naive.cu, 02_tiled.cu, 03_tiled_rect.cu.
enum class KernelKind : std::uint8_t { kTiled, kTiledRect, kNaive };

// ceil(K/T) tiles as the handouts' guarded kernels, or K/T rounded down as the Exercise 05
// handout's hint code.
enum class TileCount : std::uint8_t { kCeil, kFloor };

// How the tiled kernel lays out its B tile: row-major as the handouts (Bs[k][tx]), or transposed
// (Bs[tx][k], lesson 6): the same elements at other addresses, so other banks.
enum class SharedLayout : std::uint8_t { kRowMajor, kTransposed };

enum class SchedulerKind : std::uint8_t { kRealistic, kThreadOrder, kRandom, kRaceExposing };

enum class FillKind : std::uint8_t { kSequence, kRandom, kIdentity, kExplicit };

// How a matrix is filled: 1..n row-major, seeded uniform values in [-1, 1), the identity
// (ones where row == column), or explicit row-major values.
struct MatrixFill {
  FillKind kind = FillKind::kSequence;
  std::uint64_t seed = 1;
  std::vector<float> values;

  static MatrixFill Sequence() { return {}; }
  static MatrixFill Random(std::uint64_t seed) { return {FillKind::kRandom, seed, {}}; }
  static MatrixFill Identity() { return {FillKind::kIdentity, 1, {}}; }
  static MatrixFill Explicit(std::vector<float> values) { return {FillKind::kExplicit, 1, std::move(values)}; }
};

// The tile a block computes: a block is tn threads wide (x, along N) and tm tall (y, along M)
// and walks K in slices of tk. Square tiles have tm == tn == tk; the naive kernel uses the
// same block shape with no shared tiles.
struct TileShape {
  int tm = 2;
  int tn = 2;
  int tk = 2;
};

struct KernelConfig {
  int m = 4;
  int n = 4;
  int k = 4;
  KernelKind kernel = KernelKind::kTiled;
  int tile = 2;           // kTiled and kNaive: the block is tile × tile threads
  TileShape rect{};       // kTiledRect only
  SyncKind barrier1 = SyncKind::kSyncthreads;
  SyncKind barrier2 = SyncKind::kSyncthreads;
  bool guard = true;
  TileCount tile_count = TileCount::kCeil;
  SharedLayout bs_layout = SharedLayout::kRowMajor;  // kTiled only
  SchedulerKind scheduler = SchedulerKind::kRealistic;
  std::uint64_t seed = 1;
  MatrixFill fill_a{};
  MatrixFill fill_b{};

  // The block and tile shape the kernel really uses (square tiles expand to tm = tn = tk).
  TileShape Tiles() const;
};

// Limits of the hardware the model follows.
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxSharedBytesPerBlock = 48 * 1024;
constexpr int kMaxDimension = 1 << 16;

struct ValidationError {
  std::string field;    // the lesson key or CLI flag it concerns: "m", "tile", "barrier1"...
  std::string message;  // one line naming the value and the limit
};

// nullopt when the model can run the kernel; otherwise the first problem found: the sizes,
// tiles and variant (ValidateShape), then the fills of A and B (ValidateInputs).
std::optional<ValidationError> ValidateKernel(const KernelConfig& config);
std::optional<ValidationError> ValidateShape(const KernelConfig& config);
std::optional<ValidationError> ValidateInputs(const KernelConfig& config);

// Names used by lesson files, the CLI and the GUI ("tiled", "syncwarp", "race"...).
const char* Name(KernelKind kind);
const char* Name(SyncKind kind);
// What stands at a sync point, as the kernel's source spells it: "__syncthreads()",
// "__syncwarp()", or "off".
const char* SourceText(SyncKind kind);
const char* Name(TileCount kind);
const char* Name(SharedLayout layout);
const char* Name(SchedulerKind kind);
const char* Name(FillKind kind);
std::optional<KernelKind> ParseKernelKind(const std::string& text);
std::optional<SyncKind> ParseSyncKind(const std::string& text);
std::optional<TileCount> ParseTileCount(const std::string& text);
std::optional<SharedLayout> ParseSharedLayout(const std::string& text);
std::optional<SchedulerKind> ParseSchedulerKind(const std::string& text);
std::optional<FillKind> ParseFillKind(const std::string& text);
// What each Parse* accepts, listed for messages and help: "tiled, rect, naive".
std::string KernelKindNames();
std::string SyncKindNames();
std::string TileCountNames();
std::string SharedLayoutNames();
std::string SchedulerKindNames();

// A matrix of rows × cols filled as `fill` says (explicit values must have rows·cols entries).
std::vector<float> FillMatrix(const MatrixFill& fill, int rows, int cols);

}  // namespace sim
