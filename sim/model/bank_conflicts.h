// bank_conflicts.h — which shared-memory words one warp's lanes touch in one access of a
// tiled kernel, and how many ways they conflict in the 32 banks. The model charges each
// warp-instruction (ways − 1) extra wavefronts from here; lessons and tests ask it directly.
//
// A bank serves one 4-byte word per wavefront; lanes reading the same word share it (a
// broadcast), lanes reading different words of one bank wait for each other.
#pragma once
#include <vector>

#include "sim/model/kernel_config.h"

namespace sim {

enum class WarpAccess {
  kStoreAs,  // As[ty][tx + j·TN] = a (square tiles: As[ty][tx])
  kStoreBs,  // Bs[ty + j·TM][tx]    (square: Bs[ty][tx]; transposed layout: Bs[tx][ty])
  kReadAs,   // the FMA's As[ty][k], k = j
  kReadBs,   // the FMA's Bs[k][tx]  (transposed layout: Bs[tx][k])
};

// The words (As first, then Bs, as the kernel declares them) the live lanes of warp `warp`
// of a block touch in access `access` at loop index `j`; a lane whose loop skips it is left
// out. Empty for the naive kernel.
std::vector<int> WarpWords(const KernelConfig& config, int warp, WarpAccess access, int j);
// The most distinct words any one bank holds among `words`: 1 conflict-free or a broadcast,
// N an N-way conflict; 0 for no words.
int BankWays(std::vector<int> words);
// BankWays(WarpWords(...)).
int BankWays(const KernelConfig& config, int warp, WarpAccess access, int j);

}  // namespace sim
