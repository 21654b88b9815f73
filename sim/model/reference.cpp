#include "sim/model/reference.h"

#include <cmath>

#include "sim/model/bits.h"

namespace sim {

namespace {

// One k step of a row of C: every element takes its next product, so each still sums over k
// in order, to the bit. Rows run along B's rows (not down its columns), and on a CPU with FMA
// the clone the loader picks does 8 elements an instruction: a 512³ reference, which the
// window computes when it opens such a lesson, takes 16 ms of CPU instead of 340. (WebAssembly,
// the browser build's target, has one instruction set: nothing to choose there.)
#if defined(__x86_64__)
#define TILESCOPE_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define TILESCOPE_FMA_CLONES
#endif
TILESCOPE_FMA_CLONES void AddProducts(float a, const float* __restrict b_row,
                                                                   float* __restrict c_row, int n) {
  for (int col = 0; col < n; ++col) c_row[col] = std::fma(a, b_row[col], c_row[col]);
}

}  // namespace

std::vector<float> ReferenceProduct(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(static_cast<std::size_t>(m) * n, 0.0f);
  for (int row = 0; row < m; ++row) {
    float* c_row = c.data() + static_cast<std::size_t>(row) * n;
    for (int i = 0; i < k; ++i) {
      AddProducts(a[static_cast<std::size_t>(row) * k + i], b.data() + static_cast<std::size_t>(i) * n, c_row, n);
    }
  }
  return c;
}

RunOutcome Assess(const std::vector<float>& c, const std::vector<float>& reference, const Counters& counters) {
  RunOutcome outcome;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!SameBits(c[i], reference[i])) outcome.wrong.push_back(static_cast<std::int32_t>(i));
  }
  outcome.wrong_elements = outcome.wrong.size();
  outcome.hazards = counters.hazards;
  outcome.hazards_witnessed = counters.hazards_witnessed;
  outcome.reference = reference;
  if (outcome.wrong_elements > 0) {
    outcome.verdict = Verdict::kWrong;
  } else if (outcome.hazards_witnessed > 0) {
    outcome.verdict = Verdict::kWitnessedValuesCoincided;
  } else if (outcome.hazards > 0) {
    outcome.verdict = Verdict::kHazardsNotWitnessed;
  }
  return outcome;
}

std::string Describe(const RunOutcome& outcome, int elements) {
  switch (outcome.verdict) {
    case Verdict::kCorrect:
      return "C is correct and no hazard was detected";
    case Verdict::kHazardsNotWitnessed:
      return "C is correct, but " + std::to_string(outcome.hazards) +
             " hazards were detected: this schedule happened to keep the order the barrier would enforce";
    case Verdict::kWitnessedValuesCoincided:
      return "hazard witnessed, values coincided: " + std::to_string(outcome.hazards_witnessed) +
             " accesses ran in the wrong order, yet the stale and fresh values were equal, so C is right";
    case Verdict::kWrong:
      break;
  }
  return std::to_string(outcome.wrong_elements) + " of " + std::to_string(elements) + " elements of C are wrong";
}

}  // namespace sim
