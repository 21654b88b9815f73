#include "sim/lesson/kernel_check.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <tuple>

#include "sim/model/machine.h"
#include "sim/model/reference.h"

namespace sim {
namespace {

// The sizes C is checked at by default, besides a multiple of the block: none of them a
// multiple of any power-of-two tile, so a kernel that skips the tail tile shows it.
constexpr CheckSize kNonMultiple{50, 37, 29};
constexpr int kMinMultiple = 8;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A pointer parameter's matrix by its name (A, d_A, g_a, ...); -1 where the name says none.
int MatrixByName(const std::string& name) {
  std::string n = Lower(name);
  for (const char* prefix : {"d_", "g_", "dev_"}) {
    if (n.rfind(prefix, 0) == 0) n = n.substr(std::strlen(prefix));
  }
  if (n == "a") return static_cast<int>(MatrixId::kA);
  if (n == "b") return static_cast<int>(MatrixId::kB);
  if (n == "c") return static_cast<int>(MatrixId::kC);
  return -1;
}

bool IsSquareName(const std::string& name) {
  const std::string n = Lower(name);
  return n == "n" || n == "w" || n == "width" || n == "size";
}

struct Binding {
  std::vector<std::int32_t> arguments;  // per parameter; a size's slot holds -1, -2, -3 for m, n, k
  bool square = false;
  std::string error;
};

constexpr std::int32_t kBindM = -1, kBindN = -2, kBindK = -3;

Binding Bind(const cuda::CompiledKernel& kernel, const std::map<std::string, long long>& values) {
  Binding b;
  int ints = 0;
  for (const cuda::KernelParameterSlot& p : kernel.parameters) ints += !p.pointer;
  int next_pointer = 0;
  for (const cuda::KernelParameterSlot& p : kernel.parameters) {
    if (p.pointer) {
      int matrix = MatrixByName(p.name);
      if (matrix < 0) matrix = next_pointer;
      if (matrix > 2) {
        b.error = "the pointer parameter " + p.name + " is not A, B or C (the check gives a kernel three matrices)";
        return b;
      }
      ++next_pointer;
      b.arguments.push_back(matrix);
      continue;
    }
    const auto given = values.find(p.name);
    if (given != values.end()) {
      b.arguments.push_back(static_cast<std::int32_t>(given->second));
    } else if (p.name == "M" || p.name == "m") {
      b.arguments.push_back(kBindM);
    } else if (p.name == "K" || p.name == "k") {
      b.arguments.push_back(kBindK);
    } else if (p.name == "N" || (IsSquareName(p.name) && ints > 1 && p.name == "n")) {
      b.arguments.push_back(kBindN);
    } else if (IsSquareName(p.name) && ints == 1) {
      b.arguments.push_back(kBindN);
      b.square = true;
    } else {
      b.error = "cannot bind the parameter " + p.name + ": it is not M, N, K or one square size (w, width, n, size); pass --define " +
                p.name + "=VALUE";
      return b;
    }
  }
  return b;
}

std::vector<float> Seeded(int rows, int cols, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(rows) * cols);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (float& e : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    e = static_cast<float>(static_cast<int>(x % 9) - 4);
  }
  return v;
}

int LineAt(const cuda::CompiledKernel& k, std::int64_t pc) {
  if (pc < 0 || pc >= static_cast<std::int64_t>(k.positions.size())) return 0;
  return k.positions[static_cast<std::size_t>(pc)].line;
}

// A hazard side's instruction: its program order (ProgramOrder in kernel_memory_access.cpp) modulo the code.
int HazardLine(const cuda::CompiledKernel& k, std::int32_t stage) {
  if (stage == std::numeric_limits<std::int32_t>::max()) return 0;
  return LineAt(k, stage % static_cast<std::int32_t>(k.code.size()));
}

std::string SizeText(const CheckSize& s) { return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k); }

