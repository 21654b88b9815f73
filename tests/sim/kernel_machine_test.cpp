// The machine running a student's kernel (sim/model/kernel_step.cpp): the handout's tiled
// kernel, one file per barrier variant, against the built-in lesson on the same machine parts
// (global reads, hazards, C); divergence, step back, and each thing the model names.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "sim/cuda/front_end.h"
#include "sim/model/machine.h"
#include "sim/model/reference.h"
#include "sim/model/kernel_config.h"

namespace sim {
namespace {

std::string ReadKernel(const std::string& name) {
  std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/sim/kernels/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::shared_ptr<const cuda::CompiledKernel> Compile(const std::string& text, const cuda::Defines& defines = {}) {
  const cuda::FrontEndResult r = cuda::CompileKernelFile(text, "k.cu", {"", defines});
  if (r.problem) throw std::runtime_error(r.problem->Text());
  return std::make_shared<const cuda::CompiledKernel>(r.file->kernel);
}

// The launch of a kernel with parameters (A, B, C, M, N, K) over C in tile × tile blocks.
KernelLaunch TiledLaunch(std::shared_ptr<const cuda::CompiledKernel> kernel, int m, int n, int k, int tile,
                         SchedulerKind scheduler = SchedulerKind::kRealistic) {
  KernelLaunch launch;
  launch.kernel = std::move(kernel);
  launch.block = {tile, tile, 1};
  launch.grid = {(n + tile - 1) / tile, (m + tile - 1) / tile, 1};
  launch.m = m;
  launch.n = n;
  launch.k = k;
  launch.arguments = {0, 1, 2, m, n, k};
  launch.scheduler = scheduler;
  return launch;
}

void RunToEnd(Machine& machine) {
  while (machine.Step()) {
  }
}

struct Variant {
  const char* file;
  SyncKind first;
  SyncKind second;
};

class HandoutVariant : public ::testing::TestWithParam<Variant> {};

TEST_P(HandoutVariant, MatchesTheBuiltInLesson) {
  const Variant v = GetParam();
  for (const auto& [m, n, k] : {std::array<int, 3>{32, 32, 64}, std::array<int, 3>{37, 29, 50}}) {
    KernelConfig config;
    config.m = m;
    config.n = n;
    config.k = k;
    config.tile = 16;
    config.barrier1 = v.first;
    config.barrier2 = v.second;
    config.fill_a = MatrixFill::Random(3);
    config.fill_b = MatrixFill::Random(4);
    const std::vector<float> a = FillMatrix(config.fill_a, m, k);
    const std::vector<float> b = FillMatrix(config.fill_b, k, n);
    Machine lesson(config, a, b);
    RunToEnd(lesson);
    Machine student(TiledLaunch(Compile(ReadKernel(v.file)), m, n, k, 16), a, b);
    RunToEnd(student);
    ASSERT_TRUE(student.Finished()) << v.file;
    const Counters& want = lesson.state().counters;
    const Counters& got = student.state().counters;
    EXPECT_EQ(got.global_reads_a, want.global_reads_a) << v.file;
    EXPECT_EQ(got.global_reads_b, want.global_reads_b) << v.file;
    EXPECT_EQ(got.hazards, want.hazards) << v.file;
    EXPECT_EQ(got.hazards_raw, want.hazards_raw) << v.file;
    EXPECT_EQ(got.hazards_war, want.hazards_war) << v.file;
    EXPECT_EQ(got.hazards_waw, want.hazards_waw) << v.file;
    EXPECT_EQ(got.hazard_errors, want.hazard_errors) << v.file;
    EXPECT_EQ(got.shared_writes, want.shared_writes) << v.file;
    EXPECT_EQ(got.global_writes, want.global_writes) << v.file;
    EXPECT_EQ(got.barrier_arrivals, want.barrier_arrivals) << v.file;
    if (got.hazards == 0) {
      // Race-free: C is the reference to the bit, as the lesson's is.
      const std::vector<float> reference = ReferenceProduct(m, n, k, a, b);
      EXPECT_EQ(Assess(student.state().c, reference, got).wrong_elements, 0u) << v.file;
      EXPECT_EQ(Assess(lesson.state().c, reference, want).wrong_elements, 0u) << v.file;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryBarrierVariant, HandoutVariant,
    ::testing::Values(Variant{"tiled_syncthreads_syncthreads.cu", SyncKind::kSyncthreads, SyncKind::kSyncthreads},
                      Variant{"tiled_syncthreads_syncwarp.cu", SyncKind::kSyncthreads, SyncKind::kSyncwarp},
                      Variant{"tiled_syncthreads_none.cu", SyncKind::kSyncthreads, SyncKind::kNone},
                      Variant{"tiled_syncwarp_syncthreads.cu", SyncKind::kSyncwarp, SyncKind::kSyncthreads},
                      Variant{"tiled_syncwarp_syncwarp.cu", SyncKind::kSyncwarp, SyncKind::kSyncwarp},
                      Variant{"tiled_syncwarp_none.cu", SyncKind::kSyncwarp, SyncKind::kNone},
                      Variant{"tiled_none_syncthreads.cu", SyncKind::kNone, SyncKind::kSyncthreads},
                      Variant{"tiled_none_syncwarp.cu", SyncKind::kNone, SyncKind::kSyncwarp},
                      Variant{"tiled_none_none.cu", SyncKind::kNone, SyncKind::kNone}));

TEST(KernelMachine, StepsBackExactly) {
  Machine machine(TiledLaunch(Compile(ReadKernel("tiled_none_syncthreads.cu")), 32, 32, 32, 16), FillMatrix(MatrixFill::Random(1), 32, 32),
                  FillMatrix(MatrixFill::Random(2), 32, 32));
  for (int i = 0; i < 300; ++i) machine.Step();
  const MachineState saved = machine.state();
  for (int i = 0; i < 500; ++i) machine.Step();
  const MachineState later = machine.state();
  machine.Restore(saved);
  EXPECT_EQ(machine.state(), saved);
  for (int i = 0; i < 500; ++i) machine.Step();
  EXPECT_EQ(machine.state(), later);
}

// A kernel over a 1-D launch of `threads` in one block, C of `n` elements.
Machine Small(const std::string& body, int threads, int n, SchedulerKind scheduler = SchedulerKind::kRealistic) {
  KernelLaunch launch;
  launch.kernel = Compile("__global__ void k(const float* A, const float* B, float* C, int n) {\n" + body + "\n}\n");
  launch.block = {threads, 1, 1};
  launch.m = 1;
  launch.n = n;
  launch.k = n;
  launch.arguments = {0, 1, 2, n};
  launch.scheduler = scheduler;
  launch.instruction_budget = 100000;
  return Machine(launch, std::vector<float>(static_cast<std::size_t>(n), 1.0f), std::vector<float>(static_cast<std::size_t>(n) * n, 2.0f));
}

std::vector<KernelFinding::Kind> Kinds(const Machine& machine) {
  std::vector<KernelFinding::Kind> kinds;
  for (const KernelFinding& f : machine.logs().kernel_findings) kinds.push_back(f.kind);
  return kinds;
}

int LineOf(const Machine& machine, const KernelFinding& f) { return machine.kernel()->positions[static_cast<std::size_t>(f.pc)].line; }

TEST(KernelMachine, LanesOfAWarpDivergeAndReconverge) {
  // Odd lanes loop longer than even ones; all meet again at the store.
  Machine machine = Small(
      "  int i = threadIdx.x;\n  float s = 0.0f;\n  for (int j = 0; j < (i % 2 ? 5 : 2); ++j) s += A[j];\n  C[i] = s;", 32, 32);
  RunToEnd(machine);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(machine.state().c[static_cast<std::size_t>(i)], i % 2 ? 5.0f : 2.0f);
  EXPECT_EQ(machine.state().counters.global_reads_a, 16u * 5 + 16u * 2);
  EXPECT_TRUE(machine.logs().kernel_findings.empty());
}

TEST(KernelMachine, NamesAGlobalAccessOutsideItsArray) {
  Machine machine = Small("  C[threadIdx.x] = A[threadIdx.x + 1];", 8, 8);
  RunToEnd(machine);
  ASSERT_EQ(Kinds(machine), std::vector<KernelFinding::Kind>{KernelFinding::Kind::kGlobalOutside});
  EXPECT_EQ(machine.logs().kernel_findings[0].element, 8);
  EXPECT_EQ(machine.logs().kernel_findings[0].thread, 7);
  EXPECT_EQ(LineOf(machine, machine.logs().kernel_findings[0]), 2);
  EXPECT_EQ(machine.state().c[7], 0.0f);  // the read outside gave 0
}

TEST(KernelMachine, NamesASharedIndexOutsideItsExtentInsideSharedMemory) {
  Machine machine = Small("  __shared__ float s[4][4];\n  s[threadIdx.x][4] = 1.0f;\n  __syncthreads();\n  C[threadIdx.x] = s[0][0];", 3, 4);
  RunToEnd(machine);
  // Rows 0 to 2 land on the next row's first word, still inside s; s[0][0] is then read unwritten.
  std::vector<KernelFinding::Kind> expected(3, KernelFinding::Kind::kSharedOutside);
  expected.insert(expected.end(), 3, KernelFinding::Kind::kUninitializedShared);
  EXPECT_EQ(Kinds(machine), expected);
  EXPECT_EQ(machine.logs().kernel_findings[0].element, 4);
  EXPECT_EQ(machine.state().counters.out_of_bounds, 3u);
}

TEST(KernelMachine, NamesABarrierNotEveryThreadReaches) {
  Machine machine = Small("  if (threadIdx.x < 16) {\n    __syncthreads();\n  }\n  C[threadIdx.x] = 1.0f;", 64, 64);
  RunToEnd(machine);
  ASSERT_TRUE(machine.Finished());
  ASSERT_FALSE(machine.logs().kernel_findings.empty());
  EXPECT_EQ(machine.logs().kernel_findings[0].kind, KernelFinding::Kind::kDivergentBarrier);
  EXPECT_EQ(LineOf(machine, machine.logs().kernel_findings[0]), 3);
}

TEST(KernelMachine, StopsAThreadThatDoesNotTerminate) {
  Machine machine = Small("  int i = 0;\n  while (threadIdx.x == 3) {\n    i = i + 1;\n  }\n  C[threadIdx.x] = i;", 4, 4);
  RunToEnd(machine);
  ASSERT_TRUE(machine.Finished());
  ASSERT_EQ(Kinds(machine), std::vector<KernelFinding::Kind>{KernelFinding::Kind::kBudget});
  EXPECT_EQ(machine.logs().kernel_findings[0].thread, 3);
  const int line = LineOf(machine, machine.logs().kernel_findings[0]);
  EXPECT_TRUE(line == 2 || line == 3) << line;
  EXPECT_EQ(machine.state().c[0], 0.0f);
}

TEST(KernelMachine, EverySchedulerComputesTheSameRaceFreeC) {
  for (const SchedulerKind s : {SchedulerKind::kRealistic, SchedulerKind::kThreadOrder, SchedulerKind::kRandom, SchedulerKind::kRaceExposing}) {
    Machine machine(TiledLaunch(Compile(ReadKernel("tiled_syncthreads_syncthreads.cu"), {{"TILE", "4"}}), 9, 7, 11, 4, s),
                    FillMatrix(MatrixFill::Random(5), 9, 11), FillMatrix(MatrixFill::Random(6), 11, 7));
    RunToEnd(machine);
    const std::vector<float> reference = ReferenceProduct(9, 7, 11, FillMatrix(MatrixFill::Random(5), 9, 11), FillMatrix(MatrixFill::Random(6), 11, 7));
    EXPECT_EQ(Assess(machine.state().c, reference, machine.state().counters).wrong_elements, 0u) << Name(s);
    EXPECT_EQ(machine.state().counters.hazards, 0u) << Name(s);
  }
}

}  // namespace
}  // namespace sim
