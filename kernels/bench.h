// bench.h — what a benchmark run is asked for and what it reports, as plain C++ values.
//
// No CUDA type appears here (no dim3, no cudaStream_t), so app/ builds with g++ alone.
// Errors are values: a result that could not be measured carries its reason in `error`.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel_table.h"

namespace kernels {

struct SweepStudent;  // student_sweep.h

// C (M×N) = A (M×K) · B (K×N). Sizes are 64-bit so a request too large for the device is
// reported as such instead of overflowing on the way there.
struct Shape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;

  static Shape Square(std::int64_t size) { return {size, size, size}; }
  bool IsSquare() const { return m == n && n == k; }
  // Floating-point operations of C = A·B: a multiply and an add per element of C per k.
  double Flop() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
  bool operator==(const Shape& other) const { return m == other.m && n == other.n && k == other.k; }
};

// "4096" for a square shape, "37×29×53" (M×N×K) otherwise.
std::string ToString(const Shape& shape);

// Parses a size list as the CLI and the live panel take it: comma-separated entries, each
// a square size ("1024"), an M×N×K shape ("37x29x53"), or a power-of-two range "A:B"
// (every power of two from A to B, both included, which must be powers of two).
// Returns the error message on failure.
std::optional<std::string> ParseShapes(const std::string& text, std::vector<Shape>& shapes);
// One size written as ParseShapes reads an entry ("1024", "37x29x53"): a list or a range of
// more than one size is refused with how many it holds. Leaves `shape` alone on failure.
std::optional<std::string> ParseShape(const std::string& text, Shape& shape);

// 256, 512, …, 8192: the default sweep's sizes.
std::vector<Shape> DefaultShapes();

struct BenchRequest {
  std::vector<std::string> kernels;  // registry names; empty means the registry's default sweep
  std::vector<Shape> shapes;         // empty means DefaultShapes()
  int reps = 10;                     // timed launches per kernel and shape
  int warmups = 2;                   // untimed launches first (module load, caches, clocks)
  std::uint64_t seed = 1;            // inputs are seeded random values in [-1, 1)
  // Each kernel's timed launches alternate one for one with those of cuBLAS of its precision,
  // and its % of cuBLAS divides by the median of those. On a GPU held at its power limit the
  // clock drifts with what ran before, so timing all of one kernel and then all of another
  // puts the order into the percentage; alternating gives both the same clocks.
  bool interleave = false;
  // A student's kernel timed at every shape after the registry's kernels (student_sweep.h);
  // none when null.
  std::shared_ptr<const SweepStudent> student;
};

constexpr int kMaxReps = 100000;
// The kernels take int M, N, K; a larger size could only wrap on the way there.
constexpr std::int64_t kMaxShapeDimension = 2147483647;

// Why the request cannot run (unknown kernel, size < 1 or above kMaxShapeDimension,
// reps < 1, a size the student's kernel cannot run at, …), or nothing.
std::optional<std::string> ValidationError(const BenchRequest& request);

// Device bytes a run of `kernels` at `shape` allocates: A, B, C and the reference C, padded
// as BuffersFor says, and the K-major copies the kernels read (KMajorCopyBytes), once each.
double DeviceBytesFor(const Shape& shape, const std::vector<const KernelSpec*>& kernels);

// Why a run of `kernels` at `shape` cannot fit a device with `device_bytes` of memory
// (DeviceBytesFor), or nothing. The runner refuses such a request and the live panel's sizes
// field says the same before it is sent.
std::optional<std::string> DeviceMemoryError(const Shape& shape, const std::vector<const KernelSpec*>& kernels,
                                             std::uint64_t device_bytes);

// The request with its defaults filled in: kernel names resolved, shapes listed.
std::vector<const KernelSpec*> ResolveKernels(const BenchRequest& request);
std::vector<Shape> ResolveShapes(const BenchRequest& request);

