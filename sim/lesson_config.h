// lesson_config.h — what one lesson runs: sizes, tiles, kernel variant, barriers, guard,
// scheduler, seed and matrix fills. Plain values; Validate() says what is wrong with one,
// naming the value and the limit, so the CLI and the GUI show the same message.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sim {

// The three kernels of kernels/: 01_naive.cu, 02_tiled.cu, 03_tiled_rect.cu.
enum class KernelKind : std::uint8_t { kTiled, kTiledRect, kNaive };

// What stands at a sync point (kernels/sync.cuh): __syncthreads(), __syncwarp() or nothing.
enum class SyncKind : std::uint8_t { kSyncthreads, kSyncwarp, kNone };

// ceil(K/T) tiles as the seeds' guarded kernels, or K/T rounded down as seed 004's hint code.
enum class TileCount : std::uint8_t { kCeil, kFloor };

// How the tiled kernel lays out its B tile: row-major as the seeds (Bs[k][tx]), or transposed
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

struct LessonConfig {
  std::string name = "default";
  std::string description;  // one line for the lesson picker
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

// Limits of the hardware the model follows, and of the model itself.
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxSharedBytesPerBlock = 48 * 1024;
constexpr int kMaxDimension = 1 << 16;
// The model keeps per-thread, per-element and per-cell state, logs and a step-back history;
// a lesson whose estimate (sim/memory_estimate.h) is above this is refused.
constexpr std::uint64_t kMaxModelBytes = 1ull << 30;

struct ValidationError {
  std::string field;    // the lesson key or CLI flag it concerns: "m", "tile", "barrier1"...
  std::string message;  // one line naming the value and the limit
};

// nullopt when the lesson can run; otherwise the first problem found.
std::optional<ValidationError> Validate(const LessonConfig& config);
// What the model is asked for, which decides the memory it may take: a lesson as the GUI
// holds it (its step-back history beside two more machines), or one bare machine run to
// the end for its C (ComputeC: the runner's model check, verify, the race runs), which keeps
// no history and so fits lessons the GUI must refuse.
enum class ModelUse { kLesson, kBareRun };
std::optional<ValidationError> Validate(const LessonConfig& config, ModelUse use);

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