// Findings gathered over every size, by what they are and where.
class Findings {
 public:
  explicit Findings(const cuda::CompiledKernel& kernel) : kernel_(kernel) {
    for (const cuda::Instruction& i : kernel.code) has_syncwarp_ |= i.op == cuda::Opcode::kSyncwarp;
  }

  void AddRun(const Machine& machine, const CheckSize& size) {
    for (const Hazard& h : machine.logs().hazards) Race(h);
    for (const KernelFinding& f : machine.logs().kernel_findings) Finding(f, size);
    const MachineState& s = machine.state();
    for (std::size_t pc = 0; pc < s.kernel_conflicts.size(); ++pc) {
      if (s.kernel_conflicts[pc] == 0) continue;
      const int line = LineAt(kernel_, static_cast<std::int64_t>(pc));
      CheckFinding& f = At({FindingKind::kBankConflict, "shared", "", line, 0, false, 0, ""});
      f.count += s.kernel_conflicts[pc];
      const int ways = s.kernel_ways[pc];
      worst_ways_[line] = std::max(worst_ways_[line], ways);
      f.sentence = "shared accesses at line " + std::to_string(line) + " hit one bank up to " + std::to_string(worst_ways_[line]) +
                   " ways: a warp's access is served in that many passes (pad the array or change the index)";
    }
  }

  std::vector<CheckFinding> Sorted() const {
    std::vector<CheckFinding> out;
    for (const auto& [key, f] : found_) out.push_back(f);
    const auto rank = [](const CheckFinding& f) {
      // The order: races, out of bounds, divergent barriers, then uninitialized reads,
      // global races, bank conflicts; errors before warnings.
      constexpr std::array<int, 8> kOrder{0, 1, 2, 3, 6, 4, 5, 5};
      const int memory_rank = f.kind == FindingKind::kRace && f.memory == "global" ? 4 : kOrder[static_cast<std::size_t>(f.kind)];
      return std::make_tuple(!f.error, memory_rank, f.line, f.other_line);
    };
    std::stable_sort(out.begin(), out.end(), [&](const CheckFinding& a, const CheckFinding& b) { return rank(a) < rank(b); });
    return out;
  }

 private:
  using Key = std::tuple<FindingKind, std::string, std::string, int, int, bool>;

  CheckFinding& At(const CheckFinding& f) {
    const Key key{f.kind, f.memory, f.hazard, f.line, f.other_line, f.error};
    auto [it, added] = found_.emplace(key, f);
    (void)added;
    return it->second;
  }

  void Race(const Hazard& h) {
    const int first = HazardLine(kernel_, h.first.stage);
    const int second = HazardLine(kernel_, h.second.stage);
    // Named by program order: the write of RAW comes first, the read of WAR.
    const bool first_writes = h.first.write;
    const int write_line = first_writes ? first : second;
    const int read_line = first_writes ? second : first;
    const bool error = h.severity == Severity::kError;
    const std::string kind = Name(h.kind);
    // At the access that comes second in program order (the read of RAW, the write of WAR),
    // with the first as the other line.
    const bool waw = h.kind == HazardKind::kWaw;
    CheckFinding f{FindingKind::kRace, "shared", kind, waw ? second : (h.kind == HazardKind::kWar ? write_line : read_line),
                   waw ? first : (h.kind == HazardKind::kWar ? read_line : write_line), error, 0, ""};
    CheckFinding& entry = At(f);
    ++entry.count;
    if (!entry.sentence.empty()) return;
    const std::string scope = error ? "threads of different warps" : "lanes of one warp (right in lockstep, not guaranteed)";
    if (h.kind == HazardKind::kRaw) {
      entry.sentence = "line " + std::to_string(read_line) + " reads shared memory that line " + std::to_string(write_line) +
                       " writes, with no barrier between them, by " + scope + ": a __syncthreads() after line " +
                       std::to_string(write_line) + " orders them";
    } else if (h.kind == HazardKind::kWar) {
      entry.sentence = "line " + std::to_string(write_line) + " overwrites shared memory that line " + std::to_string(read_line) +
                       " may still be reading, by " + scope + ": a __syncthreads() after line " + std::to_string(read_line) +
                       " (before the next write) orders them";
    } else {
      entry.sentence = "lines " + std::to_string(first) + " and " + std::to_string(second) + " write the same shared element, by " +
                       scope + ": a __syncthreads() between them orders them";
    }
    if (error && has_syncwarp_) entry.sentence += " (__syncwarp() orders only the lanes of one warp)";
  }

