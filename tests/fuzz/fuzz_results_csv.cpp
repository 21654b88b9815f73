// Saved results as CSV (`tilescope bench --csv`, the live panel's files): see fuzz_results.h.
#include "fuzz_results.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  CheckResultsRoundTrip(data, size, kernels::ResultsFromCsv, kernels::ResultsToCsv);
  return 0;
}
