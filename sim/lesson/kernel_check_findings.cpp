#include "sim/lesson/kernel_check_findings.h"

#include <algorithm>
#include <array>

namespace sim {
namespace {

int LineAt(const cuda::CompiledKernel& k, std::int64_t pc) {
  if (pc < 0 || pc >= static_cast<std::int64_t>(k.positions.size())) return 0;
  return k.positions[static_cast<std::size_t>(pc)].line;
}

long long ElementsOf(int matrix, const CheckSize& s) {
  if (matrix == 0) return static_cast<long long>(s.m) * s.k;
  if (matrix == 1) return static_cast<long long>(s.k) * s.n;
  return static_cast<long long>(s.m) * s.n;
}

std::string Extents(const cuda::SharedArray& a) {
  std::string text;
  for (int d = 0; d < a.rank; ++d) text += "[" + std::to_string(a.dims[static_cast<std::size_t>(d)]) + "]";
  return text;
}

}  // namespace

const char* Name(FindingKind kind) {
  static constexpr const char* kNames[] = {"race", "out_of_bounds", "divergent_barrier", "uninitialized_read",
                                           "bank_conflict", "not_terminating", "deadlock", "input_written"};
  return kNames[static_cast<int>(kind)];
}

CheckFindings::CheckFindings(const cuda::CompiledKernel& kernel) : kernel_(kernel) {
  for (const cuda::Instruction& i : kernel.code) has_syncwarp_ |= i.op == cuda::Opcode::kSyncwarp;
}

void CheckFindings::AddRun(const Machine& machine, const CheckSize& size) {
  // The tallies, not the logs: those stop at their limits, a count does not.
  const MachineState& s = machine.state();
  for (const RaceTally& race : s.kernel_races) Race(race);
  for (const KernelFindingTally& tally : s.kernel_findings) Finding(tally, size);
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

std::vector<CheckFinding> CheckFindings::Sorted() const {
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

CheckFinding& CheckFindings::At(const CheckFinding& f) {
  const Key key{f.kind, f.memory, f.hazard, f.line, f.other_line, f.error};
  auto [it, added] = found_.emplace(key, f);
  (void)added;
  return it->second;
}

void CheckFindings::Race(const RaceTally& h) {
  const int first = LineAt(kernel_, h.first_pc);
  const int second = LineAt(kernel_, h.second_pc);
  // Named by program order: the write of RAW comes first, the read of WAR.
  const bool first_writes = h.first_writes;
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
  entry.count += h.count;
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

void CheckFindings::Finding(const KernelFindingTally& tally, const CheckSize& size) {
  const KernelFinding& k = tally.first;
  const int line = LineAt(kernel_, k.pc);
  const std::string at = std::to_string(line);
  using K = KernelFinding::Kind;
  switch (k.kind) {
    case K::kGlobalOutside: {
      static constexpr const char* kNames[] = {"A", "B", "C"};
      CheckFinding& f = At({FindingKind::kOutOfBounds, "global", "", line, 0, true, 0, ""});
      f.count += tally.count;
      if (f.sentence.empty()) {
        f.sentence = std::string("line ") + at + (k.write ? " writes " : " reads ") + kNames[k.array % 3] + "[" +
                     std::to_string(k.element) + "], outside its " + std::to_string(ElementsOf(k.array, size)) +
                     " elements at " + SizeText(size) + ": guard the access with the sizes";
      }
      return;
    }
    case K::kSharedOutside: {
      CheckFinding& f = At({FindingKind::kOutOfBounds, "shared", "", line, 0, true, 0, ""});
      f.count += tally.count;
      if (f.sentence.empty()) {
        const cuda::SharedArray& a = kernel_.shared[k.array];
        f.sentence = "line " + at + " indexes " + a.name + " with " + std::to_string(k.element) +
                     ", outside its declared extents " + Extents(a) + " (at " + SizeText(size) + ")";
      }
      return;
    }
    case K::kLocalOutside: {
      CheckFinding& f = At({FindingKind::kOutOfBounds, "local", "", line, 0, true, 0, ""});
      f.count += tally.count;
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
      f.count += tally.count;
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
      f.count += tally.count;
      f.sentence = "the __syncthreads() at line " + at +
                   " is not reached by every thread of the block (some took another branch or returned): move it out of the condition";
      return;
    }
    case K::kUninitializedShared: {
      CheckFinding& f = At({FindingKind::kUninitializedRead, "shared", "", line, 0, true, 0, ""});
      f.count += tally.count;
      if (f.sentence.empty()) {
        f.sentence = "line " + at + " reads " + kernel_.shared[k.array].name + " element " + std::to_string(k.element) +
                     ", which no thread of the block has written";
      }
      return;
    }
    case K::kGlobalRace: {
      const int other = LineAt(kernel_, k.other_pc);
      CheckFinding& f = At({FindingKind::kRace, "global", k.write ? "WAW" : "RAW", line, other, true, 0, ""});
      f.count += tally.count;
      f.sentence = "line " + at + (k.write ? " writes" : " reads") + " an element of C that another thread writes at line " +
                   std::to_string(other) + ", with nothing ordering them (threads of a grid do not wait for each other): give each element one writer";
      return;
    }
    case K::kBudget: {
      CheckFinding& f = At({FindingKind::kNotTerminating, "", "", line, 0, true, 0, ""});
      f.count += tally.count;
      f.sentence = "thread " + std::to_string(k.thread) + " of block " + std::to_string(k.block) + " is still looping at line " + at +
                   " after its instruction budget: the loop does not end";
      return;
    }
    case K::kDeadlock: {
      CheckFinding& f = At({FindingKind::kDeadlock, "", "", line, 0, true, 0, ""});
      f.count += tally.count;
      f.sentence = "threads wait at line " + at + " for a barrier that can never release";
      return;
    }
    case K::kInputWritten: {
      CheckFinding& f = At({FindingKind::kInputWritten, "global", "", line, 0, true, 0, ""});
      f.count += tally.count;
      f.sentence = "line " + at + " writes the input matrix " + std::string(k.array == 0 ? "A" : "B") + " (the check keeps it unchanged)";
      return;
    }
  }
}

const cuda::Variable* CheckFindings::VariableAt(std::int64_t slot) const {
  for (const cuda::Variable& v : kernel_.variables) {
    if (slot >= v.slot && slot < v.slot + v.length) return &v;
  }
  return nullptr;
}

}  // namespace sim