  void Finding(const KernelFinding& k, const CheckSize& size) {
    const int line = LineAt(kernel_, k.pc);
    const std::string at = std::to_string(line);
    using K = KernelFinding::Kind;
    switch (k.kind) {
      case K::kGlobalOutside: {
        static constexpr const char* kNames[] = {"A", "B", "C"};
        CheckFinding& f = At({FindingKind::kOutOfBounds, "global", "", line, 0, true, 0, ""});
        ++f.count;
        if (f.sentence.empty()) {
          f.sentence = std::string("line ") + at + (k.write ? " writes " : " reads ") + kNames[k.array % 3] + "[" +
                       std::to_string(k.element) + "], outside its " + std::to_string(ElementsOf(k.array, size)) +
                       " elements at " + SizeText(size) + ": guard the access with the sizes";
        }
        return;
      }
      case K::kSharedOutside: {
        CheckFinding& f = At({FindingKind::kOutOfBounds, "shared", "", line, 0, true, 0, ""});
        ++f.count;
        if (f.sentence.empty()) {
          const cuda::SharedArray& a = kernel_.shared[k.array];
          f.sentence = "line " + at + " indexes " + a.name + " with " + std::to_string(k.element) +
                       ", outside its declared extents " + Extents(a) + " (at " + SizeText(size) + ")";
        }
        return;
      }
      case K::kLocalOutside: {
        CheckFinding& f = At({FindingKind::kOutOfBounds, "local", "", line, 0, true, 0, ""});
        ++f.count;
        if (f.sentence.empty()) {
          const cuda::Variable* array = VariableAt(kernel_.code[static_cast<std::size_t>(k.pc)].a);
          const std::string name = array != nullptr ? array->name : "a local array";
          f.sentence = "line " + at + " indexes " + name + " with " + std::to_string(k.element) +
                       (k.array > 0 ? ", outside the extent of its dimension " + std::to_string(k.array) + " (the element it names lies elsewhere in the array)"
                                    : ", outside it");
        }
        return;
      }
      case K::kUninitializedLocal: {
        CheckFinding& f = At({FindingKind::kUninitializedRead, "local", "", line, 0, true, 0, ""});
        ++f.count;
        if (f.sentence.empty()) {
          const cuda::Variable* local = VariableAt(static_cast<std::int32_t>(k.element));
          std::string name = "a local";
          if (local != nullptr) {
            name = local->name;
            if (local->length > 1) name += " element " + std::to_string(k.element - local->slot);
          }
          f.sentence = "line " + at + " reads " + name + " before the thread has written it: give it a value where it is declared";
        }
        return;
      }
      case K::kDivergentBarrier: {
        CheckFinding& f = At({FindingKind::kDivergentBarrier, "", "", line, 0, true, 0, ""});
        ++f.count;
        f.sentence = "the __syncthreads() at line " + at +
                     " is not reached by every thread of the block (some took another branch or returned): move it out of the condition";
        return;
      }
      case K::kUninitializedShared: {
        CheckFinding& f = At({FindingKind::kUninitializedRead, "shared", "", line, 0, true, 0, ""});
        ++f.count;
        if (f.sentence.empty()) {
          f.sentence = "line " + at + " reads " + kernel_.shared[k.array].name + " element " + std::to_string(k.element) +
                       ", which no thread of the block has written";
        }
        return;
      }
      case K::kGlobalRace: {
        const int other = LineAt(kernel_, k.other_pc);
        CheckFinding& f = At({FindingKind::kRace, "global", k.write ? "WAW" : "RAW", line, other, true, 0, ""});
        ++f.count;
        f.sentence = "line " + at + (k.write ? " writes" : " reads") + " an element of C that another thread writes at line " +
                     std::to_string(other) + ", with nothing ordering them (threads of a grid do not wait for each other): give each element one writer";
        return;
      }
      case K::kBudget: {
        CheckFinding& f = At({FindingKind::kNotTerminating, "", "", line, 0, true, 0, ""});
        ++f.count;
        f.sentence = "thread " + std::to_string(k.thread) + " of block " + std::to_string(k.block) + " is still looping at line " + at +
                     " after its instruction budget: the loop does not end";
        return;
      }
      case K::kDeadlock: {
        CheckFinding& f = At({FindingKind::kDeadlock, "", "", line, 0, true, 0, ""});
        ++f.count;
        f.sentence = "threads wait at line " + at + " for a barrier that can never release";
        return;
      }
      case K::kInputWritten: {
        CheckFinding& f = At({FindingKind::kInputWritten, "global", "", line, 0, true, 0, ""});
        ++f.count;
        f.sentence = "line " + at + " writes the input matrix " + std::string(k.array == 0 ? "A" : "B") + " (the check keeps it unchanged)";
        return;
      }
    }
  }

