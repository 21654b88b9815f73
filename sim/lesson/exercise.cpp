#include "sim/lesson/exercise.h"

#include <set>

#include "sim/lesson/formulas.h"
#include "sim/lesson/teaching.h"

namespace sim {
namespace {

// Written for this exercise from the handout's idea: one thread per element of C, a tile of A
// and a tile of B staged in shared memory per step along K.
constexpr const char* kTiledStarter = R"starter(// Exercise: the tiled matrix product C = A·B (A is M×K, B is K×N, all row-major).
//
// Each block computes one TILE×TILE tile of C, one thread per element. Step along K one tile
// at a time: the block copies a tile of A and a tile of B into shared memory, waits until both
// are complete, multiplies them into each thread's sum, and waits again before the next step
// overwrites them. Check it with:  tilescope exercise tiled --check THIS_FILE
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;  // this thread's element of C
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;

  // TODO 1: loop over the tiles along K (how many are there when K is not a multiple of TILE?)
  //   TODO 2: each thread loads one element of A's tile into As[ty][tx] and one of B's tile
  //           into Bs[ty][tx]; outside the matrices, store 0.0f instead
  //   TODO 3: a barrier, so that no thread reads a tile before every thread has stored its element
  //   TODO 4: add the products As[ty][k] * Bs[k][tx] over the tile's k to sum
  //   TODO 5: a barrier, so that no thread overwrites a tile another thread is still reading

  if (row < M && col < N) C[row * N + col] = sum;
}

int main() {
  const int n = 1024;
  float *A = nullptr, *B = nullptr, *C = nullptr;  // cudaMalloc each, and copy A and B in
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(A, B, C, n, n, n);
  return 0;
}
)starter";

bool MultipleOfTile(const CheckSize& s, const std::array<int, 3>& block) {
  return s.m % block[1] == 0 && s.n % block[0] == 0 && s.k % block[0] == 0 && s.k % block[1] == 0;
}

// Distinct __shared__ arrays the kernel's code stores into.
int SharedArraysStored(const cuda::CompiledKernel& kernel) {
  std::set<int> arrays;
  for (const cuda::Instruction& i : kernel.code) {
    if (i.op == cuda::Opcode::kStoreShared) arrays.insert(i.array);
  }
  return static_cast<int>(arrays.size());
}

// The textbook tiled kernel's global reads at `size` with tiles the student's block: A read
// once per block column, B once per block row (formulas.h).
std::uint64_t TextbookReads(const CheckSize& size, const std::array<int, 3>& block) {
  KernelConfig config;
  config.m = size.m;
  config.n = size.n;
  config.k = size.k;
  config.kernel = KernelKind::kTiled;
  config.tile = block[0];
  return Expected(config).global_reads();
}

// C right at every run of the report whose size is (or is not) a multiple of the tile.
MilestoneState RightAt(Milestone milestone, const KernelCheckReport& report, bool multiple) {
  MilestoneState state{milestone, false,
                       "no size checked is a " + std::string(multiple ? "" : "non-") + "multiple of the tile: add one to --sizes"};
  for (const CheckRun& run : report.runs) {
    if (MultipleOfTile(run.size, report.block) != multiple) continue;
    state.reached = run.wrong_elements == 0;
    state.why = "C " + std::string(state.reached ? "right" : "wrong") + " at " + SizeText(run.size);
    if (!state.reached) return state;
  }
  return state;
}

MilestoneState LoadsBothTiles(const cuda::CompiledKernel& kernel, const KernelCheckReport& report) {
  const int arrays = SharedArraysStored(kernel);
  bool stored = !report.runs.empty();
  for (const CheckRun& run : report.runs) stored = stored && run.shared_writes > 0 && run.global_reads > 0;
  const bool reached = arrays >= 2 && stored;
  return {Milestone::kLoadsBothTiles, reached,
          reached ? "stores into " + std::to_string(arrays) + " shared arrays"
                  : arrays < 2 ? "stores into " + std::to_string(arrays) + " shared array" + (arrays == 1 ? "" : "s") + ", not two"
                               : "no shared store ran"};
}

MilestoneState NoRace(const KernelCheckReport& report, bool loads) {
  int races = 0;
  std::uint64_t hazards = 0;  // the check's count: every hazard, as the Hazards panel says
  for (const CheckFinding& f : report.findings) {
    if (f.kind != FindingKind::kRace || !f.error) continue;
    ++races;
    hazards += f.count;
  }
  const bool reached = loads && races == 0;
  return {Milestone::kNoRace, reached,
          !loads ? "the tiles are not loaded yet"
          : races == 0
              ? "no race"
              : CountOf(static_cast<std::uint64_t>(races), "race", "races") + " (" + CountOf(hazards, "hazard", "hazards") + ")"};
}

MilestoneState TextbookReadsState(const KernelCheckReport& report, bool right_everywhere) {
  MilestoneState state{Milestone::kTextbookReads, false, "C is not right at every size yet"};
  if (!right_everywhere) return state;
  state.reached = true;
  for (const CheckRun& run : report.runs) {
    const std::uint64_t textbook = TextbookReads(run.size, report.block);
    state.why = std::to_string(run.global_reads) + " global reads at " + SizeText(run.size) + ", the textbook kernel " +
                std::to_string(textbook);
    if (run.global_reads > textbook) {
      state.reached = false;
      return state;
    }
  }
  return state;
}

}  // namespace

const std::string& TiledStarterSource() {
  static const std::string source = kTiledStarter;
  return source;
}

const char* Describe(Milestone milestone) {
  static constexpr const char* kNames[kMilestoneCount] = {
      "compiles", "loads both tiles", "C right at a multiple of the tile", "C right at a non-multiple", "no race",
      "reads as few global elements as the textbook kernel"};
  return kNames[static_cast<int>(milestone)];
}

std::vector<MilestoneState> EvaluateTiledMilestones(const cuda::FrontEndResult& front, const KernelCheckResult& check) {
  std::vector<MilestoneState> states;
  if (front.problem || !check.report) {
    states.push_back({Milestone::kCompiles, false, front.problem ? front.problem->Text() : check.error});
    for (int m = 1; m < kMilestoneCount; ++m) states.push_back({static_cast<Milestone>(m), false, "it does not compile yet"});
    return states;
  }
  const KernelCheckReport& report = *check.report;
  states.push_back({Milestone::kCompiles, true, "kernel " + report.kernel});
  states.push_back(LoadsBothTiles(front.file->kernel, report));
  states.push_back(RightAt(Milestone::kRightAtMultiple, report, true));
  states.push_back(RightAt(Milestone::kRightAtNonMultiple, report, false));
  states.push_back(NoRace(report, states[1].reached));
  states.push_back(TextbookReadsState(report, states[2].reached && states[3].reached));
  return states;
}

std::vector<MilestoneState> CheckTiledExercise(const std::string& text, const std::string& file_name,
                                               const KernelLessonOptions& options, const std::atomic<bool>* cancel) {
  const cuda::FrontEndResult front = cuda::CompileKernelFile(text, file_name, options.front);
  KernelCheckResult check;
  if (front.file) check = CheckKernel(*front.file, options.check, cancel);
  return EvaluateTiledMilestones(front, check);
}

}  // namespace sim
