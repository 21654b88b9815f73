// Counts of a student's kernel, each against a closed form: global sectors and bank conflicts
// under every scheduler (a warp-instruction is counted once however its lanes are issued), races
// and out-of-bounds accesses past the logs' limits, an access outside its array counted once,
// and --define values the check's binding once took for the sizes.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check.h"
#include "sim/model/machine.h"
#include "sim/model/machine_state.h"

namespace sim {
namespace {

cuda::KernelFile CompileFile(const std::string& text, const cuda::Defines& defines = {}) {
  const cuda::FrontEndResult r = cuda::CompileKernelFile(text, "k.cu", {"", defines});
  if (r.problem) throw std::runtime_error(r.problem->Text());
  return *r.file;
}

constexpr SchedulerKind kSchedulers[] = {SchedulerKind::kRealistic, SchedulerKind::kThreadOrder, SchedulerKind::kRandom,
                                         SchedulerKind::kRaceExposing};

Counters RunToEnd(const cuda::KernelFile& file, std::array<int, 3> block, std::array<int, 3> grid, int m, int n, int k,
                  std::vector<std::int32_t> arguments, SchedulerKind scheduler) {
  KernelLaunch launch;
  launch.kernel = std::make_shared<const cuda::CompiledKernel>(file.kernel);
  launch.block = block;
  launch.grid = grid;
  launch.m = m;
  launch.n = n;
  launch.k = k;
  launch.arguments = std::move(arguments);
  launch.scheduler = scheduler;
  Machine machine(launch, std::vector<float>(static_cast<std::size_t>(m) * k, 1.0f), std::vector<float>(static_cast<std::size_t>(k) * n, 1.0f));
  while (machine.Step()) {
  }
  return machine.state().counters;
}

constexpr const char* kNaive = R"(
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}
)";

TEST(KernelCounts, NaiveSectorsAreTheSameUnderEveryScheduler) {
  // 16 × 16 blocks: a warp is 2 rows of 16 columns. Each step of k reads 2 elements of A (a
  // sector each) and 16 consecutive of B, 64 aligned bytes (2 sectors); the store of C writes
  // 2 rows of 64 bytes (4 sectors).
  constexpr int kSize = 32;
  const cuda::KernelFile file = CompileFile(kNaive);
  const std::uint64_t warps = kSize * kSize / 32;
  for (SchedulerKind scheduler : kSchedulers) {
    const Counters c = RunToEnd(file, {16, 16, 1}, {2, 2, 1}, kSize, kSize, kSize, {0, 1, 2, kSize, kSize, kSize}, scheduler);
    EXPECT_EQ(c.global_sectors, warps * (4 * kSize + 4)) << Name(scheduler);
  }
}

constexpr const char* kColumnTile = R"(
__global__ void column_tile(const float* A, const float* B, float* C, int N) {
  __shared__ float tile[32][32];
  int t = threadIdx.x;
  tile[t][0] = A[blockIdx.x * 32 + t];
  __syncthreads();
  C[blockIdx.x * 32 + t] = tile[t][0];
}
)";

TEST(KernelCounts, BankConflictsAreTheSameUnderEveryScheduler) {
  // A warp's 32 lanes store and load tile[t][0]: 32 words of bank 0, 32 ways, 31 extra
  // wavefronts each. Its 32 consecutive floats of A and of C are 4 sectors each.
  constexpr int kBlocks = 4;
  const cuda::KernelFile file = CompileFile(kColumnTile);
  for (SchedulerKind scheduler : kSchedulers) {
    const Counters c = RunToEnd(file, {32, 1, 1}, {kBlocks, 1, 1}, 16, 16, 16, {0, 1, 2, 16}, scheduler);
    EXPECT_EQ(c.bank_conflicts, kBlocks * 2 * 31u) << Name(scheduler);
    EXPECT_EQ(c.global_sectors, kBlocks * 8u) << Name(scheduler);
  }
}

KernelCheckReport Check(const std::string& text, std::array<int, 3> block, std::array<std::string, 3> grid, CheckSize size) {
  KernelCheckOptions options;
  options.block = block;
  options.grid = grid;
  options.sizes = {size};
  const KernelCheckResult result = CheckKernel(CompileFile(text), options);
  if (!result.report) throw std::runtime_error(result.error);
  return *result.report;
}

std::uint64_t CountOf(const KernelCheckReport& report, FindingKind kind, const std::string& memory, bool error) {
  std::uint64_t count = 0;
  for (const CheckFinding& f : report.findings) {
    if (f.kind == kind && f.memory == memory && f.error == error) count += f.count;
  }
  return count;
}