  // The local variable or array whose registers include `slot`; null for none.
  const cuda::Variable* VariableAt(std::int64_t slot) const {
    for (const cuda::Variable& v : kernel_.variables) {
      if (slot >= v.slot && slot < v.slot + v.length) return &v;
    }
    return nullptr;
  }

  static long long ElementsOf(int matrix, const CheckSize& s) {
    if (matrix == 0) return static_cast<long long>(s.m) * s.k;
    if (matrix == 1) return static_cast<long long>(s.k) * s.n;
    return static_cast<long long>(s.m) * s.n;
  }

  static std::string Extents(const cuda::SharedArray& a) {
    std::string text;
    for (int d = 0; d < a.rank; ++d) text += "[" + std::to_string(a.dims[static_cast<std::size_t>(d)]) + "]";
    return text;
  }

  const cuda::CompiledKernel& kernel_;
  bool has_syncwarp_ = false;
  std::map<Key, CheckFinding> found_;
  std::map<int, int> worst_ways_;
};

std::vector<CheckSize> DefaultSizes(const std::array<int, 3>& block, bool square) {
  const int multiple = std::max(kMinMultiple, 2 * std::max(block[0], block[1]));
  if (square) return {{multiple, multiple, multiple}, {kNonMultiple.n, kNonMultiple.n, kNonMultiple.n}};
  return {{multiple, multiple, multiple}, kNonMultiple};
}

// Blocks per axis at `size`: the --grid expressions, or enough to cover C; the problem in `error`.
std::optional<std::array<int, 3>> GridAt(const std::array<std::string, 3>& axes, const std::array<int, 3>& block, const CheckSize& size,
                                          std::string& error) {
  const std::array<int, 3> automatic{(size.n + block[0] - 1) / std::max(block[0], 1), (size.m + block[1] - 1) / std::max(block[1], 1), 1};
  const std::map<std::string, long long> names{{"M", size.m}, {"N", size.n}, {"K", size.k}};
  std::array<int, 3> grid{};
  for (std::size_t d = 0; d < 3; ++d) {
    if (axes[d] == kAutoGrid) {
      grid[d] = automatic[d];
      continue;
    }
    std::string why;
    const std::optional<long long> value = cuda::EvaluateIntegerExpression(axes[d], names, block, why);
    if (!value) {
      error = "--grid " + axes[d] + ": " + why;
      return std::nullopt;
    }
    if (*value < 1 || *value > (1ll << 31) - 1) {
      error = "--grid " + axes[d] + " gives " + std::to_string(*value) + " blocks at " + SizeText(size) + " (a grid axis needs 1 or more)";
      return std::nullopt;
    }
    grid[d] = static_cast<int>(*value);
  }
  return grid;
}

}  // namespace

