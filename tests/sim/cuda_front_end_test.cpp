// The front end for students' CUDA C: tokens and their places, the preprocessor, parsing and
// refusals at file:line:col, the compiled instructions (FMA contraction), and what they
// compute, run here by a plain sequential executor against C++'s own arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/cuda/interpreter.h"
#include "sim/cuda/lexer.h"
#include "sim/cuda/preprocessor.h"

namespace sim::cuda {
namespace {

std::string ReadKernel(const std::string& name) {
  std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/tests/sim/kernels/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

CompiledKernel Compiled(const std::string& text, const FrontEndOptions& options = {}) {
  const FrontEndResult r = CompileKernelFile(text, "k.cu", options);
  if (r.problem) throw std::runtime_error(r.problem->Text());
  return r.file->kernel;
}

std::string Problem(const std::string& text, const FrontEndOptions& options = {}) {
  const FrontEndResult r = CompileKernelFile(text, "k.cu", options);
  EXPECT_NE(r.file.has_value(), r.problem.has_value());
  return r.problem ? r.problem->Text() : "(compiled)";
}

int CountOps(const CompiledKernel& k, Opcode op) {
  int n = 0;
  for (const Instruction& i : k.code) n += i.op == op;
  return n;
}

// Runs a kernel block by block, each thread in turn up to a barrier or its end: right for a
// kernel whose every __syncthreads() all threads reach. Arrays by parameter index; ints by name.
struct Launch {
  std::array<int, 3> grid{1, 1, 1};
  std::array<int, 3> block{1, 1, 1};
  std::map<int, std::vector<float>> arrays;
  std::map<std::string, int> ints;
};

void RunSequentially(const CompiledKernel& k, Launch& launch) {
  for (int bz = 0; bz < launch.grid[2]; ++bz)
    for (int by = 0; by < launch.grid[1]; ++by)
      for (int bx = 0; bx < launch.grid[0]; ++bx) {
        const int threads = launch.block[0] * launch.block[1] * launch.block[2];
        std::vector<std::vector<std::uint32_t>> regs(static_cast<std::size_t>(threads), k.initial_registers);
        std::vector<std::int32_t> pcs(static_cast<std::size_t>(threads), 0);
        std::vector<int> state(static_cast<std::size_t>(threads), 0);  // 0 running, 1 at a barrier, 2 done
        std::vector<std::vector<std::uint32_t>> shared;
        for (const SharedArray& a : k.shared) shared.emplace_back(static_cast<std::size_t>(a.Words()), 0u);
        for (int t = 0; t < threads; ++t) {
          std::uint32_t* r = regs[static_cast<std::size_t>(t)].data();
          const int tx = t % launch.block[0], ty = t / launch.block[0] % launch.block[1], tz = t / (launch.block[0] * launch.block[1]);
          const int values[12] = {tx, ty, tz, bx, by, bz, launch.block[0], launch.block[1], launch.block[2],
                                  launch.grid[0], launch.grid[1], launch.grid[2]};
          for (int s = 0; s < 12; ++s) r[s] = static_cast<std::uint32_t>(values[s]);
          for (const KernelParameterSlot& p : k.parameters) {
            if (!p.pointer) r[p.slot] = static_cast<std::uint32_t>(launch.ints.at(p.name));
          }
        }
        for (int running = threads; running > 0;) {
          for (int t = 0; t < threads; ++t) {
            auto& st = state[static_cast<std::size_t>(t)];
            if (st != 0) continue;
            std::uint32_t* r = regs[static_cast<std::size_t>(t)].data();
            std::int32_t& pc = pcs[static_cast<std::size_t>(t)];
            while (st == 0) {
              std::uint64_t executed = 0;
              const Stop stop = RunToVisible(k.code.data(), r, pc, 1u << 24, executed);
              if (stop != Stop::kVisible) throw std::runtime_error("the thread stopped: local outside or budget");
              const Instruction& i = k.code[static_cast<std::size_t>(pc)];
              const auto element = [&]() {
                std::vector<float>& a = launch.arrays.at(i.array);
                const long long e = static_cast<long long>(static_cast<std::int32_t>(r[i.a])) + static_cast<std::int32_t>(r[i.b]);
                if (e < 0 || e >= static_cast<long long>(a.size())) throw std::runtime_error("a global access outside its array");
                return &a[static_cast<std::size_t>(e)];
              };
              const auto word = [&]() {
                const SharedArray& a = k.shared[i.array];
                const std::uint32_t idx[3] = {r[i.a], r[i.b], r[i.c]};
                for (int d = 0; d < a.rank; ++d) {
                  if (idx[d] >= static_cast<std::uint32_t>(a.dims[static_cast<std::size_t>(d)])) throw std::runtime_error("a shared index outside its bound");
                }
                return &shared[i.array][(idx[0] * a.dims[1] + idx[1]) * a.dims[2] + idx[2]];
              };
              switch (i.op) {
                case Opcode::kLoadGlobal: r[i.dst] = FloatBits(*element()); break;
                case Opcode::kStoreGlobal: *element() = AsFloat(r[i.dst]); break;
                case Opcode::kLoadShared: r[i.dst] = *word(); break;
                case Opcode::kStoreShared: *word() = r[i.dst]; break;
                case Opcode::kSyncthreads:
                case Opcode::kSyncwarp: st = 1; break;
                default: st = 2; --running; break;
              }
              ++pc;
            }
          }
          for (auto& st : state) st = st == 1 ? 0 : st;  // every live thread is at the barrier: release
        }
      }
}

std::vector<float> Seeded(int count, int seed) {
  // Small integers: every product and sum of a lesson-sized inner product is exact in float.
  std::vector<float> v(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>((i * 7 + seed * 13) % 9 - 4);
  return v;
}

TEST(CudaLexer, TokensKnowTheirLineAndColumn) {
  const std::vector<Token> t = Lex("a /* x\n y */ +=\n  b<<<c>>>");
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t[1].text, "+=");
  EXPECT_EQ(t[1].pos.line, 2);
  EXPECT_EQ(t[1].pos.col, 7);
  EXPECT_EQ(t[3].text, "<<<");
  EXPECT_EQ(t[5].text, ">>>");
  EXPECT_EQ(t[6].kind, TokenKind::kEnd);
  EXPECT_EQ(t[2].pos.line, 3);
  EXPECT_EQ(t[2].pos.col, 3);
  EXPECT_TRUE(t[2].first_on_line);
}

TEST(CudaLexer, RefusesWhatNoTokenStartsWith) {
  EXPECT_EQ(Problem("__global__ void k() {\n  int a = 1 @ 2;\n}"), "k.cu:2:13: '@' is not a C token");
  EXPECT_EQ(Problem("/* never closed"), "k.cu:1:1: this comment is never closed");
  EXPECT_EQ(Problem("int main() { printf(\"oops); }"), "k.cu:1:21: this string is never closed");
}

TEST(CudaPreprocessor, ExpandsConstantsAndMacrosWithParameters) {
  const std::vector<Token> out = Preprocess(Lex("#define T 4\n#define IDX(r, c) ((r) * T + (c))\nIDX(1, 2)\n"), {});
  std::string text;
  for (const Token& t : out) text += t.text;
  EXPECT_EQ(text, "((1)*4+(2))");
  EXPECT_EQ(out[0].pos.line, 3);  // a macro's tokens stand where it was used
}

TEST(CudaPreprocessor, DefinesFromOutsideReplaceTheFiles) {
  std::string text;
  for (const Token& t : Preprocess(Lex("#define TILE 16\nTILE\n"), {{"TILE", "32"}})) text += t.text;
  EXPECT_EQ(text, "32");
}

TEST(CudaPreprocessor, ConditionsPickTheirBranch) {
  std::string text;
  for (const Token& t : Preprocess(Lex("#define A\n#ifdef A\nyes\n#else\nno\n#endif\n#if 0\nnever\n#endif\n#pragma unroll\n"), {})) {
    text += t.text;
  }
  EXPECT_EQ(text, "yes");
  EXPECT_EQ(Problem("#if defined(A)\n#endif\n"), "k.cu:1:2: #if is supported with one integer only (#if 0, #if 1, or a macro that is one)");
  EXPECT_EQ(Problem("#ifdef A\n"), "k.cu:1:2: this #if has no #endif");
  EXPECT_EQ(Problem("#line 5\n"), "k.cu:1:2: the directive #line is not supported");
  EXPECT_EQ(Problem("#define F(x) F(x)\nF(1)\n"), "k.cu:1:1: the file has no __global__ kernel");  // no endless expansion
}

TEST(CudaFrontEnd, ReadsTheHandoutsKernelAndItsLaunch) {
  const FrontEndResult r = CompileKernelFile(ReadKernel("tiled_handout.cu"), "tiled_handout.cu", {});
  ASSERT_FALSE(r.problem) << r.problem->Text();
  const CompiledKernel& k = r.file->kernel;
  EXPECT_EQ(k.name, "matmul_tiled");
  ASSERT_EQ(k.shared.size(), 2u);
  EXPECT_EQ(k.shared[0].name, "As");
  EXPECT_EQ(k.shared[1].dims[0], 16);
  EXPECT_EQ(k.shared[1].dims[1], 16);
  EXPECT_EQ(CountOps(k, Opcode::kSyncthreads), 2);
  ASSERT_TRUE(r.file->launch_block);
  EXPECT_EQ(*r.file->launch_block, (std::array<long long, 3>{16, 16, 1}));
  ASSERT_TRUE(r.file->launch_grid);
  EXPECT_EQ(*r.file->launch_grid, (std::array<long long, 3>{64, 64, 1}));
}

// C by the kernel's own order: sum = fmaf(a, b, sum) over k.
std::vector<float> Reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int kk) {
  std::vector<float> c(static_cast<std::size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < kk; ++k) sum = std::fma(a[static_cast<std::size_t>(i * kk + k)], b[static_cast<std::size_t>(k * n + j)], sum);
      c[static_cast<std::size_t>(i * n + j)] = sum;
    }
  return c;
}

TEST(CudaFrontEnd, TheHandoutsKernelComputesCBitForBit) {
  const CompiledKernel k = Compiled(ReadKernel("tiled_handout.cu"), {{}, {{"TILE", "4"}}});
  const int m = 10, n = 7, kk = 9;  // none a multiple of the tile
  Launch launch;
  launch.block = {4, 4, 1};
  launch.grid = {2, 3, 1};
  launch.arrays[0] = Seeded(m * kk, 1);
  for (float& v : launch.arrays[0]) v *= 0.37f;  // inexact products: only fmaf in this order matches
  launch.arrays[1] = Seeded(kk * n, 2);
  launch.arrays[2].assign(static_cast<std::size_t>(m * n), 0.0f);
  launch.ints = {{"M", m}, {"N", n}, {"K", kk}};
  RunSequentially(k, launch);
  const std::vector<float> expected = Reference(launch.arrays[0], launch.arrays[1], m, n, kk);
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(FloatBits(launch.arrays[2][i]), FloatBits(expected[i])) << "element " << i;
}

TEST(CudaFrontEnd, RunsARegisterTiledTemplateKernel) {
  const FrontEndResult r = CompileKernelFile(ReadKernel("register_tiled.cu"), "register_tiled.cu", {});
  ASSERT_FALSE(r.problem) << r.problem->Text();
  EXPECT_EQ(r.file->kernel.template_values.size(), 4u);  // from the launch sgemm_1d_blocktiling<64, 64, 8, 8>
  EXPECT_EQ(*r.file->launch_block, (std::array<long long, 3>{512, 1, 1}));
  // Smaller tiles by --define: BM = BN = 8, BK = 2, TM = 4 gives 16 threads a block.
  const CompiledKernel k = Compiled(ReadKernel("register_tiled.cu"), {{}, {{"BM", "8"}, {"BN", "8"}, {"BK", "2"}, {"TM", "4"}}});
  const int n = 16;
  Launch launch;
  launch.block = {16, 1, 1};
  launch.grid = {2, 2, 1};
  launch.arrays[3] = Seeded(n * n, 3);
  for (float& v : launch.arrays[3]) v *= 0.61f;
  launch.arrays[4] = Seeded(n * n, 4);
  launch.arrays[5].assign(static_cast<std::size_t>(n * n), 0.0f);
  launch.ints = {{"M", n}, {"N", n}, {"K", n}};
  RunSequentially(k, launch);
  const std::vector<float> expected = Reference(launch.arrays[3], launch.arrays[4], n, n, n);
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(FloatBits(launch.arrays[5][i]), FloatBits(expected[i])) << "element " << i;
}

TEST(CudaFrontEnd, ContractsAProductFeedingAnAddAsNvccDoes) {
  const auto ops = [](const std::string& body) {
    return Compiled("__global__ void k(const float* A, float* C) { float a = A[0], b = A[1], c = A[2], d = A[3];\n" + body + "\n}");
  };
  const CompiledKernel plus = ops("C[0] = a * b + c;");
  EXPECT_EQ(CountOps(plus, Opcode::kFma), 1);
  EXPECT_EQ(CountOps(plus, Opcode::kMulF), 0);
  const CompiledKernel compound = ops("float acc = 0.0f; acc += a * b; C[0] = acc;");
  EXPECT_EQ(CountOps(compound, Opcode::kFma), 1);
  const CompiledKernel through_local = ops("const float p = a * b; C[0] = c + p;");
  EXPECT_EQ(CountOps(through_local, Opcode::kFma), 1);
  const CompiledKernel reassigned = ops("float p = a * b; p = p * 2.0f; C[0] = c + p;");
  EXPECT_EQ(CountOps(reassigned, Opcode::kFma), 0);
  const CompiledKernel two = ops("C[0] = a * b + c * d;");
  EXPECT_EQ(CountOps(two, Opcode::kFma), 1);
  EXPECT_EQ(CountOps(two, Opcode::kMulF), 1);
  const CompiledKernel minus = ops("C[0] = c - a * b;");
  EXPECT_EQ(CountOps(minus, Opcode::kFma), 1);
  EXPECT_EQ(CountOps(minus, Opcode::kNegF), 1);
  const CompiledKernel plain = ops("C[0] = a * b; C[1] = a + b;");
  EXPECT_EQ(CountOps(plain, Opcode::kFma), 0);
}

TEST(CudaFrontEnd, ComputesAsCDoes) {
  // Each line computes one value the way C++ computes it here: threadIdx.x is unsigned,
  // int and unsigned mix as unsigned, && guards its right side, a product feeds fmaf.
  const CompiledKernel k = Compiled(R"(
__global__ void k(const float* A, float* C, int n) {
  int tx = threadIdx.x;
  C[0] = (threadIdx.x - 1 < 5) ? 1.0f : 2.0f;
  C[1] = (tx - 1 < 5) ? 1.0f : 2.0f;
  C[2] = (float)(-7 / 2) + (float)(-7 % 2) * 10.0f;
  C[3] = (n > 100 && A[1000] > 0.0f) ? 1.0f : 3.0f;
  C[4] = A[0] * A[1] + A[2];
  C[5] = fminf(A[0], A[1]) + max(3, n) + min(2u, 7u);
  unsigned u = 0xffffffffu; u >>= 28; int s = -16; s >>= 2;
  C[6] = u * 100 + s;
  float acc[3] = {1.0f};
  for (int i = 0; i < 3; i++) acc[i] += i;
  C[7] = acc[0] * 100.0f + acc[1] * 10.0f + acc[2];
  int w = 0; do { w += 2; if (w == 4) continue; if (w > 7) break; } while (true);
  C[8] = w + sqrtf(16.0f) + (int)2.9f + (float)(unsigned)3u;
  C[9] = n ? 0.5 * A[0] : 0.0f;
}
)");
  Launch launch;
  // (1 + 2^-12)² rounds to 1 + 2^-11 in float: only a fused multiply-add keeps the 2^-24.
  const float a = 1.0f + std::ldexp(1.0f, -12);
  launch.arrays[0] = {a, a, -(1.0f + std::ldexp(1.0f, -11))};
  launch.arrays[1].assign(10, -1.0f);
  launch.ints = {{"n", 5}};
  RunSequentially(k, launch);
  const std::vector<float>& c = launch.arrays[1];
  EXPECT_EQ(c[0], 2.0f);  // 0u - 1 wraps to 4294967295
  EXPECT_EQ(c[1], 1.0f);
  EXPECT_EQ(c[2], -3.0f - 10.0f);
  EXPECT_EQ(c[3], 3.0f);  // A[1000] never read
  EXPECT_EQ(c[4], std::ldexp(1.0f, -24));
  EXPECT_EQ(c[5], a + 5.0f + 2.0f);
  EXPECT_EQ(c[6], 15.0f * 100.0f - 4.0f);
  EXPECT_EQ(c[7], 100.0f + 10.0f + 2.0f);
  EXPECT_EQ(c[8], 8.0f + 4.0f + 2.0f + 3.0f);
  EXPECT_EQ(c[9], 0.5f * a);
}

TEST(CudaFrontEnd, StopsAtTheBudgetAndAtALocalIndexOutside) {
  const CompiledKernel spin = Compiled("__global__ void k(float* C) { int i = 0; while (i >= 0) { i = i | 1; } C[0] = i; }");
  std::vector<std::uint32_t> r = spin.initial_registers;
  std::int32_t pc = 0;
  std::uint64_t executed = 0;
  EXPECT_EQ(RunToVisible(spin.code.data(), r.data(), pc, 100000, executed), Stop::kBudget);
  EXPECT_EQ(executed, 100000u);
  EXPECT_EQ(spin.positions[static_cast<std::size_t>(pc)].line, 1);
  const CompiledKernel outside = Compiled("__global__ void k(float* C, int n) {\n float acc[4] = {0};\n acc[n] = 1.0f;\n C[0] = acc[0];\n}");
  r = outside.initial_registers;
  r[static_cast<std::size_t>(outside.parameters[1].slot)] = 4;
  pc = 0;
  EXPECT_EQ(RunToVisible(outside.code.data(), r.data(), pc, 100000, executed), Stop::kLocalOutside);
  EXPECT_EQ(outside.positions[static_cast<std::size_t>(pc)].line, 3);
}

TEST(CudaFrontEnd, RefusesWhatItDoesNotSupportAtItsPlace) {
  const std::string head = "__global__ void k(const float* A, float* C, int n) {\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"  double x = 1.0;\n", "k.cu:2:3: the type 'double' is not supported (int, unsigned, float, bool)"},
      {"  atomicAdd(C, 1.0f);\n", "k.cu:2:3: atomicAdd is not supported yet"},
      {"  C[0] = expf(A[0]);\n", "k.cu:2:10: the function expf is not supported (min, max, fminf, fmaxf, fmaf, sqrtf, fabsf)"},
      {"  switch (n) {}\n", "k.cu:2:3: 'switch' is not supported"},
      {"  extern __shared__ float s[];\n", "k.cu:2:3: dynamic shared memory (extern __shared__) is not supported: give the array its size"},
      {"  C[0] = *A;\n", "k.cu:2:10: '*' on a pointer is not supported: index the parameter (A[i])"},
      {"  C[0] = A[0] * 0.1;\n", "k.cu:2:15: double arithmetic is not supported: write the constants with f (0.5f)"},
      {"  A[0] = 1.0f;\n", "k.cu:2:8: A is const float*: the kernel may not write it"},
      {"  C[0] = x;\n", "k.cu:2:10: x is not declared"},
      {"  __shared__ float s[n];\n", "k.cu:2:22: the size of s must be a constant (a #define, a template parameter or a const int)"},
      {"  __shared__ float s[4][4];\n  s[1] = 0.0f;\n", "k.cu:3:3: s has 2 dimension(s): index all of them"},
      {"  __shared__ float big[13000];\n", "k.cu:2:20: the __shared__ arrays take 52000 bytes, more than the 48 KiB a block may declare"},
      {"  int i = 0\n  C[i] = 1.0f;\n", "k.cu:3:3: expected ';' after a declaration, found 'C'"},
      {"  if (n) { C[0] = 1.0f;\n", "k.cu:1:52: this '{' is never closed"},
      {"  break;\n", "k.cu:2:3: break outside a loop"},
      {"  C[0] = A[0] % 2.0f;\n", "k.cu:2:15: '%' needs integers"},
      {"  long x = 3;\n", "k.cu:2:3: the type 'long' is not supported (int, unsigned, float, bool)"},
      {"  __syncwarp(0xf);\n", "k.cu:2:3: __syncwarp with a mask other than 0xffffffff is not supported"},
  };
  for (const auto& [body, expected] : cases) EXPECT_EQ(Problem(head + body + "}\n"), expected) << body;
}

