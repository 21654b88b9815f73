#include "sim/lesson/kernel_narration.h"

#include <cstring>

#include "sim/lesson/narration.h"
#include "sim/model/bits.h"

namespace sim {
namespace {

using Did = KernelStepRecord::Did;

const char* MatrixName(int matrix) {
  return matrix == static_cast<int>(MatrixId::kA) ? "A" : matrix == static_cast<int>(MatrixId::kB) ? "B" : "C";
}

// "A[2][5]" for element 2·K + 5 of A (M×K), as the kernel indexes it row-major.
std::string GlobalElement(const Snapshot& snapshot, const KernelStepRecord& told) {
  const KernelConfig& c = snapshot.config();
  const int cols = told.array == static_cast<int>(MatrixId::kA) ? c.k : c.n;
  const long long row = cols > 0 ? told.element / cols : 0;
  const long long col = cols > 0 ? told.element % cols : told.element;
  return std::string(MatrixName(told.array)) + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

// "As[2][0]": the flat index split along the array's declared extents.
std::string SharedElement(const cuda::SharedArray& array, long long flat) {
  std::string index;
  for (int d = array.rank - 1; d >= 0; --d) {
    const int extent = array.dims[static_cast<std::size_t>(d)];
    index = "[" + std::to_string(flat % extent) + "]" + index;
    flat /= extent;
  }
  return array.name + index;
}

std::string Extents(const cuda::SharedArray& array) {
  std::string text;
  for (int d = 0; d < array.rank; ++d) text += "[" + std::to_string(array.dims[static_cast<std::size_t>(d)]) + "]";
  return text;
}

// A value as the array holds it: an int array's words are ints.
std::string SharedValue(const cuda::SharedArray& array, float value) {
  if (array.type != cuda::Type::kInt || SameBits(value, SharedPoison())) return FormatValue(value);
  std::int32_t word = 0;
  std::memcpy(&word, &value, sizeof word);
  return std::to_string(word);
}

std::string GlobalAccessText(const Snapshot& snapshot, const KernelStepRecord& told) {
  const bool load = told.did == Did::kLoadGlobal;
  const char* matrix = MatrixName(told.array);
  if (told.outside) {
    return std::string(load ? "reads" : "writes") + " element " + std::to_string(told.element) + " of " + matrix +
           ", outside it (out of bounds: " + (load ? "the model gives 0" : "the store is dropped") + ")";
  }
  if (load) return "reads " + GlobalElement(snapshot, told) + " = " + FormatValue(told.value) + " from global memory";
  return "writes " + GlobalElement(snapshot, told) + " = " + FormatValue(told.value) +
         (told.array == static_cast<int>(MatrixId::kC) ? "" : ", an input the kernel should only read");
}

std::string SharedAccessText(const Snapshot& snapshot, const KernelStepRecord& told) {
  const cuda::SharedArray& array = snapshot.kernel()->shared[static_cast<std::size_t>(told.array)];
  const bool load = told.did == Did::kLoadShared;
  if (told.outside) {
    return std::string(load ? "reads " : "writes ") + array.name + " outside its declared " + Extents(array) +
           " (out of bounds, even where the address stays in shared memory)";
  }
  const std::string element = SharedElement(array, told.element);
  if (!load) return "stores " + SharedValue(array, told.value) + " into " + element;
  if (SameBits(told.value, SharedPoison())) return "reads " + element + ", which no thread has written yet";
  return "reads " + element + " = " + SharedValue(array, told.value) + " from shared memory";
}

std::string Barrier(const KernelStepRecord& told, const std::string& block) {
  const char* name = told.did == Did::kSyncthreads ? "__syncthreads()" : "__syncwarp()";
  std::string text = std::string("waits at ") + name;
  if (told.released > 0) {
    text += "; that was the last of them: " + std::to_string(told.released) + " waiting threads of " + block + " go on together";
  }
  return text;
}

std::string WhatItDid(const Snapshot& snapshot, const KernelStepRecord& told, const std::string& block) {
  switch (told.did) {
    case Did::kLoadGlobal:
    case Did::kStoreGlobal:
      return GlobalAccessText(snapshot, told);
    case Did::kLoadShared:
    case Did::kStoreShared:
      return SharedAccessText(snapshot, told);
    case Did::kSyncthreads:
    case Did::kSyncwarp:
      return Barrier(told, block);
    case Did::kExit:
      return told.released > 0 ? "returns; with it gone, " + std::to_string(told.released) + " threads waiting at a barrier go on"
                                : "returns: its work is done";
    case Did::kNothing:
      break;
  }
  return "";
}

// "; a RAW race on As[1][0] with thread 17, no barrier between them (3 this step)".
std::string HazardsMet(const Snapshot& snapshot) {
  const std::vector<Hazard>& logged = snapshot.hazards();
  const std::size_t first = snapshot.first_hazard_of_last_step();
  if (first >= logged.size()) return "";
  const Hazard& hazard = logged[first];
  const std::size_t count = logged.size() - first;
  const cuda::SharedArray& array = snapshot.kernel()->shared[static_cast<std::size_t>(hazard.row)];
  std::string text = std::string("; a ") + Name(hazard.kind) + " race on " + SharedElement(array, hazard.col) +
                     " with thread " + std::to_string(hazard.first.thread) + ", no barrier between them";
  if (count > 1) text += " (" + std::to_string(count) + " this step)";
  return text;
}

}  // namespace

std::string NarrateKernelStep(const Snapshot& snapshot) {
  if (snapshot.kernel() == nullptr) return "";
  const KernelStepRecord& told = snapshot.last_kernel_step();
  if (told.did == Did::kNothing || told.lanes == 0) {
    return snapshot.step() == 0 ? "Ready: no instruction of your kernel has run yet" : "";
  }
  const Thread& thread = snapshot.threads()[static_cast<std::size_t>(told.first_thread + __builtin_ctz(told.lanes))];
  const Block& b = snapshot.blocks()[static_cast<std::size_t>(thread.block)];
  const std::string block = "block " + Coordinates(b.bx, b.by);
  const std::string line = "line " + std::to_string(told.line);
  const std::string did = WhatItDid(snapshot, told, block);
  const int lanes = CountBits(told.lanes);
  if (lanes == 1) {
    return "Thread " + Coordinates(thread.tx, thread.ty) + " of " + block + ", " + line + ": " + did + HazardsMet(snapshot);
  }
  const int warp = snapshot.warps()[static_cast<std::size_t>(thread.warp)].index_in_block;
  return "Warp " + std::to_string(warp) + " of " + block + ", " + std::to_string(lanes) + " lanes at " + line + ": thread " +
         Coordinates(thread.tx, thread.ty) + " " + did + ", and the other lanes likewise" + HazardsMet(snapshot);
}

}  // namespace sim