std::optional<std::array<int, 3>> ParseExtents(const std::string& text, char separator) {
  std::array<int, 3> dims{1, 1, 1};
  std::size_t at = 0;
  for (std::size_t d = 0; d < 3; ++d) {
    if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text.substr(at), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (value < 1 || value > (1 << 16)) return std::nullopt;
    dims[d] = static_cast<int>(value);
    at += used;
    if (at == text.size()) return dims;
    if (text[at] != separator) return std::nullopt;
    ++at;
  }
  return std::nullopt;
}

std::string GridAxisProblem(const std::string& axis) {
  if (axis == kAutoGrid) return "";
  std::string error;
  const CheckSize sample{64, 64, 64};
  return GridAt({axis, kAutoGrid, kAutoGrid}, {16, 16, 1}, sample, error) ? "" : error;
}

std::optional<CheckRun> PlanCheckRun(const cuda::KernelFile& file, const KernelCheckOptions& options, const std::array<int, 3>& block,
                                     const CheckSize& size, std::string& error) {
  const Binding binding = Bind(file.kernel, options.int_values);
  if (!binding.error.empty()) {
    error = binding.error;
    return std::nullopt;
  }
  if (binding.square && (size.m != size.n || size.n != size.k)) {
    error = "the kernel takes one size, so each --sizes must be square (N), not " + SizeText(size);
    return std::nullopt;
  }
  const std::optional<std::array<int, 3>> grid = GridAt(options.grid, block, size, error);
  if (!grid) return std::nullopt;
  CheckRun run;
  run.size = size;
  run.grid = *grid;
  for (const std::int32_t argument : binding.arguments) {
    run.arguments.push_back(argument == kBindM ? size.m : argument == kBindN ? size.n : argument == kBindK ? size.k : argument);
  }
  return run;
}

CheckInputs InputsFor(const CheckSize& size, std::uint64_t seed) {
  return {Seeded(size.m, size.k, seed * 2 + 1), Seeded(size.k, size.n, seed * 2 + 2)};
}

Difference Differ(const std::vector<float>& c, const std::vector<float>& reference, int n) {
  Difference d;
  for (std::size_t i = 0; i < c.size() && i < reference.size(); ++i) {
    if (std::memcmp(&c[i], &reference[i], sizeof(float)) == 0) continue;
    if (!d.first) d.first = CheckRun::Wrong{static_cast<int>(i) / n, static_cast<int>(i) % n, c[i], reference[i]};
    ++d.count;
  }
  return d;
}

const char* Name(FindingKind kind) {
  static constexpr const char* kNames[] = {"race", "out_of_bounds", "divergent_barrier", "uninitialized_read",
                                           "bank_conflict", "not_terminating", "deadlock", "input_written"};
  return kNames[static_cast<int>(kind)];
}

bool KernelCheckReport::Passed() const {
  for (const CheckRun& r : runs) {
    if (r.wrong_elements > 0) return false;
  }
  for (const CheckFinding& f : findings) {
    if (f.error) return false;
  }
  return true;
}