// The largest |C − C_ref| accepted for a result of `precision`, where every |a| ≤ max_abs_a
// and |b| ≤ max_abs_b. FP32: 2·K·2⁻²³·max|a|·max|b| — rounding in a length-K sum grows
// with K and is far below this in practice, while a wrong element is off by O(|C|).
// TF32 rounds inputs to a 10-bit mantissa, so its error grows like √K·2⁻¹¹: 8·√K·2⁻¹¹·….
// BF16 keeps 7 mantissa bits (8 significant): 8·√K·2⁻⁸·….
double Tolerance(Precision precision, std::int64_t k, double max_abs_a, double max_abs_b);
// The same rule in words, for the output ("tolerance 2·K·2^-23 = 0.00195").
std::string DescribeTolerance(Precision precision, std::int64_t k, double max_abs_a, double max_abs_b);

// Whether a result also went through the CPU model (small sizes only).
enum class ModelCheck { kNotRun, kIdentical, kDiffers };

struct BenchResult {
  std::string kernel;  // registry name
  std::string label;
  std::string math;  // MathName of the kernel: "FP32 FFMA (CUDA cores)" or "TF32 tensor cores"
  Shape shape;
  std::string error;  // why it was not measured; empty when it was

  int reps = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double q1_ms = 0;  // the repetitions' interquartile range
  double q3_ms = 0;
  double gflops = 0;             // 2·M·N·K / median time
  double percent_of_cublas = 0;  // of `percent_of` at the same shape; 0 if it was not timed
  std::string percent_of;        // the cuBLAS row of the same precision (ReferenceFor); empty if not timed

  double max_abs_error = 0;  // vs cuBLAS FP32 (NaN when an element is NaN or was never written)
  double tolerance = 0;
  std::int64_t wrong_elements = 0;  // elements of C off by more than the tolerance
  bool verified = false;            // measured and no wrong element

  ModelCheck model_check = ModelCheck::kNotRun;
  std::int64_t model_differing = 0;  // elements not bit-identical to the model's C

  int occupancy_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor; 0 for cuBLAS
  int threads_per_block = 0;

  bool ok() const { return error.empty(); }
};

// The name a student's kernel timed in a sweep (student_sweep.h) has among the results and in
// their files: no registry kernel has it.
constexpr const char* kStudentKernelName = "your_kernel";
inline bool IsStudentResult(const BenchResult& result) { return result.kernel == kStudentKernelName; }

// A result's times and rate from its repetitions' times (ms): quartiles, and GFLOPS as
// 2·M·N·K over the median.
void FillTimings(std::vector<double> times, BenchResult& result);

// A kernel's worst shape in a sweep: its lowest share of cuBLAS (of its own precision) over
// the shapes where it was verified and timed beside cuBLAS, and where that was. What a
// target such as "≥ 95% of cuBLAS at every shape" is read from.
struct LowestShare {
  std::string kernel;
  std::string percent_of;  // the cuBLAS row the share is of
  double percent = 0;
  Shape shape;
  int shapes = 0;  // the shapes with a share
};
// One per kernel that has a share, cuBLAS rows left out, in the order kernels first appear.
std::vector<LowestShare> LowestShares(const std::vector<BenchResult>& results);

// For one shape and tile, each barrier-removed (or __syncwarp) variant against the
// kernel with both __syncthreads(): elements of C not bit-identical, per trial.
struct RaceRequest {
  std::vector<int> tiles;    // empty: every tile the registry has race variants for
  std::vector<Shape> shapes;  // empty: 1024²
  int trials = 3;
  std::uint64_t seed = 1;
};

std::optional<std::string> ValidationError(const RaceRequest& request);
std::vector<int> ResolveTiles(const RaceRequest& request);
std::vector<Shape> ResolveShapes(const RaceRequest& request);

struct RaceResult {
  std::string kernel;    // the variant
  std::string label;
  std::string baseline;  // the both-barriers kernel it is compared with
  int tile = 0;
  Shape shape;
  std::vector<std::int64_t> differing_per_trial;
  std::string error;

  std::int64_t elements() const { return shape.m * shape.n; }
  bool ok() const { return error.empty(); }
};

}  // namespace kernels