TEST(CudaFrontEnd, RefusesKernelsItCannotTakeWhole) {
  EXPECT_EQ(Problem("__device__ float twice(float x) { return 2 * x; }\n"),
            "k.cu:1:1: __device__ functions and variables are not supported: write the code inside the kernel");
  EXPECT_EQ(Problem("__global__ void k(int* p) {}\n"), "k.cu:1:22: an int pointer or reference parameter is not supported: the arrays are float*");
  EXPECT_EQ(Problem("__global__ void a() {}\n__global__ void b() {}\n"), "k.cu:1:1: the file has several kernels (a, b): pass --kernel NAME");
  EXPECT_EQ(Problem("__global__ void a() {}\n__global__ void b() {}\n", {"b", {}}), "(compiled)");
  EXPECT_EQ(Problem("template <int T>\n__global__ void k(float* C) { C[0] = T; }\n"),
            "k.cu:2:1: the template parameter T of k needs a value: pass --define T=VALUE or launch it as k<VALUE><<<...>>>");
  EXPECT_EQ(Problem("template <int T>\n__global__ void k(float* C) { C[0] = T; }\n", {{}, {{"T", "x"}}}),
            "k.cu:2:1: --define T=x: the template parameter T needs an integer");
  EXPECT_EQ(Problem("int main() { return 0; }\n"), "k.cu:1:1: the file has no __global__ kernel");
  std::string deep = "__global__ void k(float* C) { C[0] = ";
  for (int i = 0; i < 5000; ++i) deep += "(";
  EXPECT_NE(Problem(deep + "1;}").find("nested more than"), std::string::npos);
}

TEST(CudaFrontEnd, ReadsLaunchesOnlyWhereTheyFollowFromConstants) {
  const std::string kernel = "__global__ void k(float* C) { C[threadIdx.x] = 1.0f; }\n";
  const auto launch_of = [&](const std::string& host) { return CompileKernelFile(kernel + host, "k.cu", {}).file; };
  EXPECT_EQ(*launch_of("void f() { k<<<dim3(4, 2), 128>>>(0); }")->launch_block, (std::array<long long, 3>{128, 1, 1}));
  EXPECT_EQ(*launch_of("void f() { k<<<dim3(4, 2), 128>>>(0); }")->launch_grid, (std::array<long long, 3>{4, 2, 1}));
  EXPECT_FALSE(launch_of("void f(int n) { k<<<n, 32>>>(0); }")->launch_grid);
  EXPECT_EQ(*launch_of("void f(int n) { k<<<n, 32>>>(0); }")->launch_block, (std::array<long long, 3>{32, 1, 1}));
  EXPECT_FALSE(launch_of("int main() { return 0; }")->launch_block);
}

}  // namespace
}  // namespace sim::cuda