CheckPlan PlanCheck(const cuda::KernelFile& file, const KernelCheckOptions& options) {
  CheckPlan plan;
  const cuda::CompiledKernel& kernel = file.kernel;
  std::array<int, 3> block{};
  if (options.block) {
    block = *options.block;
  } else if (file.launch_block) {
    for (std::size_t d = 0; d < 3; ++d) block[d] = static_cast<int>(std::clamp<long long>((*file.launch_block)[d], 0, 1 << 16));
  } else {
    plan.error = "the file launches no block the check can compute: pass --block XxY";
    return plan;
  }
  const Binding binding = Bind(kernel, options.int_values);
  if (!binding.error.empty()) {
    plan.error = binding.error;
    return plan;
  }
  plan.block = block;
  const std::vector<CheckSize> sizes = options.sizes.empty() ? DefaultSizes(block, binding.square) : options.sizes;
  const auto shared = std::make_shared<const cuda::CompiledKernel>(kernel);
  for (const CheckSize& size : sizes) {
    std::optional<CheckRun> planned = PlanCheckRun(file, options, block, size, plan.error);
    if (!planned) return plan;
    CheckPlan::Run run;
    KernelLaunch& launch = run.launch;
    launch.kernel = shared;
    launch.block = block;
    launch.grid = planned->grid;
    launch.m = size.m;
    launch.n = size.n;
    launch.k = size.k;
    launch.scheduler = options.scheduler;
    launch.seed = options.seed;
    launch.arguments = planned->arguments;
    if (const std::optional<std::string> problem = ValidateLaunch(launch)) {
      plan.error = "at " + SizeText(size) + ": " + *problem;
      return plan;
    }
    CheckInputs inputs = InputsFor(size, options.seed);
    run.a = std::move(inputs.a);
    run.b = std::move(inputs.b);
    run.planned = std::move(*planned);
    plan.runs.push_back(std::move(run));
  }
  return plan;
}

KernelCheckResult CheckKernel(const cuda::KernelFile& file, const KernelCheckOptions& options, const std::atomic<bool>* cancel) {
  KernelCheckResult result;
  const CheckPlan plan = PlanCheck(file, options);
  if (!plan.error.empty()) {
    result.error = plan.error;
    return result;
  }
  KernelCheckReport report;
  report.kernel = file.kernel.name;
  report.block = plan.block;
  report.seed = options.seed;
  Findings findings(file.kernel);
  for (const CheckPlan::Run& run : plan.runs) {
    Machine machine(run.launch, run.a, run.b);
    while (machine.Step()) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        result.error = "stopped";
        return result;
      }
    }
    CheckRun done = run.planned;
    done.c = machine.state().c;
    done.elements = done.c.size();
    const Counters& counted = machine.state().counters;
    done.global_reads = counted.global_reads_a + counted.global_reads_b;
    done.shared_writes = counted.shared_writes;
    const CheckSize& size = run.planned.size;
    const Difference wrong = Differ(done.c, ReferenceProduct(size.m, size.n, size.k, run.a, run.b), size.n);
    done.wrong_elements = wrong.count;
    done.first_wrong = wrong.first;
    report.runs.push_back(std::move(done));
    findings.AddRun(machine, size);
  }
  report.findings = findings.Sorted();
  result.report = std::move(report);
  return result;
}

nlohmann::json FindingJson(const CheckFinding& f) {
  nlohmann::json one{{"kind", Name(f.kind)}, {"line", f.line}, {"severity", f.error ? "error" : "warning"},
                     {"count", f.count}, {"sentence", f.sentence}};
  one["memory"] = f.memory.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.memory);
  one["hazard"] = f.hazard.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.hazard);
  one["other_line"] = f.other_line == 0 ? nlohmann::json(nullptr) : nlohmann::json(f.other_line);
  return one;
}

nlohmann::json CheckJson(const KernelCheckReport& report, const std::string& file) {
  nlohmann::json out;
  out["file"] = file;
  out["kernel"] = report.kernel;
  out["block"] = report.block;
  out["passed"] = report.Passed();
  out["runs"] = nlohmann::json::array();
  for (const CheckRun& r : report.runs) {
    nlohmann::json run{{"m", r.size.m}, {"n", r.size.n}, {"k", r.size.k}, {"elements", r.elements}, {"wrong_elements", r.wrong_elements}};
    run["first_wrong"] = r.first_wrong ? nlohmann::json{{"row", r.first_wrong->row}, {"col", r.first_wrong->col},
                                                        {"value", r.first_wrong->got}, {"expected", r.first_wrong->expected}}
                                       : nlohmann::json(nullptr);
    out["runs"].push_back(run);
  }
  out["findings"] = nlohmann::json::array();
  for (const CheckFinding& f : report.findings) out["findings"].push_back(FindingJson(f));
  return out;
}

}  // namespace sim
