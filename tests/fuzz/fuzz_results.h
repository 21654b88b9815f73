// fuzz_results.h — one property for both saved-results formats: any text reads or is
// refused with a message, never a crash; what reads writes out to text that reads again
// and writes out the same.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_check.h"
#include "kernels/results_file.h"

using ReadResults = std::optional<std::string> (*)(const std::string&, kernels::ResultsFile&);
using WriteResults = std::string (*)(const kernels::ResultsFile&);

inline void CheckResultsRoundTrip(const std::uint8_t* data, std::size_t size, ReadResults read, WriteResults write) {
  kernels::ResultsFile file;
  if (read(std::string(reinterpret_cast<const char*>(data), size), file)) return;
  // Compared from the first write on: JSON writes inf as null, which reads back as NaN.
  const std::string written = write(file);
  kernels::ResultsFile reread;
  FUZZ_CHECK(!read(written, reread), "results that were read read again once written");
  FUZZ_CHECK(write(reread) == written, "writing what was read again gives the same text");
}