TEST(KernelCounts, RacesPastTheHazardLogAreEachCounted) {
  // Every thread writes the one cell N times with no barrier: each pair of writes by two
  // threads is one WAW hazard, whichever ran first. n threads: n(n-1)N²/2 pairs, of which
  // the pairs within a warp (2 · 32·31·N²/2) are warnings.
  constexpr const char* kAllWriteOneCell = R"(
__global__ void all_write_one_cell(const float* A, const float* B, float* C, int N) {
  __shared__ float cell[1];
  for (int i = 0; i < N; ++i) cell[0] = A[i];
}
)";
  constexpr std::uint64_t kThreads = 64, kN = 8;
  const KernelCheckReport report = Check(kAllWriteOneCell, {64, 1, 1}, {"1", "1", "1"}, {8, 8, 8});
  const std::uint64_t all = kThreads * (kThreads - 1) * kN * kN / 2;
  const std::uint64_t within_warps = 2 * 32 * 31 * kN * kN / 2;
  ASSERT_GT(all, kMaxLoggedHazards);
  EXPECT_EQ(CountOf(report, FindingKind::kRace, "shared", true) + CountOf(report, FindingKind::kRace, "shared", false), all);
  EXPECT_EQ(CountOf(report, FindingKind::kRace, "shared", false), within_warps);
  EXPECT_EQ(CountOf(report, FindingKind::kRace, "shared", true), all - within_warps);
}

TEST(KernelCounts, OutOfBoundsPastTheFindingLogAreEachCounted) {
  // Each thread reads N² elements past the end of A (N × N).
  constexpr const char* kPastA = R"(
__global__ void past_a(const float* A, const float* B, float* C, int N) {
  float sum = 0.0f;
  for (int i = 0; i < N * N; ++i) sum += A[N * N + i];
  if (threadIdx.x == 0) C[0] = sum;
}
)";
  constexpr std::uint64_t kThreads = 256, kN = 20;
  const KernelCheckReport report = Check(kPastA, {256, 1, 1}, {"1", "1", "1"}, {20, 20, 20});
  ASSERT_GT(kThreads * kN * kN, kMaxLoggedOutOfBounds);
  EXPECT_EQ(CountOf(report, FindingKind::kOutOfBounds, "global", true), kThreads * kN * kN);
}

TEST(KernelCounts, AnAccessOutsideItsDimensionAndTheArrayIsOneFinding) {
  // At N = 3, acc[N][0] is outside dimension 0 and the whole array (flat 12 of 8); acc[N][N + 2]
  // is outside both dimensions and the array (flat 17). Each thread makes each access once.
  constexpr const char* kLocalPast = R"(
__global__ void local_past(const float* A, const float* B, float* C, int N) {
  float acc[2][4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
  acc[N][0] = 1.0f;
  acc[N][N + 2] = 2.0f;
  C[threadIdx.x] = acc[0][0];
}
)";
  constexpr int kThreads = 4;
  const KernelCheckReport report = Check(kLocalPast, {kThreads, 1, 1}, {"1", "1", "1"}, {3, 3, 3});
  int local_findings = 0;
  for (const CheckFinding& f : report.findings) {
    if (f.kind != FindingKind::kOutOfBounds || f.memory != "local") continue;
    ++local_findings;
    EXPECT_EQ(f.count, static_cast<std::uint64_t>(kThreads)) << f.sentence;
  }
  EXPECT_EQ(local_findings, 2);
}

TEST(KernelCounts, DefinedValuesBindAsGivenEvenWhereTheyOnceMeantASize) {
  constexpr const char* kShifted = R"(
__global__ void shifted(const float* A, const float* B, float* C, int M, int N, int K, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) C[i] = (float)shift;
}
)";
  // --define NAME=VALUE reaches both the front end (where it must not replace the parameter's
  // name) and the binding.
  for (long long value : {-1ll, -2ll, -3ll, 0ll, 2147483647ll, -2147483648ll}) {
    const cuda::KernelFile file = CompileFile(kShifted, {{"shift", std::to_string(value)}});
    KernelCheckOptions options;
    options.block = std::array<int, 3>{64, 1, 1};
    options.sizes = {{5, 6, 7}};
    options.int_values["shift"] = value;
    const CheckPlan plan = PlanCheck(file, options);
    ASSERT_TRUE(plan.error.empty()) << plan.error;
    const std::vector<std::int32_t>& arguments = plan.runs.at(0).planned.arguments;
    EXPECT_EQ(arguments.at(3), 5);
    EXPECT_EQ(arguments.at(4), 6);
    EXPECT_EQ(arguments.at(5), 7);
    EXPECT_EQ(arguments.at(6), value);
  }
  KernelCheckOptions options;
  options.block = std::array<int, 3>{64, 1, 1};
  options.int_values["shift"] = 2147483648ll;
  const CheckPlan plan = PlanCheck(CompileFile(kShifted, {{"shift", "2147483648"}}), options);
  EXPECT_NE(plan.error.find("--define shift=2147483648"), std::string::npos) << plan.error;
}

}  // namespace
}  // namespace sim
